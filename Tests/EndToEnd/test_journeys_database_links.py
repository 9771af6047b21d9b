"""A person's journey along a foreign key in Chromium, at a laptop's and a phone's width: open the
orders, see each order's customer by name as a link, follow it to the customer's own page, see
there how many orders refer to the customer ("Links from other tables"), and follow that back
to the orders filtered to the customer, each checked against SQLite. The page never scrolls
sideways and logs no console error (``journey.check_step``); a screenshot of each step is saved."""
import sqlite3

import pytest
from selenium.webdriver.common.by import By

from journey import SIZE_IDS, SIZES, check_step, navigate, read_only_database_site, set_size

CUSTOMERS = ["Ada Lovelace", "Grace Hopper", "Alan Turing", "Edsger Dijkstra", "Barbara Liskov"]
ORDERS = 300


def make_shop(path):
    with sqlite3.connect(path) as db:
        db.executescript("""
            CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT);
            CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES customers(id),
                                 status TEXT NOT NULL, total REAL NOT NULL);
        """)
        db.executemany("INSERT INTO customers VALUES (?, ?, ?)", [(n + 1, name, f"City {n}") for n, name in enumerate(CUSTOMERS)])
        db.executemany("INSERT INTO orders VALUES (?, ?, ?, ?)", [
            (n, 1 + (n * 7) % len(CUSTOMERS), ["paid", "shipped", "pending"][n % 3], round((n * 7919) % 50000 / 100, 2))
            for n in range(1, ORDERS + 1)
        ])


@pytest.fixture(scope="module")
def shop(tmp_path_factory):
    yield from read_only_database_site(tmp_path_factory, "journey-links", make_shop)


def shown_ids(browser):
    return browser.execute_script(
        "return [...document.querySelectorAll(\".tk-row[data-kind='record']\")].map((row) => row.dataset.row)")


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_follow_an_orders_customer_to_its_row_and_back_to_its_orders(shop, browser, size):
    base, database, _ = shop
    set_size(browser, size)
    browser.get(base + "/pages/orders")
    first = browser.find_element(By.CSS_SELECTOR, ".tk-row[data-kind='record'][data-row='1'] [data-field='customer_id']")
    customer = 1 + 7 % len(CUSTOMERS)
    link = first.find_element(By.CSS_SELECTOR, ".tk-fk > a")
    assert link.text == CUSTOMERS[customer - 1], "the customer's name, not its number"
    assert first.find_element(By.CSS_SELECTOR, ".tk-fk-value").text == str(customer)
    check_step(browser, "links-1-orders", size)

    navigate(browser, link.click)
    assert browser.current_url == f"{base}/pages/customers/rows/{customer}"
    assert CUSTOMERS[customer - 1] in browser.find_element(By.CSS_SELECTOR, "[data-field='name']").text
    with sqlite3.connect(database) as db:
        expected = [str(row[0]) for row in db.execute("SELECT id FROM orders WHERE customer_id = ? ORDER BY id", (customer,))]
    links = browser.find_element(By.CSS_SELECTOR, "[data-field='linksFromOtherTables']")
    assert "Links from other tables" in links.text
    back = links.find_element(By.CSS_SELECTOR, "a.tk-db-link")
    assert back.text == f"{len(expected)} rows from customer_id in orders"
    check_step(browser, "links-2-customer", size)

    navigate(browser, back.click)
    assert browser.current_url.startswith(f"{base}/pages/orders?customer_id__exact={customer}")
    assert browser.find_element(By.CSS_SELECTOR, ".tk-db-count").text.startswith(f"{len(expected)} rows where customer_id = {customer}")
    assert shown_ids(browser) == expected
    check_step(browser, "links-3-filtered-orders", size)
