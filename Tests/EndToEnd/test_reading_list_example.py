"""The second tutorial's example package, `Examples/ReadingList`: a reading list over a SQLite file
of its own schema, as docs/guide.md teaches it. The guide's code blocks are the example's files,
byte for byte; the example imports two modules; its add form of two fields adds a book for signed-in
viewers only; a change made with the `sqlite3` shell appears live. And a journey in Chromium, at a
laptop's and a phone's width, with two browsers (one signed in, one anonymous): covers arrive, a
book added with the two-field form appears in both, a book moved on its own page moves between the
sections of the list in the other browser, a row's link opens the book's page for the anonymous
visitor, and a `sqlite3` change appears.

`make test` builds the example's sources as the root package's `ReadingList` target (the same files);
run alone, this file builds it when the binary is missing. `READING_LIST_BINARY` names another build."""
import json
import os
import re
import subprocess
import urllib.error
import urllib.parse
import urllib.request

import pytest
from conftest import ROOT, example_binary, new_browser, post, running_example, session_headers, wait_until
from journey import SIZE_IDS, SIZES, check_step, live, navigate, set_size
from selenium.webdriver.common.by import By

EXAMPLE = os.path.join(ROOT, "Examples", "ReadingList")
SOURCES = os.path.join(EXAMPLE, "Sources", "ReadingList")


@pytest.fixture()
def reading_list(tmp_path):
    """The example on a port of its choosing, over `reading.sqlite` in a fresh folder; yields (base
    URL, the database's path, the sign-in link it logged)."""
    ready = r"open: (http://127\.0\.0\.1:(\d+)/-/signin\?token=\S+)"
    for found in running_example(example_binary("ReadingList"), tmp_path, ready):
        yield f"http://127.0.0.1:{found.group(2)}", tmp_path / "reading.sqlite", found.group(1)


def document(base, path="/pages/reading"):
    with urllib.request.urlopen(base + path + (".json" if "?" not in path else ""), timeout=10) as response:
        return json.loads(response.read())


def shelves(base):
    """The list's books by section, as titles, without the add form's row."""
    return {section["id"]: [row["title"] for row in section["rows"] if row.get("link")] for section in document(base)["sections"]}


def sqlite3(path, sql):
    subprocess.run(["sqlite3", str(path), sql], check=True, timeout=10)


def test_the_guide_shows_the_example_files_as_they_are():
    guide = open(os.path.join(ROOT, "docs", "guide.md")).read()
    blocks = re.findall(r"<!-- (Examples/ReadingList/[^ ]+) -->\n```swift\n(.*?)```\n", guide, re.S)
    assert {path for path, _ in blocks} == {
        f"Examples/ReadingList/Sources/ReadingList/{name}" for name in os.listdir(SOURCES)
    }, "the guide quotes every file of the example"
    for path, code in blocks:
        assert code == open(os.path.join(ROOT, path)).read(), f"the guide's copy of {path} differs from the file"


def test_the_example_imports_two_modules_and_has_no_grdb_of_its_own():
    imported = set()
    for name in os.listdir(SOURCES):
        imported |= set(re.findall(r"^import (\w+)", open(os.path.join(SOURCES, name)).read(), re.M))
    assert imported == {"TablePages", "TablePagesDatabase"}
    manifest = open(os.path.join(EXAMPLE, "Package.swift")).read()
    assert "GRDB" not in manifest


def test_the_two_field_form_adds_a_book_for_a_signed_in_viewer_only(reading_list):
    base, _, link = reading_list
    form = "application/x-www-form-urlencoded"
    body = urllib.parse.urlencode({"title": "Emma", "author": "Jane Austen"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        post(base + "/pages/reading/sections/to-read/rows", body, form)
    assert refused.value.code == 401
    html = urllib.request.urlopen(base + "/pages/reading", timeout=10).read().decode()
    assert "form" not in re.sub(r"<form[^>]*signin[^>]*>", "", html) or 'name="author"' not in html, "an anonymous visitor is shown no add form"
    headers = session_headers(link, base + "/pages/reading")
    blank = urllib.parse.urlencode({"title": "Persuasion", "author": ""})
    with pytest.raises(urllib.error.HTTPError) as missing:
        post(base + "/pages/reading/sections/to-read/rows", blank, form, headers)
    assert missing.value.code == 400 and "Author" in missing.value.read().decode()
    status, _ = post(base + "/pages/reading/sections/to-read/rows", body, form, headers)
    assert status == 200
    assert "Emma" in shelves(base)["to-read"]


def test_a_change_made_with_the_sqlite3_shell_appears_and_the_state_is_named_by_the_clock(reading_list):
    base, database, _ = reading_list
    before = document(base)["version"]
    sqlite3(database, "UPDATE book SET shelf = 'done' WHERE title = 'Middlemarch'")
    assert wait_until(lambda: "Middlemarch" in shelves(base)["done"], 5)
    assert shelves(base)["reading"] == []
    assert document(base)["version"] != before


def rows(browser, section):
    return browser.execute_script(
        "return [...document.querySelectorAll('[data-section=\"' + arguments[0] + '\"] .tk-row a .tk-title')].map((t) => t.textContent)",
        section)


def badges(browser):
    return browser.execute_script("return [...document.querySelectorAll('.tk-row .tk-badge')].map((b) => b.textContent)")


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_two_browsers_follow_the_reading_list_live(reading_list, browser, size):
    base, database, link = reading_list
    reader = new_browser()  # anonymous
    try:
        set_size(browser, size)
        set_size(reader, size)
        navigate(browser, lambda: browser.get(link))
        for driver in (browser, reader):
            driver.get(base + "/pages/reading")
            assert wait_until(lambda: live(driver), 10)

        # Covers arrive: every row's badge goes, and its picture is the cover.
        assert wait_until(lambda: badges(reader) == [], 10), f"covers still loading: {badges(reader)}"
        covers = reader.execute_script("return [...document.querySelectorAll('.tk-row img')].map((i) => i.getAttribute('src'))")
        assert covers and set(covers) == {"/public/reading/cover.svg"}
        assert reader.find_elements(By.CSS_SELECTOR, "form.tk-insert") == [], "the anonymous visitor is offered no add form"
        check_step(reader, "reading-list-covers", size)

        # The two-field form adds a book both browsers see.
        title = f"Emma {size[0]}"
        browser.find_element(By.CSS_SELECTOR, "form.tk-insert input[name='title']").send_keys(title)
        browser.find_element(By.CSS_SELECTOR, "form.tk-insert input[name='author']").send_keys("Jane Austen")
        check_step(browser, "reading-list-form", size)
        browser.find_element(By.CSS_SELECTOR, "form.tk-insert button").click()
        for driver in (browser, reader):
            assert wait_until(lambda: title in rows(driver, "to-read"), 10), "the added book did not appear"
        check_step(reader, "reading-list-added", size)
        # The new book's cover loads in the background and its row is patched then: wait for it, so
        # the link clicked next is not replaced under the click.
        assert wait_until(lambda: badges(browser) == [], 10), f"covers still loading: {badges(browser)}"

        # The signed-in browser opens the book by its link and moves it to "Reading": the list in
        # the other browser moves it between sections.
        navigate(browser, lambda: browser.find_element(By.XPATH, f"//a[.//span[text()='{title}']]").click())
        assert wait_until(lambda: live(browser), 10)
        browser.find_element(By.XPATH, "//*[@data-section='shelf']//button[.//span[text()='Reading']]").click()
        assert wait_until(lambda: title in rows(reader, "reading") and title not in rows(reader, "to-read"), 10)
        assert wait_until(lambda: browser.find_elements(By.XPATH, "//*[@data-section='shelf']//*[.//span[text()='Reading']]//*[contains(@class, 'tk-checkmark')]"), 10)
        check_step(browser, "reading-list-book-moved", size)
        check_step(reader, "reading-list-moved", size)

        # A row's link opens the book's page for the anonymous visitor, who is offered no shelves to pick.
        navigate(reader, lambda: reader.find_element(By.XPATH, "//a[.//span[text()='Middlemarch']]").click())
        assert "/pages/book?id=" in reader.current_url
        assert "George Eliot" in reader.find_element(By.CSS_SELECTOR, "main").text
        assert reader.find_elements(By.XPATH, "//*[@data-section='shelf']//button") == []
        check_step(reader, "reading-list-book", size)

        # A change made with the sqlite3 shell appears on the open page.
        reader.back()
        assert wait_until(lambda: live(reader), 10)
        sqlite3(database, "UPDATE book SET title = 'Middlemarch, a study of provincial life' WHERE title = 'Middlemarch'")
        assert wait_until(lambda: "Middlemarch, a study of provincial life" in rows(reader, "reading"), 10)
        check_step(reader, "reading-list-sqlite3", size)
    finally:
        reader.quit()
