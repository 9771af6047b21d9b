"""A person's journey through a `--database` table in Chromium with JavaScript on, at a laptop's
and a phone's width: search for a word, narrow the rows with the filter form, count a column's
values (a facet) and pick one, sort by a column, download the rows as CSV, open a row and go back. Each step is checked by what the person sees (the URL, the row count the
page states and the rows it shows, equal to SQLite's own answer), and the page never scrolls
sideways, never logs a console error. The database is served read-only, so nobody is asked to
sign in: not in the server's log, not in the bar."""
import csv
import io
import sqlite3
import urllib.parse
import urllib.request

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import wait_until
from journey import SIZE_IDS, SIZES, check_step, navigate, read_only_database_site, set_size

ROWS = 400
CUSTOMERS = ["Ada Lovelace", "Grace Hopper", "Alan Turing", "Edsger Dijkstra", "Barbara Liskov", "Donald Knuth", "Frances Allen"]
STATUSES = ["pending", "paid", "shipped", "delivered", "cancelled"]
NOTES = ["gift wrap please", "leave at the door", "", "call before delivery", "for a friend", "fragile", None, "ring twice", "back door"]
# One order's notes are long: the table cuts them, and their link opens the row's own page.
LONG_NOTE = "gift " + "a very long note about the parcel and where to leave it " * 8 + "end"
LONG_ID = 42


def make_orders(path):
    """An orders table as a shop keeps it, with a full-text index of its customers and notes as
    `sqlite-utils enable-fts` makes it."""
    with sqlite3.connect(path) as db:
        db.executescript("""
            CREATE TABLE orders (id INTEGER PRIMARY KEY, customer TEXT NOT NULL, status TEXT NOT NULL,
                                 total REAL NOT NULL, placed TEXT NOT NULL, notes TEXT);
            CREATE VIRTUAL TABLE [orders_fts] USING FTS5 ([customer], [notes], content=[orders]);
        """)
        db.executemany("INSERT INTO orders VALUES (?, ?, ?, ?, ?, ?)", [
            (n, CUSTOMERS[n % len(CUSTOMERS)], "shipped" if n == LONG_ID else STATUSES[n % len(STATUSES)],
             round((n * 7919) % 50000 / 100, 2), f"2024-{n % 12 + 1:02d}-{n % 28 + 1:02d}",
             LONG_NOTE if n == LONG_ID else NOTES[n % len(NOTES)])
            for n in range(1, ROWS + 1)
        ])
        db.execute("INSERT INTO orders_fts (rowid, customer, notes) SELECT id, customer, notes FROM orders")


@pytest.fixture(scope="module")
def shop(tmp_path_factory):
    yield from read_only_database_site(tmp_path_factory, "journey-database", make_orders)


def sqlite_ids(database, where, order="id"):
    with sqlite3.connect(database) as db:
        return [str(row[0]) for row in db.execute(f"SELECT id FROM orders WHERE {where} ORDER BY {order}")]


def shown_ids(browser):
    return browser.execute_script(
        "return [...document.querySelectorAll(\".tk-row[data-kind='record']\")].map((row) => row.dataset.row)")


def stated_count(browser):
    """The row count the page states above the rows ("57 rows where …")."""
    return int(browser.find_element(By.CSS_SELECTOR, ".tk-db-count").text.split()[0].replace(",", ""))


def query(browser):
    return urllib.parse.parse_qs(urllib.parse.urlsplit(browser.current_url).query)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_search_filter_sort_open_a_row_and_go_back(shop, browser, size):
    base, database, _ = shop
    set_size(browser, size)
    browser.get(base + "/pages/orders")
    assert stated_count(browser) == ROWS
    assert "Sign in" not in browser.find_element(By.CSS_SELECTOR, ".tp-bar").text, "nothing here can be changed"
    check_step(browser, "database-1-table", size)

    # Search: the URL carries the words, and the rows are SQLite's full-text matches.
    search = browser.find_element(By.CSS_SELECTOR, "form.tk-db-search input[type='search']")
    search.send_keys("gift")
    navigate(browser, browser.find_element(By.CSS_SELECTOR, "form.tk-db-search button").click)
    assert query(browser).get("_search") == ["gift"]
    found = "id IN (SELECT rowid FROM orders_fts WHERE orders_fts MATCH 'gift')"
    expected = sqlite_ids(database, found)
    assert 0 < len(expected) < 100
    assert stated_count(browser) == len(expected)
    assert shown_ids(browser) == expected
    assert browser.find_element(By.CSS_SELECTOR, "form.tk-db-search input[type='search']").get_attribute("value") == "gift"
    check_step(browser, "database-2-searched", size)

    # Filter through the form: the search stays, the filter joins it.
    form = browser.find_element(By.CSS_SELECTOR, "form.tk-db-filter")
    Select(form.find_element(By.NAME, "_filter_column")).select_by_value("status")
    Select(form.find_element(By.NAME, "_filter_op")).select_by_value("exact")
    form.find_element(By.NAME, "_filter_value").send_keys("shipped")
    navigate(browser, form.find_element(By.CSS_SELECTOR, "button").click)
    assert query(browser).get("_search") == ["gift"]
    assert query(browser).get("_filter_column") == ["status"] and query(browser).get("_filter_value") == ["shipped"]
    expected = sqlite_ids(database, found + " AND status = 'shipped'")
    assert len(expected) > 1
    assert stated_count(browser) == len(expected)
    assert shown_ids(browser) == expected
    assert [chip.text.split("\n")[0] for chip in browser.find_elements(By.CSS_SELECTOR, ".tk-db-filters li")]
    check_step(browser, "database-3-filtered", size)

    # Count the customers among these rows (a facet), then pick the customer of the long-noted order.
    form = browser.find_element(By.CSS_SELECTOR, "form.tk-db-facet-add")
    Select(form.find_element(By.NAME, "_facet")).select_by_value("customer")
    navigate(browser, form.find_element(By.CSS_SELECTOR, "button").click)
    assert query(browser).get("_facet") == ["customer"] and query(browser).get("_search") == ["gift"]
    with sqlite3.connect(database) as db:
        counts = db.execute(f"SELECT customer, count(*) FROM orders WHERE {found} AND status = 'shipped' "
                            "GROUP BY customer ORDER BY count(*) DESC, customer").fetchall()
    facet = browser.find_element(By.CSS_SELECTOR, ".tk-db-facet[data-field='customer']")
    shown_counts = [(item.find_element(By.CSS_SELECTOR, "a").text, int(item.find_element(By.CSS_SELECTOR, ".tk-db-facet-count").text))
                    for item in facet.find_elements(By.CSS_SELECTOR, "li")]
    assert sorted(shown_counts, key=lambda pair: (-pair[1], pair[0])) == counts
    customer = CUSTOMERS[LONG_ID % len(CUSTOMERS)]
    navigate(browser, facet.find_element(By.LINK_TEXT, customer).click)
    where = found + f" AND status = 'shipped' AND customer = '{customer}'"
    expected = sqlite_ids(database, where)
    assert stated_count(browser) == len(expected) == dict(counts)[customer]
    assert shown_ids(browser) == expected
    check_step(browser, "database-3b-faceted", size)

    # Sort by total, highest first: a click on the header sorts ascending, a second descending.
    header = lambda: browser.find_element(By.CSS_SELECTOR, ".tk-db-column[data-field='total'] a")
    navigate(browser, header().click)
    navigate(browser, header().click)
    assert query(browser).get("_sort_desc") == ["total"]
    sorted_ids = sqlite_ids(database, where, "total DESC, id DESC")
    assert shown_ids(browser) == sorted_ids
    assert stated_count(browser) == len(sorted_ids)
    sorted_url = browser.current_url
    check_step(browser, "database-4-sorted", size)

    # Download these rows as CSV: the same rows, in the same order, as a standard reader reads them.
    link = browser.find_element(By.LINK_TEXT, "CSV").get_attribute("href")
    with urllib.request.urlopen(link, timeout=10) as response:
        assert response.headers.get("Content-Type", "").startswith("text/csv")
        table = list(csv.DictReader(io.StringIO(response.read().decode("utf-8"))))
    assert [row["id"] for row in table] == sorted_ids
    assert {row["customer"] for row in table} == {customer}

    # Open the order whose notes are cut: its page shows them whole.
    assert str(LONG_ID) in sorted_ids, "the long-noted order is among the rows"
    link = browser.find_element(By.CSS_SELECTOR, f".tk-row[data-row='{LONG_ID}'] a.tk-cut")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", link)
    navigate(browser, link.click)
    assert urllib.parse.urlsplit(browser.current_url).path == f"/pages/orders/rows/{LONG_ID}"
    assert browser.find_element(By.CSS_SELECTOR, ".tk-row-page .tk-field[data-field='notes'] .tk-field-value").text == LONG_NOTE
    check_step(browser, "database-5-row", size)

    # Back: the sorted, searched, filtered rows again.
    navigate(browser, browser.back)
    assert browser.current_url == sorted_url
    assert wait_until(lambda: shown_ids(browser) == sorted_ids, 5)
    check_step(browser, "database-6-back", size)


def test_a_read_only_database_prints_no_sign_in_link_and_offers_none(shop, browser):
    base, _, directory = shop
    with open(directory / "server.log") as log:
        text = log.read()
    assert "/-/signin?token=" not in text
    assert "every page is read-only" in text
    for size in SIZES:
        set_size(browser, size)
        browser.get(base + "/")
        assert "Sign in" not in browser.find_element(By.CSS_SELECTOR, ".tp-bar").text
        check_step(browser, "database-0-index", size)
