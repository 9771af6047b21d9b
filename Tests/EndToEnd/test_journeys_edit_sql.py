"""A data person taking a table's rows to SQL, in Chromium with JavaScript on, at a laptop's and a
phone's width: "View and edit SQL" on a table page, with filters, a search and a sort, opens the
SQL page with the same rows as SQL (each value a parameter, `:p0`, `:p1`… as Datasette names
them), giving the same rows in the same order; the index has an SQL box that runs what is typed.
Over plain HTTP, more combinations (every operator's values, a column named with a `?`) give the
same rows from the table page's JSON and from its SQL. No sideways scroll, no console error, no
serious axe finding; a screenshot of each step."""
import json
import sqlite3
import urllib.parse
import urllib.request

import pytest
from selenium.webdriver.common.by import By

from journey import SIZE_IDS, SIZES, check_step, live, navigate, read_only_database_site, serious_violations, set_size
from conftest import wait_until

ITEMS = 60


def make_database(path):
    with sqlite3.connect(path) as db:
        db.executescript("""
            CREATE TABLE items (id INTEGER PRIMARY KEY, code TEXT NOT NULL, description TEXT, price REAL, "in stock?" INTEGER);
            CREATE VIRTUAL TABLE [items_fts] USING FTS5 ([description], content=[items]);
        """)
        db.executemany("INSERT INTO items VALUES (?, ?, ?, ?, ?)", [
            (n, f"A{n:03d}'\"", ("a sturdy kettle" if n % 3 else "a teapot") + f" number {n}", round(n * 3.75 % 50, 2), n % 4 or None)
            for n in range(1, ITEMS + 1)
        ])
        db.execute("INSERT INTO items_fts (rowid, description) SELECT id, description FROM items")


@pytest.fixture(scope="module")
def shop(tmp_path_factory):
    yield from read_only_database_site(tmp_path_factory, "journey-edit-sql", make_database)


def get(url):
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.read().decode()


def page_ids(base, query):
    """The ids of the table page's rows for `query`, in order, from its JSON."""
    page = json.loads(get(f"{base}/pages/items.json?{query}&limit=1000"))
    return [row["id"] for section in page["sections"] for row in section["rows"]]


def sql_link(base, query):
    """The href of the table page's "View and edit SQL" link for `query`."""
    html = get(f"{base}/pages/items?{query}")
    start = html.index('<p class="tk-db-sql"><a href="') + len('<p class="tk-db-sql"><a href="')
    return html[start:html.index('"', start)].replace("&amp;", "&")


@pytest.mark.parametrize("query", [
    "_sort_desc=price",
    "price__gt=10&_sort=code",
    "_search=kettle&price__lte=30",
    "code__startswith=A01&_sort_desc=id",
    "in+stock%3F__isnull=1",
    "in+stock%3F__in=1,3&_nocol=description",
    "description__contains=number+2&_sort=in+stock%3F",
    "code__notin=A001'\",A002'\"",
    "price__gte=12.5&price__lt=40&_sort=price",
])
def test_the_sql_of_a_table_page_gives_its_rows(shop, query):
    base, _, _ = shop
    link = sql_link(base, query)
    parts = urllib.parse.urlsplit(link)
    assert parts.path == "/-/sql"
    answer = json.loads(get(base + "/-/sql.json?" + parts.query + "&_shape=objects"))
    assert [str(row["id"]) for row in answer["rows"]] == page_ids(base, query)[:101], urllib.parse.parse_qs(parts.query)


def test_values_are_parameters_named_as_datasette_names_them(shop):
    base, _, _ = shop
    parameters = urllib.parse.parse_qs(urllib.parse.urlsplit(sql_link(base, "price__gt=10&_search=kettle&_sort=code")).query)
    assert parameters["sql"] == ['SELECT "id", "code", "description", "price", "in stock?" FROM "items" WHERE "price" > :p0 AND '
                                 '"rowid" IN (SELECT rowid FROM "items_fts" WHERE "items_fts" MATCH :p1) ORDER BY "code", "rowid" LIMIT 101']
    assert parameters["p0"] == ["10"] and parameters["p1"] == ['"kettle"']


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_view_and_edit_sql_opens_the_same_rows_on_the_sql_page(shop, browser, size):
    base, _, _ = shop
    set_size(browser, size)
    navigate(browser, lambda: browser.get(f"{base}/pages/items?price__gt=10&_search=kettle&_sort_desc=price"))
    assert wait_until(lambda: live(browser), 10)
    shown = [row.get_attribute("data-row") for row in browser.find_elements(By.CSS_SELECTOR, ".tk-row[data-kind='record']")]
    assert shown, "the filters leave some rows"
    link = browser.find_element(By.LINK_TEXT, "View and edit SQL")
    check_step(browser, "edit-sql-1-table", size)

    navigate(browser, link.click)
    assert urllib.parse.urlsplit(browser.current_url).path == "/-/sql"
    assert ":p0" in browser.find_element(By.ID, "tp-sql-text").get_attribute("value")
    cells = browser.find_elements(By.CSS_SELECTOR, ".tp-sql-result tbody tr td:first-child")
    assert [cell.text for cell in cells] == shown
    check_step(browser, "edit-sql-2-sql-page", size)
    assert serious_violations(browser) == []


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_the_index_has_an_sql_box(shop, browser, size):
    base, _, _ = shop
    set_size(browser, size)
    navigate(browser, lambda: browser.get(base + "/"))
    box = browser.find_element(By.CSS_SELECTOR, "form.tp-query-box textarea[name='sql']")
    assert box.accessible_name == "SQL"
    box.send_keys("select count(*) as n from items where price > 10")
    check_step(browser, "edit-sql-3-index", size)
    assert serious_violations(browser) == []
    navigate(browser, browser.find_element(By.CSS_SELECTOR, "form.tp-query-box button").click)
    assert urllib.parse.urlsplit(browser.current_url).path == "/-/sql"
    expected = sqlite3.connect(f"file:{shop[1]}?mode=ro", uri=True).execute("select count(*) from items where price > 10").fetchone()[0]
    assert browser.find_element(By.CSS_SELECTOR, ".tp-sql-result tbody td").text == str(expected)
    check_step(browser, "edit-sql-4-result", size)
