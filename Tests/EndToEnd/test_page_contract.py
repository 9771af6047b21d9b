"""Row and section ids that are not valid HTML ids as they are (spaces, quotes, `&`, `/`, `%`,
non-ASCII text, a trailing `-header`) get encoded DOM ids from the server (PageContract in
TableKit), and the browser script, which finds rows and sections by the raw ids patches carry,
computes the same ones: patches for such rows and sections land without a reload."""
import re
import sqlite3

import pytest
from conftest import console_errors, start_server, stop_server, wait_until
from selenium.webdriver.common.by import By

GENRES = ["Science fiction", 'Quotes "&\' <b>', "ünï/%2F-header"]
TITLES = ["a b", 'say "hi" & <go>', "日本 語", "x-header", "100%"]
VALID_ID = re.compile(r"^[A-Za-z0-9_-]+$")


@pytest.fixture()
def books(tmp_path):
    """A server over a database of books whose keys and genres are hostile ids (WITHOUT ROWID: the
    key itself is the row id)."""
    database = tmp_path / "books.sqlite"
    with sqlite3.connect(database) as db:
        db.execute("CREATE TABLE books (title TEXT PRIMARY KEY, genre TEXT NOT NULL, note TEXT NOT NULL) WITHOUT ROWID")
        for index, title in enumerate(TITLES):
            db.execute("INSERT INTO books VALUES (?, ?, ?)", (title, GENRES[index % len(GENRES)], "first"))
    process, base = start_server(tmp_path, "--database", str(database))
    yield base, database
    stop_server(process)


def elements(browser, attribute):
    """[(raw id, DOM id)] of the elements carrying `data-{attribute}`."""
    return browser.execute_script(
        "return [...document.querySelectorAll('[data-' + arguments[0] + ']')].map(e => [e.dataset[arguments[0]], e.id]);",
        attribute)


def page_text(browser):
    return browser.execute_script("return document.querySelector('.tk-table')?.innerText ?? ''")


def test_hostile_ids_get_valid_distinct_dom_ids_and_patches_find_them(books, browser):
    base, database = books
    browser.get(base + "/pages/books?group=genre")
    browser.execute_script("window.__sameDocument = true")
    assert wait_until(lambda: browser.find_element(By.CSS_SELECTOR, ".tp-live").get_attribute("data-state") == "live", 10)

    rows, sections = elements(browser, "row"), elements(browser, "section")
    assert len(rows) == len(TITLES) and len(sections) == len(GENRES)
    dom_ids = [dom_id for _, dom_id in rows + sections]
    assert all(VALID_ID.match(dom_id) for dom_id in dom_ids), dom_ids
    assert len(set(dom_ids)) == len(dom_ids)

    # Every row changes (replace), one is deleted, one is added to a hostile section (insert).
    with sqlite3.connect(database) as db:
        db.execute("UPDATE books SET note = 'second'")
        db.execute("DELETE FROM books WHERE title = ?", (TITLES[0],))
        db.execute("INSERT INTO books VALUES (?, ?, 'second')", ("new \"one\" é", GENRES[1]))

    def applied():
        text = page_text(browser)
        return "first" not in text and "new \"one\" é" in text and TITLES[0] not in text
    assert wait_until(applied, 5), page_text(browser)
    assert browser.execute_script("return window.__sameDocument === true"), "the page reloaded instead of patching"
    inserted = [dom_id for raw, dom_id in elements(browser, "row") if "new" in raw]
    assert len(inserted) == 1 and VALID_ID.match(inserted[0])
    # The new row went into its section, found by the section's DOM id.
    assert browser.execute_script(
        "return document.getElementById(arguments[0]).closest('.tk-section').dataset.section.endsWith(arguments[1])",
        inserted[0], GENRES[1])
    assert console_errors(browser) == []
