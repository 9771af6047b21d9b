"""A person's own to-do list in Chromium with JavaScript on, at a laptop's and a phone's width:
signed in, `/pages/mine` starts empty and says so in words ("Nothing to do yet", not "0 of 0
done · 100 %"); a to-do typed into the add form and added appears in the list, the form is empty
again (a second click would not add it twice), and the summary counts it."""
import pytest
from selenium.webdriver.common.by import By

from conftest import wait_until
from journey import SIZE_IDS, SIZES, check_step, examples_site, navigate, set_size  # noqa: F401 (a fixture)
from test_live_page import row_text


def rows_of(browser, section):
    return browser.execute_script(
        "return [...document.querySelectorAll('[data-section=\"' + arguments[0] + '\"] .tk-row .tk-title')].map((t) => t.textContent)",
        section)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_an_empty_list_reads_well_and_an_added_todo_clears_the_form(examples_site, browser, size):
    base, link = examples_site
    set_size(browser, size)
    new_link = link.new()
    navigate(browser, lambda: browser.get(new_link))  # a new session: a list of its own, empty
    browser.get(base + "/pages/mine")
    assert wait_until(lambda: browser.execute_script("return document.querySelector('.tp-live').dataset.state") == "live", 10)
    assert rows_of(browser, "todos") == []
    summary = row_text(browser, "progress")
    assert "Nothing to do yet" in summary and "0 of 0" not in summary and "%" not in summary
    check_step(browser, "todo-1-empty", size)

    field = browser.find_element(By.CSS_SELECTOR, "form.tk-insert input[type='text']")
    field.send_keys("Water the ferns")
    browser.find_element(By.CSS_SELECTOR, "form.tk-insert button").click()
    assert wait_until(lambda: rows_of(browser, "todos") == ["Water the ferns"], 5), "the added to-do did not appear"
    assert wait_until(lambda: browser.find_element(By.CSS_SELECTOR, "form.tk-insert input[type='text']").get_attribute("value") == "", 5), \
        "the add form kept its text"
    assert wait_until(lambda: "0 of 1 done" in (row_text(browser, "progress") or ""), 5)
    check_step(browser, "todo-2-added", size)

    # Add pressed again with the emptied field adds nothing, and the page says what to type below
    # the form (the server's 400, which Chromium logs).
    browser.find_element(By.CSS_SELECTOR, "form.tk-insert button").click()
    assert wait_until(lambda: "needs a title" in browser.execute_script(
        "return document.querySelector('form.tk-insert')?.parentElement?.innerText ?? ''"), 5), "no word on the blank to-do"
    assert rows_of(browser, "todos") == ["Water the ferns"]
    browser.find_element(By.CSS_SELECTOR, "form.tk-insert input[type='text']").send_keys("Oil the hinges")
    browser.find_element(By.CSS_SELECTOR, "form.tk-insert button").click()
    assert wait_until(lambda: rows_of(browser, "todos") == ["Water the ferns", "Oil the hinges"], 5)
    assert wait_until(lambda: "0 of 2 done" in (row_text(browser, "progress") or ""), 5)
    check_step(browser, "todo-3-added-again", size, expected_error="400")
