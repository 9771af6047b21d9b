"""A person reads rows under their column names in Chromium with JavaScript on, at a laptop's and a
phone's width: on a live query's page (the SQL page's "Watch live", a canned query's live page) and
on a database table's page. At 1280 px each column name sits over its values (the name's box and
the first row's field share their left and right edges within 2 px), a number's column is as narrow
as its numbers with its name ending where they end, and a result of many columns makes the page
scroll sideways rather than cut its rows; at 390 px the rows are stacked, each value named, and the
page never scrolls sideways. Screenshots of each step go to /tmp/tablepages-journeys (see
journey.py) and to /tmp/h13-*.png."""
import json
import sqlite3
import urllib.parse

import pytest
from selenium.webdriver.common.by import By

from conftest import wait_until
from journey import SIZE_IDS, SIZES, check_step, live, read_only_database_site, set_size
from test_journeys_database_tools import make_orders

CONFIG = {"queries": {"by_customer": {"title": "Orders of a customer", "sql": "select * from orders where customer = :customer"}}}


def make_shop(path):
    make_orders(path)
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)")
        db.executemany("INSERT INTO customers VALUES (?, ?)", [(1, "Ada Lovelace"), (2, "Grace Hopper"), (3, "Alan Turing")])


@pytest.fixture(scope="module")
def shop(tmp_path_factory):
    directory = tmp_path_factory.mktemp("journey-columns-config")
    config = directory / "site.json"
    config.write_text(json.dumps(CONFIG))
    for base, _, _ in read_only_database_site(tmp_path_factory, "journey-columns", make_shop, "--config", str(config)):
        yield base


def live_sql(sql):
    return "/pages/-~2Fsql?sql=" + urllib.parse.quote(sql)


def columns_and_first_row(browser):
    """The visible column names and the first record's fields and values, each a list of
    (field, left, right, width) in the page's order, with the page's scroll width and the row's."""
    return browser.execute_script("""
        const edges = (field, element) => { const box = element.getBoundingClientRect(); return [field, box.left, box.right, box.width]; };
        const names = [...document.querySelectorAll('.tk-db-columns-row > .tk-db-column')]
          .filter((column) => column.getBoundingClientRect().width > 0).map((column) => edges(column.dataset.field, column));
        const row = document.querySelector(".tk-row[data-kind='record'] > .tk-cell");
        const fields = [...row.querySelectorAll(':scope > .tk-field')];
        return {names, fields: fields.map((field) => edges(field.dataset.field, field)),
                values: fields.map((field) => edges(field.dataset.field, field.querySelector('.tk-field-value'))),
                scrollWidth: document.documentElement.scrollWidth, rowWidth: row.getBoundingClientRect().width};""")


def named(boxes):
    return [box[0] for box in boxes]


def box_of(boxes, field):
    return next(box for box in boxes if box[0] == field)


def misaligned(measured):
    """The columns whose name's box does not share its left and right edges with the first row's
    field in the same place (within 2 px), as (name, name's edges, field's edges)."""
    if len(measured["names"]) != len(measured["fields"]):
        return [("a different number of names and fields", named(measured["names"]), named(measured["fields"]))]
    return [(name[0], name[1:3], field[1:3]) for name, field in zip(measured["names"], measured["fields"])
            if name[0] != field[0] or abs(name[1] - field[1]) > 2 or abs(name[2] - field[2]) > 2]


def shoot(browser, name, size):
    browser.save_screenshot(f"/tmp/h13-{name}-{size[0]}.png")
    check_step(browser, f"columns-{name}", size)


def open_live(browser, base, path):
    browser.get(base + path)
    assert wait_until(lambda: live(browser), 5), "the live page's stream opens"
    assert wait_until(lambda: browser.execute_script("return document.querySelector('.tk-table').style.getPropertyValue('--tk-db-columns') !== ''"), 5), \
        "the page script sized the columns"


def assert_phone_rows_named(browser, fields):
    """At a phone's width: the rows are stacked, each value under or beside its visible name."""
    names = browser.execute_script(
        "return [...document.querySelector(\".tk-row[data-kind='record'] > .tk-cell\")"
        ".querySelectorAll('.tk-field-name')].filter((name) => name.getBoundingClientRect().width > 1).map((name) => name.textContent)")
    assert names == fields


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
@pytest.mark.parametrize("page", ["sql-live", "canned-live"])
def test_a_live_querys_column_names_sit_over_its_values(shop, browser, size, page):
    set_size(browser, size)
    if page == "sql-live":
        open_live(browser, shop, live_sql("SELECT status, count(*) AS n, sum(total) AS total FROM orders GROUP BY status"))
        fields = ["status", "n", "total"]
    else:
        open_live(browser, shop, "/pages/queries~2Fby_customer?customer=Ada+Lovelace")
        fields = ["id", "customer", "status", "total", "placed", "code"]
    shoot(browser, page, size)
    measured = columns_and_first_row(browser)
    assert named(measured["fields"]) == fields
    if size[0] < 600:
        assert measured["names"] == [], "a phone names each value in its row, not over the rows"
        assert_phone_rows_named(browser, fields)
        return
    assert named(measured["names"]) == fields
    assert misaligned(measured) == [], f"column names not over their values at {size[0]} px: {misaligned(measured)}"
    # The names' bar is as wide as a row.
    bar = browser.execute_script("return document.querySelector('.tk-db-columns-row').getBoundingClientRect().width")
    assert abs(bar - measured["rowWidth"]) <= 2, f"the names' bar is {bar} px wide, a row {measured['rowWidth']} px"
    # A number's name ends where its numbers end.
    for name in ("n", "total", "id"):
        if name in fields:
            assert abs(box_of(measured["names"], name)[2] - box_of(measured["values"], name)[2]) <= 2, f"{name}'s name does not end where its numbers end"


def test_a_live_query_of_many_columns_widens_the_page_rather_than_cut_its_rows(shop, browser):
    size = SIZES[0]
    set_size(browser, size)
    open_live(browser, shop, live_sql("SELECT * FROM orders a JOIN orders b USING (id) JOIN orders c USING (id) LIMIT 20"))
    browser.save_screenshot(f"/tmp/h13-sql-live-wide-{size[0]}.png")
    measured = columns_and_first_row(browser)
    assert len(measured["fields"]) == 16
    assert misaligned(measured) == [], f"column names not over their values: {misaligned(measured)}"
    # Every value is inside its row, none cut off by the row's edge: the page scrolls instead.
    last = max(box[2] for box in measured["values"])
    assert measured["scrollWidth"] >= last, "the page reaches the last column"
    row_right = browser.execute_script("return document.querySelector(\".tk-row[data-kind='record']\").getBoundingClientRect().right")
    assert last <= row_right
    # The SQL stays on screen.
    code = browser.find_element(By.CSS_SELECTOR, ".tp-sql-code").rect
    assert code["x"] >= 0 and code["x"] + code["width"] <= size[0]


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_a_tables_number_column_is_as_narrow_as_its_numbers(shop, browser, size):
    set_size(browser, size)
    open_live(browser, shop, "/pages/customers")
    shoot(browser, "customers", size)
    measured = columns_and_first_row(browser)
    assert named(measured["fields"]) == ["id", "name"]
    if size[0] < 600:
        assert_phone_rows_named(browser, ["id", "name"])
        return
    assert misaligned(measured) == [], f"column names not over their values at {size[0]} px: {misaligned(measured)}"
    # One-digit ids: the column holds its name and its menu's button (5 characters), not a share
    # of the screen; the name ends where the ids end, and the names take the room left.
    assert box_of(measured["fields"], "id")[3] < 80, f"the id column is {box_of(measured['fields'], 'id')[3]} px wide"
    assert abs(box_of(measured["names"], "id")[2] - box_of(measured["values"], "id")[2]) <= 2, "id's name ends where the ids end"
    assert box_of(measured["fields"], "name")[3] > 600
