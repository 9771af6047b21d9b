"""A database table page in a real headless Chromium: clicking a column header sorts the rows, the
filter form (a plain GET form, no script needed) narrows them to what SQLite itself returns, and a
cut value's link opens the row's own page with the whole value."""
import sqlite3
import urllib.parse

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import new_browser, start_server, stop_server, wait_until

ROWS = 150
LONG = "long text " * 60 + "<the end>"


@pytest.fixture()
def site(tmp_path):
    """A server over a small database with duplicates, NULLs and one long value; yields (base URL, database path)."""
    database = tmp_path / "shop.sqlite"
    with sqlite3.connect(database) as db:
        db.execute("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT, category TEXT, price REAL, note TEXT)")
        db.executemany("INSERT INTO items VALUES (?, ?, ?, ?, ?)", [
            (n, f"item {n % 40:02d}", None if n % 9 == 0 else f"cat{n % 4}", None if n % 11 == 0 else (n * 37) % 101 / 2,
             LONG if n == 42 else f"note {n}")
            for n in range(1, ROWS + 1)
        ])
    process, base = start_server(tmp_path, "--database", str(database))
    yield base, database
    stop_server(process)


@pytest.fixture()
def browser():
    driver = new_browser()
    yield driver
    driver.quit()


def expected_ids(database, sql):
    with sqlite3.connect(database) as db:
        return [str(row[0]) for row in db.execute(sql)]


def shown_ids(browser):
    return [row.get_attribute("data-row") for row in browser.find_elements(By.CSS_SELECTOR, ".tk-row[data-kind='record']")]


def assert_shows_first_rows_of(browser, expected):
    """The page shows the first of `expected`, in that order: all of them up to a page of 100 (links
    keep the page's variant, not its `limit`; the client may have loaded more as it scrolled)."""
    shown = shown_ids(browser)
    assert len(shown) >= min(100, len(expected))
    assert shown == expected[:len(shown)]


def column_header(browser, name):
    return browser.find_element(By.CSS_SELECTOR, f".tk-db-column[data-field='{name}']")


def click_and_wait(browser, element):
    """Clicks a link that loads another page and waits for that page."""
    old = browser.find_element(By.TAG_NAME, "main")
    element.click()
    wait_until(lambda: not _attached(old), 10)
    wait_until(lambda: browser.find_elements(By.CSS_SELECTOR, "main"), 10)


def _attached(element):
    try:
        element.is_enabled()
        return True
    except Exception:
        return False


def test_clicking_a_column_header_sorts_ascending_then_descending(site, browser):
    base, database = site
    browser.get(base + "/pages/items?limit=1000")
    assert shown_ids(browser) == expected_ids(database, "SELECT id FROM items ORDER BY id")
    assert column_header(browser, "price").get_attribute("aria-sort") is None

    click_and_wait(browser, column_header(browser, "price").find_element(By.TAG_NAME, "a"))
    assert "_sort=price" in browser.current_url
    assert column_header(browser, "price").get_attribute("aria-sort") == "ascending"
    assert_shows_first_rows_of(browser, expected_ids(database, "SELECT id FROM items ORDER BY price, id"))

    click_and_wait(browser, column_header(browser, "price").find_element(By.TAG_NAME, "a"))
    assert "_sort_desc=price" in browser.current_url
    assert column_header(browser, "price").get_attribute("aria-sort") == "descending"
    assert_shows_first_rows_of(browser, expected_ids(database, "SELECT id FROM items ORDER BY price DESC, id DESC"))
    # The column names sit over their values: the header cell and the row's cell share an edge.
    header_x = column_header(browser, "note").location["x"]
    value_x = browser.find_element(By.CSS_SELECTOR, ".tk-row .tk-field[data-field='note']").location["x"]
    assert abs(header_x - value_x) <= 1


@pytest.mark.parametrize("column, operator, value, where", [
    ("category", "exact", "cat2", "category = 'cat2'"),
    ("price", "gt", "30", "price > 30"),
    ("category", "isnull", "", "category IS NULL"),
])
def test_the_filter_form_narrows_the_rows_to_what_sqlite_returns(site, browser, column, operator, value, where):
    base, database = site
    # No script runs: the form works as plain HTML.
    browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    browser.get(base + "/pages/items?_sort_desc=name&limit=1000")
    form = browser.find_element(By.CSS_SELECTOR, "form.tk-db-filter")
    Select(form.find_element(By.NAME, "_filter_column")).select_by_value(column)
    Select(form.find_element(By.NAME, "_filter_op")).select_by_value(operator)
    form.find_element(By.NAME, "_filter_value").send_keys(value)
    old = browser.find_element(By.TAG_NAME, "main")
    form.submit()
    wait_until(lambda: not _attached(old), 10)
    expected = expected_ids(database, f"SELECT id FROM items WHERE {where} ORDER BY name DESC, id DESC")
    assert expected, "the filter keeps some rows"
    assert_shows_first_rows_of(browser, expected)
    # The sort was kept, and the filter is listed with a link that removes it.
    assert column_header(browser, "name").get_attribute("aria-sort") == "descending"
    active = browser.find_elements(By.CSS_SELECTOR, ".tk-db-filters li")
    assert len(active) == 1
    count = browser.find_element(By.CSS_SELECTOR, ".tk-db-count").text
    assert count.startswith(f"{len(expected)} rows where {column}")
    click_and_wait(browser, active[0].find_element(By.CSS_SELECTOR, "a.tk-db-remove"))
    assert_shows_first_rows_of(browser, expected_ids(database, "SELECT id FROM items ORDER BY name DESC, id DESC"))


def test_a_cut_value_links_to_the_row_page_with_the_whole_value(site, browser):
    base, _ = site
    browser.get(base + "/pages/items?limit=1000")
    link = browser.find_element(By.CSS_SELECTOR, ".tk-row[data-row='42'] a.tk-cut")
    assert link.text.endswith("\u2026") or "\u2026" in link.get_attribute("textContent")
    click_and_wait(browser, link)
    assert urllib.parse.urlsplit(browser.current_url).path == "/pages/items/rows/42"
    value = browser.find_element(By.CSS_SELECTOR, ".tk-row-page .tk-field[data-field='note'] .tk-field-value")
    assert value.get_attribute("textContent") == LONG
    # One line per column: each name is shown, left of its value.
    name = browser.find_element(By.CSS_SELECTOR, ".tk-row-page .tk-field[data-field='note'] .tk-field-name")
    assert name.is_displayed() and name.location["x"] < value.location["x"]
    click_and_wait(browser, browser.find_elements(By.CSS_SELECTOR, "nav.tp-crumbs a")[1])
    assert urllib.parse.urlsplit(browser.current_url).path == "/pages/items"
