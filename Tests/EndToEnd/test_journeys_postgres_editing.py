"""Editing a PostgreSQL table in Chromium (two instances of `--database postgresql://… --writable`)
at a laptop's and a phone's width, with PostgreSQL's own types and rules: a boolean, a date, a
timestamp with time zone, an exact number, an array and JSON each edit in the cell and reach the
database as typed; bytes are said to be read-only in the editor; a foreign key picks from the
referenced rows' labels; NOT NULL, CHECK, UNIQUE, a foreign key gone meanwhile and a value of the
wrong type each show the database's message beside the field and write nothing; and "Take theirs"
after a conflict shows their row and keeps it. Two people on two instances are
test_journeys_database_editing.py's."""
import datetime

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.select import Select

from conftest import stop_server, wait_until
from journey import SIZE_IDS, SIZES, check_step, live, navigate, serious_violations, set_size
from test_journeys_database_editing import field, open_editor, postgres_shop, shown


@pytest.fixture()
def shop(postgres_database, tmp_path):
    processes, made = postgres_shop(postgres_database, tmp_path)
    yield made
    for process in processes:
        stop_server(process)


def problem(driver):
    """The message beside the open editor's field, once one is there."""
    assert wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, ".tp-cell-editor .tp-edit-field .tp-edit-problem"), 5), "no message beside the field"
    return driver.find_element(By.CSS_SELECTOR, ".tp-cell-editor .tp-edit-problem").text


def closed(driver):
    """Whether the cell's editor closed, the table's page still shown (not a form sent without the script)."""
    done = wait_until(lambda: not driver.find_elements(By.CSS_SELECTOR, ".tp-cell-editor"), 5)
    assert driver.current_url.endswith("/pages/items"), driver.current_url
    return done


def type_into(driver, row, column, text):
    """Opens the cell's editor, replaces its text with `text` and saves with Enter."""
    editor = open_editor(driver, row, column)
    editor.send_keys(Keys.CONTROL, "a")
    editor.send_keys(Keys.DELETE)
    if text:
        # Set at once (typing JSON key by key is slow), then told as typing tells it.
        driver.execute_script("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input', {bubbles: true}))", editor, text)
    editor.send_keys(Keys.ENTER)


def save(driver):
    """Clicks Save: Enter in a picker opens it rather than sending the form."""
    driver.find_element(By.CSS_SELECTOR, ".tp-cell-editor button[type='submit']").click()


def cancel(driver):
    driver.find_element(By.CSS_SELECTOR, ".tp-cell-editor .tp-cancel").click()
    assert closed(driver)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_postgresql_types_and_rules_in_the_cell_editors(shop, browser, size):
    set_size(browser, size)
    navigate(browser, lambda: browser.get(shop.sign_in_first()))
    browser.get(shop.first + "/pages/items")
    assert wait_until(lambda: live(browser), 10)

    # Each of PostgreSQL's types edits in place and reaches the database as typed.
    select = Select(open_editor(browser, "1", "in_stock"))
    assert [option.text for option in select.options] == ["\u2014", "true (true)", "false (false)"]
    select.select_by_value("true")
    save(browser)
    assert closed(browser), "the boolean was not saved"
    assert shop.scalar("SELECT in_stock FROM items WHERE id = 1") == "t"

    date = open_editor(browser, "1", "added")
    assert date.get_attribute("type") == "date"
    # As a person's pick of a day does: the value, then an input event.
    browser.execute_script("arguments[0].value = '2026-03-04'; arguments[0].dispatchEvent(new Event('input', {bubbles: true}))", date)
    date.send_keys(Keys.ENTER)
    assert closed(browser), "the date was not saved"
    assert shop.scalar("SELECT added FROM items WHERE id = 1") == "2026-03-04"

    edits = [
        ("updated", "2026-03-04 10:30:00+00", "SELECT extract(epoch FROM updated)::bigint FROM items WHERE id = 1",
         str(int(datetime.datetime(2026, 3, 4, 10, 30, tzinfo=datetime.timezone.utc).timestamp()))),
        ("price", "12.34", "SELECT price FROM items WHERE id = 1", "12.34"),
        ("tags", '{green,"loose leaf"}', "SELECT tags[2] FROM items WHERE id = 1", "loose leaf"),
        ("details", '{"origin": "Uji", "grams": 100}', "SELECT (details->>'origin') || (details->>'grams') FROM items WHERE id = 1", "Uji100"),
    ]
    for column, typed, sql, stored in edits:
        type_into(browser, "1", column, typed)
        assert closed(browser), f"{column}: not saved: {browser.find_elements(By.CSS_SELECTOR, '.tp-edit-problem')}"
        assert shop.scalar(sql) == stored, column
    # What the editor shows is what the database holds, and it saves back unchanged.
    for column in ("price", "tags", "details", "updated"):
        before = shop.scalar(f"SELECT {column}::text FROM items WHERE id = 1")
        editor = open_editor(browser, "1", column)
        in_editor = editor.get_attribute("value")
        editor.send_keys(Keys.ENTER)
        assert closed(browser), f"{column}: {in_editor!r} was not saved back"
        assert shop.scalar(f"SELECT {column}::text FROM items WHERE id = 1") == before, (column, in_editor)
    check_step(browser, "pg-types-1-edited", size, wide_table=True)

    # Bytes are not edited in a form, and the form says so: in the table they link to the row's
    # page (as a cut text does), whose "Edit this row" shows every column.
    bytes_link = "#row-1 .tk-field[data-field='photo'] > a.tk-blob"
    assert browser.execute_script("return document.querySelector(arguments[0]).title", bytes_link) == "Show the whole value"
    # Clicked where it is found (a live patch may replace the row at any time).
    navigate(browser, lambda: browser.execute_script("document.querySelector(arguments[0]).click()", bytes_link))
    navigate(browser, lambda: browser.find_element(By.LINK_TEXT, "Edit this row").click())
    assert browser.find_element(By.CSS_SELECTOR, "[data-column='photo'] .tp-edit-blob").text == "Bytes (4 bytes): not edited here."
    assert not browser.find_elements(By.CSS_SELECTOR, "[name='v.photo']")
    assert browser.find_element(By.CSS_SELECTOR, "[name='v.details']").get_attribute("value") == shop.scalar("SELECT details::text FROM items WHERE id = 1")
    check_step(browser, "pg-types-2-row-form", size)
    browser.get(shop.first + "/pages/items")
    assert wait_until(lambda: live(browser), 10)

    # A foreign key picks from the referenced rows' labels.
    maker = Select(open_editor(browser, "2", "maker"))
    labels = [option.text for option in maker.options]
    assert any("Kyoto Leaf" in label for label in labels) and any("Closed mill" in label for label in labels), labels
    check_step(browser, "pg-types-3-foreign-key", size, wide_table=True)
    maker.select_by_value("1")
    save(browser)
    assert closed(browser)
    assert shop.scalar("SELECT maker FROM items WHERE id = 2") == "1"

    # The database's rules, each said beside the field, nothing written.
    maker = Select(open_editor(browser, "3", "maker"))
    shop.scalar("DELETE FROM makers WHERE id = 3")
    maker.select_by_value("3")
    save(browser)
    message = problem(browser)
    assert message.startswith("maker:") and "FOREIGN KEY" in message, message
    check_step(browser, "pg-types-4-foreign-key-gone", size, expected_error="400", wide_table=True)
    cancel(browser)
    assert shop.scalar("SELECT maker FROM items WHERE id = 3") == "1"

    refusals = [
        ("stock", "", "null"),
        ("price", "-5", "check"),
        ("name", "Espresso", "unique"),
        ("price", "cheap", "numeric"),
        ("details", "{origin: Uji", "json"),
        ("tags", "green", "array"),
    ]
    for column, typed, word in refusals:
        before = shop.scalar(f"SELECT {column}::text FROM items WHERE id = 1")
        type_into(browser, "1", column, typed)
        message = problem(browser)
        assert message.startswith(column + ":") and word in message.lower(), (column, message)
        assert browser.switch_to.active_element.get_attribute("aria-invalid") == "true", column
        check_step(browser, f"pg-types-5-{column}-{word}", size, expected_error="400", wide_table=True)
        cancel(browser)
        assert shop.scalar(f"SELECT {column}::text FROM items WHERE id = 1") == before, column

    # Their change meanwhile: both values shown; "Take theirs" shows their row and writes nothing.
    editor = open_editor(browser, "3", "name")
    editor.send_keys(Keys.END, " (mine)")
    shop.scalar("UPDATE items SET name = 'Oolong (theirs)' WHERE id = 3")
    editor.send_keys(Keys.ENTER)
    assert wait_until(lambda: browser.find_elements(By.CSS_SELECTOR, ".tp-conflict-note .tp-conflict-values"), 5), "no conflict shown"
    both = browser.find_element(By.CSS_SELECTOR, ".tp-conflict-values").text
    assert "Oolong (theirs)" in both and "Oolong (mine)" in both, both
    check_step(browser, "pg-types-6-conflict", size, expected_error="409", wide_table=True)
    browser.find_element(By.CSS_SELECTOR, ".tp-take-theirs").click()
    assert closed(browser)
    assert wait_until(lambda: shown(browser, "3", "name") == "Oolong (theirs)", 5), shown(browser, "3", "name")
    assert shop.scalar("SELECT name FROM items WHERE id = 3") == "Oolong (theirs)"

    open_editor(browser, "2", "details")
    assert serious_violations(browser) == []
    check_step(browser, "pg-types-7-editor-open", size, wide_table=True)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_saving_another_column_keeps_an_infinite_date(shop, browser, size):
    """Before, a date column's editor was always the browser's date picker, which shows PostgreSQL's
    'infinity' as an empty picker and sends it back empty (NULL): saving the row page's form after
    changing only the stock erased the date. Now the value is shown as text, and a column the
    person left alone is not sent."""
    shop.scalar("UPDATE items SET added = 'infinity', details = '{\"note\": \"a\\nb\"}' WHERE id = 2")
    before = shop.scalar("SELECT added::text || '|' || details::text || '|' || coalesce(price::text, '') FROM items WHERE id = 2")
    set_size(browser, size)
    navigate(browser, lambda: browser.get(shop.sign_in_first()))
    navigate(browser, lambda: browser.get(shop.first + "/pages/items/rows/2/-/edit"))
    added = browser.find_element(By.CSS_SELECTOR, "[name='v.added']")
    assert (added.get_attribute("type"), added.get_attribute("value")) == ("text", "infinity")
    check_step(browser, "pg-dates-1-row-form", size)
    stock = browser.find_element(By.CSS_SELECTOR, "[name='v.stock']")
    stock.send_keys(Keys.CONTROL, "a")
    stock.send_keys("42")
    navigate(browser, lambda: browser.find_element(By.CSS_SELECTOR, "form.tp-edit-form:not(.tp-delete-form) button[type='submit']").click())
    assert shop.scalar("SELECT stock FROM items WHERE id = 2") == "42"
    assert shop.scalar("SELECT added::text || '|' || details::text || '|' || coalesce(price::text, '') FROM items WHERE id = 2") == before

    # The cell's editor too shows it as text, and a date typed there is written.
    browser.get(shop.first + "/pages/items")
    assert wait_until(lambda: live(browser), 10)
    added = open_editor(browser, "2", "added")
    assert (added.get_attribute("type"), added.get_attribute("value"), added.get_attribute("placeholder")) == ("text", "infinity", "YYYY-MM-DD")
    check_step(browser, "pg-dates-2-cell-editor", size, wide_table=True)
    added.send_keys(Keys.CONTROL, "a")
    added.send_keys("2026-05-06")
    save(browser)
    assert closed(browser)
    assert shop.scalar("SELECT added FROM items WHERE id = 2") == "2026-05-06"


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_a_mouse_edits_a_value_that_is_a_link(shop, browser, size):
    """Before, a double click on a foreign key's label (or on bytes) followed the link on its first
    click, and a mouse had no other way to edit such a cell in place (only F2). Now the pointer over
    the cell shows an "Edit" button beside the link, which opens the cell's editor; the link still
    leads to the referenced row."""
    set_size(browser, size)
    navigate(browser, lambda: browser.get(shop.sign_in_first()))
    browser.get(shop.first + "/pages/items")
    assert wait_until(lambda: live(browser), 10)
    value = field(browser, "2", "maker")
    link = value if value.tag_name == "a" else value.find_element(By.TAG_NAME, "a")
    href = link.get_attribute("href")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'center'})", link)
    ActionChains(browser).move_to_element(link).perform()
    button = browser.find_element(By.CSS_SELECTOR, ".tp-edit-cell")
    assert wait_until(lambda: button.is_displayed(), 5), "no Edit button beside the label"
    assert button.text == "Edit" and button.get_attribute("aria-label") == "Edit maker"
    # Beside the label, on screen, covering nothing the person reads of other columns.
    box = browser.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.left, r.right, innerWidth]", button)
    assert 0 <= box[0] and box[1] <= box[2], box
    check_step(browser, "pg-link-edit-1-button", size, wide_table=True)
    assert serious_violations(browser) == []
    ActionChains(browser).move_to_element(button).click().perform()
    assert wait_until(lambda: browser.execute_script(
        "return document.activeElement?.name === 'v.maker' && !!document.activeElement.closest('.tp-cell-editor')"), 5), "the editor did not open"
    assert browser.current_url.endswith("/pages/items"), browser.current_url
    check_step(browser, "pg-link-edit-2-editor", size, wide_table=True)
    Select(browser.switch_to.active_element).select_by_value("1")
    save(browser)
    assert closed(browser)
    assert shop.scalar("SELECT maker FROM items WHERE id = 2") == "1"
    # The label is still a link to the referenced row.
    assert wait_until(lambda: shown(browser, "2", "maker") is not None, 5)
    assert field(browser, "2", "maker").find_elements(By.CSS_SELECTOR, "a[href]") or field(browser, "2", "maker").tag_name == "a", href

