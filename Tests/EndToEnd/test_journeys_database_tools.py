"""A person's journey through a `--database` table's tools in Chromium with JavaScript on, at a
laptop's and a phone's width: the column menu in a column's header (sort by it, hide it, by mouse
and by keyboard), a suggested facet, and a row's own page with its JSON link. Each step is checked
by what the person sees (the URL, the rows, the counts, equal to SQLite's), and the page never
scrolls sideways, never logs a console error."""
import json
import sqlite3
import urllib.parse

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import console_errors, wait_until
from journey import SIZE_IDS, SIZES, check_step, navigate, read_only_database_site, set_size

ROWS = 300
CUSTOMERS = ["Ada Lovelace", "Grace Hopper", "Alan Turing", "Edsger Dijkstra", "Barbara Liskov", "Donald Knuth", "Frances Allen"]
STATUSES = ["pending", "paid", "shipped", "delivered", "cancelled"]


def make_orders(path):
    """Orders with two columns of few values (customer, status) and three of many (total, placed, code)."""
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE orders (id INTEGER PRIMARY KEY, customer TEXT, status TEXT, total REAL, placed TEXT, code TEXT)")
        db.executemany("INSERT INTO orders VALUES (?, ?, ?, ?, ?, ?)", [
            (n, CUSTOMERS[n % len(CUSTOMERS)], STATUSES[n % len(STATUSES)], round((n * 7919) % 50000 / 100, 2),
             f"2024-{n % 12 + 1:02d}-{n % 28 + 1:02d}", f"C{n:04d}")
            for n in range(1, ROWS + 1)
        ])


@pytest.fixture(scope="module")
def shop(tmp_path_factory):
    yield from read_only_database_site(tmp_path_factory, "journey-database-tools", make_orders)


def sqlite_rows(database, sql):
    with sqlite3.connect(database) as db:
        return db.execute(sql).fetchall()


def shown_ids(browser):
    return browser.execute_script(
        "return [...document.querySelectorAll(\".tk-row[data-kind='record']\")].map((row) => row.dataset.row)")


def stated_count(browser):
    return int(browser.find_element(By.CSS_SELECTOR, ".tk-db-count").text.split()[0].replace(",", ""))


def query(browser):
    return urllib.parse.parse_qs(urllib.parse.urlsplit(browser.current_url).query)


def menu(browser, column):
    return browser.find_element(By.CSS_SELECTOR, f".tk-db-column[data-field='{column}'] details.tk-db-menu")


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_column_menu_suggested_facet_and_a_rows_json(shop, browser, size):
    base, database, _ = shop
    set_size(browser, size)
    browser.get(base + "/pages/orders")
    assert stated_count(browser) == ROWS
    # Columns of 2 to 30 distinct values, as SQLite counts them.
    distinct = {column: sqlite_rows(database, f"SELECT count(DISTINCT {column}) FROM orders")[0][0]
                for column in ["customer", "status", "total", "placed", "code"]}
    few = [column for column, count in distinct.items() if 2 <= count <= 30]
    assert few == ["customer", "status"]
    suggested = browser.find_element(By.CSS_SELECTOR, ".tk-db-suggested")
    # Then, as Datasette suggests it, a date facet of the column that holds dates.
    assert suggested.is_displayed() and suggested.text == "Suggested facets: " + ", ".join(few) + ", placed (date)"

    # The column menu, by mouse: it opens on its button, shows its links, and sorts descending.
    total = menu(browser, "total")
    assert not any(link.is_displayed() for link in total.find_elements(By.CSS_SELECTOR, "li a")), "closed until asked"
    total.find_element(By.TAG_NAME, "summary").click()
    items = [link.text for link in total.find_elements(By.CSS_SELECTOR, "li a")]
    assert items == ["Sort ascending", "Sort descending", "Facet by this", "Hide this column", "Show only not-null"]
    assert all(link.is_displayed() for link in total.find_elements(By.CSS_SELECTOR, "li a"))
    check_step(browser, "tools-1-menu-open", size)
    navigate(browser, total.find_element(By.LINK_TEXT, "Sort descending").click)
    assert query(browser).get("_sort_desc") == ["total"]
    expected = [str(row[0]) for row in sqlite_rows(database, "SELECT id FROM orders ORDER BY total DESC, id DESC LIMIT 100")]
    assert shown_ids(browser)[:100] == expected
    assert browser.find_element(By.CSS_SELECTOR, ".tk-db-column[data-field='total']").get_attribute("aria-sort") == "descending"

    # By keyboard: the menu's button takes the focus, Enter opens it, Escape closes it, and a link
    # in it followed by Enter hides the column; the sort stays.
    placed = menu(browser, "placed")
    summary = placed.find_element(By.TAG_NAME, "summary")
    browser.execute_script("arguments[0].focus()", summary)
    summary.send_keys(Keys.ENTER)
    assert wait_until(lambda: placed.get_attribute("open") is not None, 2)
    summary.send_keys(Keys.ESCAPE)
    assert wait_until(lambda: placed.get_attribute("open") is None, 2), "Escape closes the menu"
    assert browser.switch_to.active_element == summary, "and gives the focus back to its button"
    summary.send_keys(Keys.ENTER)
    hide = placed.find_element(By.LINK_TEXT, "Hide this column")
    navigate(browser, lambda: hide.send_keys(Keys.ENTER))
    assert query(browser).get("_nocol") == ["placed"] and query(browser).get("_sort_desc") == ["total"]
    assert browser.find_elements(By.CSS_SELECTOR, "[data-field='placed']") == [], "no header and no value of it"
    assert browser.find_element(By.CSS_SELECTOR, ".tk-db-hidden").text == "Hidden columns: placed"
    assert shown_ids(browser)[:100] == expected
    assert stated_count(browser) == ROWS
    check_step(browser, "tools-2-hidden", size)

    # A suggested facet: its counts are SQLite's, and the page keeps its sort and hidden column.
    navigate(browser, browser.find_element(By.CSS_SELECTOR, ".tk-db-suggested").find_element(By.LINK_TEXT, "status").click)
    assert query(browser).get("_facet") == ["status"] and query(browser).get("_nocol") == ["placed"]
    facet = browser.find_element(By.CSS_SELECTOR, ".tk-db-facet[data-field='status']")
    shown = sorted((item.find_element(By.CSS_SELECTOR, "a").text, int(item.find_element(By.CSS_SELECTOR, ".tk-db-facet-count").text))
                   for item in facet.find_elements(By.CSS_SELECTOR, "li"))
    assert shown == sorted(sqlite_rows(database, "SELECT status, count(*) FROM orders GROUP BY status"))
    assert browser.find_element(By.CSS_SELECTOR, ".tk-db-suggested").text == "Suggested facets: customer", "placed is hidden: no date facet"
    check_step(browser, "tools-3-faceted", size)

    # A row's own page shows every column, and its JSON link answers the row as JSON.
    first = expected[0]
    link = browser.find_element(By.CSS_SELECTOR, f".tk-row[data-row='{first}'] a.tk-key")
    navigate(browser, link.click)
    assert urllib.parse.urlsplit(browser.current_url).path == f"/pages/orders/rows/{first}"
    assert browser.find_element(By.CSS_SELECTOR, ".tk-row-page .tk-field[data-field='placed'] .tk-field-value").is_displayed()
    json_link = browser.find_element(By.LINK_TEXT, "JSON")
    assert json_link.is_displayed()
    check_step(browser, "tools-4-row", size)
    navigate(browser, json_link.click)
    assert urllib.parse.urlsplit(browser.current_url).path == f"/pages/orders/rows/{first}.json"
    answer = json.loads(browser.find_element(By.TAG_NAME, "body").text)
    row = sqlite_rows(database, f"SELECT id, customer, status, total, placed, code FROM orders WHERE id = {first}")[0]
    assert answer["id"] == first
    assert [answer["fields"][name] for name in ["id", "customer", "status", "total", "placed", "code"]] == list(row)
    # A JSON document names no icon, so Chromium asks for /favicon.ico, which the server has not.
    assert [entry for entry in console_errors(browser) if "/favicon.ico" not in entry["message"]] == []
