"""A data person finding their way around a database, in Chromium with JavaScript on, at a laptop's
and a phone's width: breadcrumbs (the site › the table › the row, as links, `aria-current` on the
page shown) on a table's page and a row's page lead up again; a customer's name that mixes scripts
("Björk علي") shows beside its id in order, "Björk علي 4274", not "Björk 4274 علي". No sideways
scroll, no console error, no serious axe finding; a screenshot of each step."""
import sqlite3

import pytest
from selenium.webdriver.common.by import By

from journey import SIZE_IDS, SIZES, check_step, live, navigate, read_only_database_site, serious_violations, set_size
from conftest import wait_until

MIXED = "Björk علي"


def make_shop(path):
    with sqlite3.connect(path) as db:
        db.executescript("""
            CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
            CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES customers(id), total REAL NOT NULL);
        """)
        db.executemany("INSERT INTO customers VALUES (?, ?)", [(4274, MIXED), (7, "Ada Lovelace")])
        db.executemany("INSERT INTO orders VALUES (?, ?, ?)", [(n, 4274 if n % 2 else 7, n * 2.5) for n in range(1, 21)])


@pytest.fixture(scope="module")
def shop(tmp_path_factory):
    yield from read_only_database_site(tmp_path_factory, "journey-crumbs", make_shop)


def open_live(browser, size, url):
    """Opens `url` at `size` and waits until it is live."""
    set_size(browser, size)
    navigate(browser, lambda: browser.get(url))
    assert wait_until(lambda: live(browser), 10)


def crumbs(browser):
    """The breadcrumbs as (text, href, aria-current) in order."""
    return [(link.text, link.get_attribute("href"), link.get_attribute("aria-current"))
            for link in browser.find_elements(By.CSS_SELECTOR, "nav.tp-crumbs[aria-label='Breadcrumb'] a")]


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_breadcrumbs_lead_from_a_row_up_to_the_site(shop, browser, size):
    base, _, _ = shop
    open_live(browser, size, base + "/pages/orders?_sort_desc=total")
    assert crumbs(browser) == [("TablePages", base + "/", None), ("orders", base + "/pages/orders?sort=-total", "page")]
    check_step(browser, "crumbs-1-table", size)
    assert serious_violations(browser) == []

    navigate(browser, lambda: browser.find_element(By.CSS_SELECTOR, ".tk-row[data-row='20'] a.tk-key").click())
    assert crumbs(browser) == [
        ("TablePages", base + "/", None),
        ("orders", base + "/pages/orders?sort=-total", None),
        ("20", base + "/pages/orders/rows/20?sort=-total", "page"),
    ]
    assert browser.find_element(By.CSS_SELECTOR, "h1").text == "orders: 20"
    check_step(browser, "crumbs-2-row", size)
    assert serious_violations(browser) == []

    navigate(browser, lambda: browser.find_elements(By.CSS_SELECTOR, "nav.tp-crumbs a")[1].click())
    assert browser.current_url == base + "/pages/orders?sort=-total"
    navigate(browser, lambda: browser.find_elements(By.CSS_SELECTOR, "nav.tp-crumbs a")[0].click())
    assert browser.current_url == base + "/"
    assert browser.find_element(By.CSS_SELECTOR, "h1").text == "TablePages"


# Where each piece of an order's customer cell is drawn: the label's box (all its line boxes) and
# the id's. Isolated, the label is one run left of the id; not isolated, the id is drawn inside it.
CUSTOMER_CELL_BOXES = """
const cell = document.querySelector(".tk-row[data-row='1'] [data-field='customer_id']");
const label = cell.querySelector('.tk-fk > a');
const value = cell.querySelector('.tk-fk-value');
const range = document.createRange();
range.selectNodeContents(label);
const parts = [...range.getClientRects()].filter((rect) => rect.width > 0);
return {labelLeft: Math.min(...parts.map((r) => r.left)), labelRight: Math.max(...parts.map((r) => r.right)),
        valueLeft: value.getBoundingClientRect().left, text: cell.querySelector('.tk-fk').innerText};
"""


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_a_mixed_script_label_shows_in_order_beside_its_id(shop, browser, size):
    base, _, _ = shop
    open_live(browser, size, base + "/pages/orders")
    boxes = browser.execute_script(CUSTOMER_CELL_BOXES)
    assert boxes["text"] == f"{MIXED} 4274"
    assert boxes["labelRight"] <= boxes["valueLeft"], f"the id is drawn inside the label: {boxes}"
    check_step(browser, "crumbs-3-mixed-label", size)

    navigate(browser, lambda: browser.find_element(By.CSS_SELECTOR, ".tk-row[data-row='1'] .tk-fk > a").click())
    assert browser.current_url == base + "/pages/customers/rows/4274"
    heading = browser.find_element(By.CSS_SELECTOR, "h1 bdi + bdi")
    assert heading.text == "4274"
    check_step(browser, "crumbs-4-customer", size)
