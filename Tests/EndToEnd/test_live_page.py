"""A live page in a real headless Chromium: changes made elsewhere appear without a reload."""
import json
import time

from conftest import console_errors, post, wait_until
from selenium.webdriver.common.by import By


def open_live(browser, url):
    browser.get(url)
    # A marker that a reload would wipe out.
    browser.execute_script("window.__sameDocument = true")
    assert wait_until(lambda: browser.find_element(By.CSS_SELECTOR, ".tp-live").get_attribute("data-state") == "live", 10)


def row_text(browser, row_id):
    # Read in one script call: a patch may replace the row between finding it and reading its
    # text, which selenium reports as a stale element.
    return browser.execute_script(
        "const row = document.querySelector('[data-row=\"' + CSS.escape(arguments[0]) + '\"]');"
        " return row ? row.innerText : null;", row_id)


def test_a_change_from_another_client_appears_within_a_second_without_reload(server, browser):
    open_live(browser, server + "/pages/checklist")
    assert "to do" in row_text(browser, "item-2")

    started = time.monotonic()
    status, _ = post(server + "/pages/checklist/rows/item-2/select")
    assert status == 200
    assert wait_until(lambda: "done" in (row_text(browser, "item-2") or ""), 1.0), "the row did not change within 1 s"
    assert time.monotonic() - started < 1.0
    assert browser.execute_script("return window.__sameDocument === true"), "the page reloaded"
    assert console_errors(browser) == []


def test_clicking_a_row_selects_it_in_the_background(server, browser):
    open_live(browser, server + "/pages/checklist")
    browser.find_element(By.CSS_SELECTOR, '[data-row="item-3"] form.tk-select button').click()
    assert wait_until(lambda: "done" in (row_text(browser, "item-3") or ""), 2.0)
    assert browser.execute_script("return window.__sameDocument === true"), "the form submission navigated away"
    assert console_errors(browser) == []


def test_hostile_cell_text_is_shown_as_text_and_never_runs(server, browser):
    open_live(browser, server + "/pages/checklist")
    hostile = '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script>"\'</li>\u2028'
    status, _ = post(server + "/pages/checklist/sections/items/rows", json.dumps({"title": hostile}))
    assert status == 201
    assert wait_until(lambda: '<img src=x onerror="window.__xss=1">' in browser.find_element(By.CSS_SELECTOR, ".tk-rows").text, 2.0)
    assert browser.execute_script("return window.__xss === undefined")
    assert browser.find_elements(By.CSS_SELECTOR, ".tk-rows img") == []
    # A full reload renders the same text server-side, still inert.
    browser.refresh()
    assert '<script>window.__xss=2</script>' in browser.find_element(By.CSS_SELECTOR, ".tk-rows").text
    assert browser.execute_script("return window.__xss === undefined")
    assert console_errors(browser) == []
