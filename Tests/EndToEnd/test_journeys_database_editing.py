"""Two people editing the same table of a user's SQLite file (`--database shop.sqlite --writable`),
each in Chromium with JavaScript on, at a laptop's and a phone's width: one edits a cell in place,
adds a row, pastes three rows copied from a spreadsheet and deletes one (then undoes it); the other
sees each within a second. The second types in a cell while the first changes that row: the text
and the focus stay, and saving shows both values with "Keep mine" and "Take theirs". A value the
database refuses (a CHECK) is said beside the field. Before, a user's table had no edit controls at
all, and a write token got 403 ("read-only")."""
import sqlite3
import time

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import SignInLinks, new_browser, start_server, stop_server, wait_until
from journey import SIZE_IDS, SIZES, check_step, live, navigate, serious_violations, set_size


def make_shop(path):
    with sqlite3.connect(path) as db:
        db.executescript("""
            PRAGMA journal_mode = WAL;
            CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, price REAL CHECK (price >= 0), stock INTEGER NOT NULL DEFAULT 0);
            INSERT INTO items VALUES (1, 'Green tea', 2.5, 10), (2, 'Espresso', 3.0, 5), (3, 'Oolong', 4.0, 2);
        """)


@pytest.fixture()
def shop(tmp_path):
    """A fresh shop for each size, served writable; yields (base URL, sign-in links, its path)."""
    database = tmp_path / "shop.sqlite"
    make_shop(database)
    process, base = start_server(tmp_path, "--database", str(database), "--writable", anonymous_writes=False)
    yield base, SignInLinks(tmp_path), database
    stop_server(process)


@pytest.fixture()
def other():
    """The second person's browser."""
    driver = new_browser()
    yield driver
    driver.quit()


def names(driver):
    return driver.execute_script(
        "return Object.fromEntries([...document.querySelectorAll('.tk-row[data-kind=\"record\"]')]"
        ".map((row) => [row.dataset.row, row.querySelector('[data-field=\"name\"] .tk-field-value')?.textContent]))")


def field(driver, row, column):
    # The value, not its field: on a phone a field is no box of its own (display: contents).
    return driver.find_element(By.CSS_SELECTOR, f"#row-{row} .tk-field[data-field='{column}'] > .tk-field-value")


def open_editor(driver, row, column):
    ActionChains(driver).double_click(field(driver, row, column)).perform()
    assert wait_until(lambda: driver.execute_script(
        "return document.activeElement?.name === 'v.' + arguments[0] && !!document.activeElement.closest('.tp-cell-editor')", column), 5), \
        f"no editor for {column} of row {row}"
    return driver.switch_to.active_element


def seen_within(driver, predicate, seconds=1.0):
    """Whether `predicate(driver)` holds within `seconds`, and how long it took."""
    start = time.monotonic()
    held = wait_until(lambda: predicate(driver), seconds)
    return held, time.monotonic() - start


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_two_people_edit_one_table_live(shop, browser, other, size):
    base, links, database = shop
    for driver in (browser, other):
        set_size(driver, size)
        navigate(driver, lambda: driver.get(links.new()))
        driver.get(base + "/pages/items")
        assert wait_until(lambda: live(driver), 10)
    assert browser.find_element(By.CSS_SELECTOR, "a.tp-add-row").text == "Add a row"

    # A cell edited in place: the other sees it within a second.
    editor = open_editor(browser, "1", "name")
    check_step(browser, "db-editing-1-cell-editor", size)
    editor.send_keys(Keys.CONTROL, "a")
    editor.send_keys("Sencha", Keys.ENTER)
    held, took = seen_within(other, lambda driver: names(driver).get("1") == "Sencha")
    assert held, f"the other did not see the edit within 1 s: {names(other)}"
    assert wait_until(lambda: not browser.find_elements(By.CSS_SELECTOR, ".tp-cell-editor"), 5), "the editor stayed open"

    # A row added with the insert form.
    browser.find_element(By.CSS_SELECTOR, "a.tp-add-row").click()
    assert wait_until(lambda: browser.find_elements(By.CSS_SELECTOR, ".tp-insert-panel form.tp-insert-form"), 5)
    browser.find_element(By.CSS_SELECTOR, ".tp-insert-form [name='v.name']").send_keys("Matcha")
    browser.find_element(By.CSS_SELECTOR, ".tp-insert-form [name='v.price']").send_keys("6")
    check_step(browser, "db-editing-2-insert-form", size)
    browser.find_element(By.CSS_SELECTOR, ".tp-insert-form button[type='submit']").click()
    held, took = seen_within(other, lambda driver: "Matcha" in names(driver).values())
    assert held, f"the other did not see the new row within 1 s: {names(other)}"

    # Three rows pasted from a spreadsheet, previewed, then added at once.
    paste = browser.find_element(By.CSS_SELECTOR, ".tp-paste-form textarea")
    browser.execute_script("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'))",
                           paste, "name\tprice\tstock\nMug\t8\t3\nCup\t6.5\t\nSaucer\t2\t7\n")
    browser.find_element(By.CSS_SELECTOR, ".tp-paste-form button[type='submit']").click()
    assert wait_until(lambda: len(browser.find_elements(By.CSS_SELECTOR, ".tp-paste-preview tbody tr")) == 3, 5), "no preview of 3 rows"
    assert names(other).get("5") is None, "the preview wrote nothing"
    check_step(browser, "db-editing-3-paste-preview", size)
    button = browser.find_element(By.CSS_SELECTOR, ".tp-paste-form button[type='submit']")
    assert button.text == "Add these 3 rows"
    button.click()
    held, took = seen_within(other, lambda driver: {"Mug", "Cup", "Saucer"} <= set(names(driver).values()))
    assert held, f"the other did not see the pasted rows within 1 s: {names(other)}"
    browser.find_element(By.CSS_SELECTOR, ".tp-close-insert").click()

    # A row deleted, after a confirmation; the other sees it go; Undo brings it back.
    cup = next(row for row, name in names(browser).items() if name == "Cup")
    open_editor(browser, cup, "name")
    browser.find_element(By.CSS_SELECTOR, ".tp-cell-editor .tp-delete-row").click()
    assert browser.find_element(By.CSS_SELECTOR, ".tp-confirm-delete").text.startswith(f"Delete row {cup}?")
    check_step(browser, "db-editing-4-confirm-delete", size)
    browser.find_element(By.CSS_SELECTOR, ".tp-confirm-delete .tk-destructive").click()
    held, took = seen_within(other, lambda driver: cup not in names(driver))
    assert held, f"the other still shows the deleted row after 1 s: {names(other)}"
    undo = browser.find_element(By.CSS_SELECTOR, ".tp-undo button")
    check_step(browser, "db-editing-5-undo", size)
    undo.click()
    assert wait_until(lambda: "Cup" in names(other).values(), 5), "the undo did not add the row again"

    # The other types in a cell while the first changes that row: text and focus stay.
    typing = open_editor(other, "2", "name")
    typing.send_keys(Keys.END, " doppio")
    mine = typing.get_attribute("value")
    theirs = open_editor(browser, "2", "name")
    theirs.send_keys(Keys.CONTROL, "a")
    theirs.send_keys("Ristretto", Keys.ENTER)
    assert wait_until(lambda: other.execute_script(
        "return document.getElementById('row-2').dataset.changedElsewhere === 'true'"), 5), "the row was not marked as changed"
    state = other.execute_script("const field = document.activeElement;"
                                 " return {name: field.name, value: field.value, inEditor: !!field.closest('#row-2 .tp-cell-editor')}")
    assert state == {"name": "v.name", "value": mine, "inEditor": True}, f"the change took the text or the focus: {state}"
    check_step(other, "db-editing-6-changed-meanwhile", size)

    # Saving it is refused: both values shown; Keep mine writes it, checked again.
    other.switch_to.active_element.send_keys(Keys.ENTER)
    assert wait_until(lambda: other.find_elements(By.CSS_SELECTOR, ".tp-conflict-note .tp-conflict-values"), 5), "no conflict shown"
    shown = other.find_element(By.CSS_SELECTOR, ".tp-conflict-values").text
    assert "Ristretto" in shown and mine in shown, shown
    check_step(other, "db-editing-7-conflict", size, expected_error="409")
    other.find_element(By.CSS_SELECTOR, ".tp-keep-mine").click()
    held, took = seen_within(browser, lambda driver: names(driver).get("2") == mine, 2)
    assert held, f"Keep mine did not reach the first: {names(browser)}"
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT name FROM items WHERE id = 2").fetchone()[0] == mine

    # A value the database refuses: its message beside the field, nothing written.
    price = open_editor(other, "1", "price")
    price.send_keys(Keys.CONTROL, "a")
    price.send_keys("-5", Keys.ENTER)
    assert wait_until(lambda: other.find_elements(By.CSS_SELECTOR, ".tp-cell-editor .tp-edit-field .tp-edit-problem"), 5), "no message beside the field"
    message = other.find_element(By.CSS_SELECTOR, ".tp-cell-editor .tp-edit-problem").text
    assert message.startswith("price:") and "price >= 0" in message, message
    assert other.switch_to.active_element.get_attribute("aria-invalid") == "true"
    check_step(other, "db-editing-8-refused", size, expected_error="400")
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT price FROM items WHERE id = 1").fetchone()[0] == 2.5

    # Open editors and the insert form keep the page accessible.
    browser.execute_script("window.scrollTo(0, 0)")
    browser.find_element(By.CSS_SELECTOR, "a.tp-add-row").click()
    assert wait_until(lambda: browser.find_elements(By.CSS_SELECTOR, ".tp-insert-panel"), 5)
    open_editor(browser, "3", "stock")
    assert serious_violations(browser) == []
    assert serious_violations(other) == []


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_a_refused_paste_names_its_line(shop, browser, size):
    """Rows pasted, previewed, then refused by the database (a CHECK on one of them): the message
    beside the preview names the line as the person counts it in the pasted text (the blank line
    too), its first cells and the column; that line is marked in the preview; nothing is written.
    Before, the message named the column only ("in one of the 3 rows")."""
    base, links, database = shop
    set_size(browser, size)
    navigate(browser, lambda: browser.get(links.new()))
    browser.get(base + "/pages/items")
    assert wait_until(lambda: live(browser), 10)
    browser.find_element(By.CSS_SELECTOR, "a.tp-add-row").click()
    assert wait_until(lambda: browser.find_elements(By.CSS_SELECTOR, ".tp-insert-panel form.tp-paste-form"), 5)
    paste = browser.find_element(By.CSS_SELECTOR, ".tp-paste-form textarea")
    browser.execute_script("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'))",
                           paste, "name\tprice\nBowl\t1\n\nPlate\t-2\nJug\t4\n")
    browser.find_element(By.CSS_SELECTOR, ".tp-paste-form button[type='submit']").click()
    assert wait_until(lambda: len(browser.find_elements(By.CSS_SELECTOR, ".tp-paste-preview tbody tr")) == 3, 5), "no preview"
    lines = [cell.text for cell in browser.find_elements(By.CSS_SELECTOR, ".tp-paste-preview tbody th")]
    assert lines == ["2", "4", "5"], lines
    browser.find_element(By.CSS_SELECTOR, ".tp-paste-form button[type='submit']").click()
    assert wait_until(lambda: browser.find_elements(By.CSS_SELECTOR, ".tp-paste-form .tp-edit-problem"), 5), "no message"
    message = browser.find_element(By.CSS_SELECTOR, ".tp-paste-form .tp-edit-problem")
    assert message.is_displayed()
    assert message.text.startswith("Line 4 (\u201cPlate\u201d, \u201c-2\u201d), column \u201cprice\u201d: "), message.text
    assert message.text.endswith("none of the 3 rows was written."), message.text
    assert browser.execute_script("return arguments[0].previousElementSibling.classList.contains('tp-paste-preview')", message), \
        "the message is not beside the preview"
    refused = browser.find_elements(By.CSS_SELECTOR, ".tp-paste-preview tr.tp-paste-refused")
    assert [row.get_attribute("data-line") for row in refused] == ["4"]
    assert "Plate" in refused[0].text
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", refused[0])
    check_step(browser, "db-editing-paste-refused", size, expected_error="400")
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT count(*) FROM items WHERE name IN ('Bowl', 'Plate', 'Jug')").fetchone()[0] == 0


def test_without_javascript_the_forms_edit_and_insert(shop, browser):
    """The row page's "Edit this row" and the page's "Add a row" are plain forms: with the page's
    script blocked they still write, and a value the database refuses shows its message beside
    the field."""
    base, links, database = shop
    set_size(browser, SIZES[0])
    navigate(browser, lambda: browser.get(links.new()))
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*table-pages.js*"]})
    browser.get(base + "/pages/items/rows/2")
    navigate(browser, lambda: browser.find_element(By.LINK_TEXT, "Edit this row").click())
    stock = browser.find_element(By.CSS_SELECTOR, "[name='v.stock']")
    stock.clear()
    stock.send_keys("12")
    navigate(browser, lambda: browser.find_element(By.CSS_SELECTOR, "form.tp-edit-form button[type='submit']").click())
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT stock FROM items WHERE id = 2").fetchone()[0] == 12
    browser.get(base + "/pages/items/-/insert")
    browser.find_element(By.CSS_SELECTOR, ".tp-insert-form [name='v.name']").send_keys("Kettle")
    browser.find_element(By.CSS_SELECTOR, ".tp-insert-form [name='v.price']").send_keys("-1")
    navigate(browser, lambda: browser.find_element(By.CSS_SELECTOR, ".tp-insert-form button[type='submit']").click())
    problem = browser.find_element(By.CSS_SELECTOR, "[data-column='price'] .tp-edit-problem").text
    assert "price" in problem.lower(), problem
    check_step(browser, "db-editing-no-script-refused", SIZES[0], expected_error="400")
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT count(*) FROM items WHERE name = 'Kettle'").fetchone()[0] == 0

    # Rows pasted, previewed, and refused: the preview again, the line marked, the words beside it.
    browser.get(base + "/pages/items/-/insert")
    browser.find_element(By.CSS_SELECTOR, ".tp-paste-form textarea").send_keys("name,price\nBowl,1\nPlate,-2\n")
    navigate(browser, lambda: browser.find_element(By.CSS_SELECTOR, ".tp-paste-form button[type='submit']").click())
    navigate(browser, lambda: browser.find_element(By.CSS_SELECTOR, "form.tp-edit-form button[type='submit']").click())
    assert [row.get_attribute("data-line") for row in browser.find_elements(By.CSS_SELECTOR, ".tp-paste-preview tr.tp-paste-refused")] == ["3"]
    problem = browser.find_element(By.CSS_SELECTOR, ".tp-paste-preview + .tp-edit-problem").text
    assert problem.startswith("Line 3 (\u201cPlate\u201d, \u201c-2\u201d), column \u201cprice\u201d: "), problem
    check_step(browser, "db-editing-no-script-paste-refused", SIZES[0], expected_error="400")
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT count(*) FROM items WHERE name IN ('Bowl', 'Plate')").fetchone()[0] == 0
