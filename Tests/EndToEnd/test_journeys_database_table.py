"""A database table that reads like a table (issue 20, item 4), in Chromium with JavaScript on at a
laptop's and a phone's width: the index lists the tables with their row counts (SQLite's own) and
without the shadow tables of a full-text index; each row's key links to the row's page; a column of
numbers has its name over its numbers, on the right; columns are as wide as what they hold; and a
mistyped filter is answered by the table page itself, its message beside the filter form, the bar
still there. Screenshots of each step go where `journey.shot` puts them."""
import json
import sqlite3
import urllib.error
import urllib.parse
import urllib.request

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from journey import SIZE_IDS, SIZES, check_step, navigate, read_only_database_site, set_size

# Fewer than a page's 100 rows: every row is in the first render.
ITEMS = 80


def make_database(path):
    """A shop's items (a key, a short code, a long description, a price) with a full-text index as
    `sqlite-utils enable-fts` makes it, and a notes table searched by an FTS5 table of its own
    (one that stores its text, so it has a `_content` shadow table too)."""
    with sqlite3.connect(path) as db:
        db.executescript("""
            CREATE TABLE items (id INTEGER PRIMARY KEY, code TEXT NOT NULL, description TEXT, price REAL, stock INTEGER);
            CREATE VIRTUAL TABLE [items_fts] USING FTS5 ([description], content=[items]);
            CREATE TABLE notes (body TEXT);
            CREATE VIRTUAL TABLE notes_fts USING fts5(body);
        """)
        db.executemany("INSERT INTO items VALUES (?, ?, ?, ?, ?)", [
            (n, f"A{n:03d}", "a sturdy thing for the kitchen, " * (1 + n % 4) + f"number {n}", round(n * 3.75 % 200, 2), n * 7 % 50)
            for n in range(1, ITEMS + 1)
        ])
        db.execute("INSERT INTO items_fts (rowid, description) SELECT id, description FROM items")
        db.executemany("INSERT INTO notes VALUES (?)", [(f"note {n}",) for n in range(7)])
        db.execute("INSERT INTO notes_fts (body) SELECT body FROM notes")


@pytest.fixture(scope="module")
def shop(tmp_path_factory):
    yield from read_only_database_site(tmp_path_factory, "journey-database-table", make_database)


def sqlite_counts(database):
    with sqlite3.connect(database) as db:
        names = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
        return {name: db.execute(f'SELECT count(*) FROM "{name}"').fetchone()[0] for name in names}


SHADOWS = {"items_fts_config", "items_fts_data", "items_fts_docsize", "items_fts_idx",
           "notes_fts_config", "notes_fts_data", "notes_fts_docsize", "notes_fts_idx", "notes_fts_content"}


def test_the_index_lists_tables_with_their_counts_and_hides_full_text_shadow_tables(shop, browser):
    base, database, _ = shop
    counts = sqlite_counts(database)
    assert SHADOWS <= set(counts), "the database has the shadow tables the index must hide"
    listed = {name: count for name, count in counts.items() if name not in SHADOWS}

    with urllib.request.urlopen(base + "/.json", timeout=10) as response:
        index = json.load(response)
    assert {page["name"]: page["rowCount"] for page in index["pages"]} == listed

    for size in SIZES:
        set_size(browser, size)
        browser.get(base + "/")
        # The tables' list; the SQL page has a list of its own below it (`tp-entries`).
        entries = browser.find_elements(By.CSS_SELECTOR, ".tp-pages:not(.tp-entries) li")
        shown = {entry.find_element(By.TAG_NAME, "strong").text: entry.find_element(By.CSS_SELECTOR, ".tp-count").text for entry in entries}
        assert set(shown) == set(listed), "shadow tables are listed, or tables are missing"
        assert [link.text for link in browser.find_elements(By.CSS_SELECTOR, ".tp-entries strong")] == ["SQL"]
        for name, count in listed.items():
            assert shown[name] == f"{count:,} row{'' if count == 1 else 's'}", (name, shown[name])
        check_step(browser, "table-0-index", size)
    # A shadow table is not listed, but still served, as Datasette serves them.
    with urllib.request.urlopen(base + "/pages/items_fts_config.json", timeout=10) as response:
        assert response.status == 200


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_keys_link_to_their_rows_numbers_line_up_and_columns_fit_their_content(shop, browser, size):
    base, _, _ = shop
    set_size(browser, size)
    browser.get(base + "/pages/items")
    rows = browser.find_elements(By.CSS_SELECTOR, ".tk-row[data-kind='record']")
    assert len(rows) == ITEMS
    # Every row's key (its first value: the primary key) links to the row's own page.
    links = browser.execute_script("""
        return [...document.querySelectorAll(".tk-row[data-kind='record']")].map((row) => {
          const first = row.querySelector('.tk-field');
          const link = first?.querySelector('a.tk-key');
          return [row.dataset.row, first?.dataset.field, link ? new URL(link.href).pathname : null, link?.textContent];
        });""")
    assert len(links) == ITEMS
    for row, field, path, text in links:
        assert (field, path, text) == ("id", f"/pages/items/rows/{row}", row), (row, field, path, text)
    check_step(browser, "table-1-rows", size)

    if size[0] > 600:
        # A column of numbers: its name is right-aligned like its numbers, and ends where they end.
        aligned = browser.execute_script("""
            const out = {};
            for (const name of ['price', 'stock', 'id', 'code']) {
              const header = document.querySelector(`.tk-db-column[data-field='${name}']`);
              const cell = document.querySelector(`.tk-row .tk-field[data-field='${name}']`);
              const headerText = header.querySelector('a').getBoundingClientRect();
              const value = cell.querySelector('.tk-field-value').getBoundingClientRect();
              out[name] = [getComputedStyle(header).textAlign, getComputedStyle(cell).textAlign,
                           Math.round(headerText.right - value.right), Math.round(headerText.left - value.left)];
            }
            return out;""")
        for name in ("price", "stock", "id"):
            header_align, cell_align, right_gap, _ = aligned[name]
            assert header_align == cell_align == "right", (name, aligned[name])
            assert abs(right_gap) <= 2, (name, aligned[name])
        assert aligned["code"][0] in ("start", "left") and aligned["code"][1] in ("start", "left"), aligned["code"]
        assert abs(aligned["code"][3]) <= 2, aligned["code"]
        # Widths from content: the short key and code columns are narrower than the long
        # description, which then needs fewer lines than it would at a fixed 10rem. Number
        # columns are exactly as wide as their numbers, so the text columns share the rest
        # (the code about 8.5rem of it at 1280 px).
        widths = browser.execute_script("""
            const width = (name) => document.querySelector(`.tk-row .tk-field[data-field='${name}']`).getBoundingClientRect().width;
            return {id: width('id'), code: width('code'), description: width('description'), rem: parseFloat(getComputedStyle(document.documentElement).fontSize)};""")
        assert widths["id"] < 6 * widths["rem"], widths
        assert widths["code"] < 10 * widths["rem"], widths
        assert widths["description"] > 2 * widths["code"], widths
    else:
        # The phone keeps its stacked layout: one line per column, name beside value.
        stacked = browser.execute_script("""
            const cell = document.querySelector(".tk-row[data-kind='record'] > .tk-cell");
            const name = cell.querySelector(".tk-field[data-field='price'] .tk-field-name").getBoundingClientRect();
            const value = cell.querySelector(".tk-field[data-field='price'] .tk-field-value").getBoundingClientRect();
            return [name.width > 0, Math.abs(name.top - value.top) < 4, value.left > name.right];""")
        assert stacked == [True, True, True], stacked

    # The key link leads to the row's page.
    link = browser.find_element(By.CSS_SELECTOR, ".tk-row[data-row='7'] a.tk-key")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", link)
    navigate(browser, link.click)
    assert urllib.parse.urlsplit(browser.current_url).path == "/pages/items/rows/7"
    assert browser.find_element(By.CSS_SELECTOR, ".tk-row-page .tk-field[data-field='code'] .tk-field-value").text == "A007"
    check_step(browser, "table-2-row", size)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
@pytest.mark.parametrize("query, words", [
    ("price__gtt=5", "is not a filter operator"),
    ("prize__gt=5", "is not a column"),
], ids=["unknown-operator", "unknown-column"])
def test_a_mistyped_filter_is_answered_by_the_table_page_beside_its_form(shop, browser, size, query, words):
    base, _, _ = shop
    set_size(browser, size)
    browser.get(base + "/pages/items?" + query)
    notice = browser.find_element(By.CSS_SELECTOR, ".tp-notice[role='alert']")
    assert words in notice.text
    # The page is the table's: its bar, its forms and its rows, the message right before the filter form.
    assert browser.find_element(By.CSS_SELECTOR, ".tp-bar").is_displayed()
    form = browser.find_element(By.CSS_SELECTOR, "form.tk-db-filter")
    assert browser.execute_script("return arguments[0].nextElementSibling === arguments[1]", notice, form)
    assert len(browser.find_elements(By.CSS_SELECTOR, ".tk-row[data-kind='record']")) == ITEMS
    gap = browser.execute_script(
        "return arguments[1].getBoundingClientRect().top - arguments[0].getBoundingClientRect().bottom", notice, form)
    assert 0 <= gap < 40, gap
    check_step(browser, f"table-3-{query.split('=')[0]}", size, expected_error="400")

    # The person puts it right with the form: a number this time.
    Select(form.find_element(By.NAME, "_filter_column")).select_by_value("price")
    Select(form.find_element(By.NAME, "_filter_op")).select_by_value("gt")
    form.find_element(By.NAME, "_filter_value").send_keys("150")
    navigate(browser, form.find_element(By.CSS_SELECTOR, "button").click)
    assert not browser.find_elements(By.CSS_SELECTOR, ".tp-notice")
    shown = browser.find_element(By.CSS_SELECTOR, ".tk-db-count").text
    assert shown.startswith(f"{sum(1 for n in range(1, ITEMS + 1) if round(n * 3.75 % 200, 2) > 150)} rows where price > 150"), shown


def test_a_script_still_gets_the_plain_json_400(shop):
    base, _, _ = shop
    try:
        urllib.request.urlopen(base + "/pages/items.json?price__gtt=5", timeout=10)
        raise AssertionError("a mistyped filter was answered")
    except urllib.error.HTTPError as error:
        assert error.code == 400
        assert error.headers["Content-Type"].startswith("application/json")
        assert "is not a filter operator" in json.load(error)["error"]["message"]
