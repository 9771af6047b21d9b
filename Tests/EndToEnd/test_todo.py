"""The persisted to-do page in a real headless Chromium: clicking a to-do ticks it in place, and a
change made by another client appears without a reload. Both sign in with the link the server
printed: the server does not let anonymous clients write."""
import json

from conftest import console_errors, post, session_headers, wait_until
from selenium.webdriver.common.by import By
from test_live_page import open_live
from test_live_page import row_text as live_row_text


def row_text(browser, row_id):
    return live_row_text(browser, row_id) or ""


def test_clicking_a_todo_ticks_it_and_updates_the_progress_without_reload(signed_in_server, browser):
    server, sign_in_link = signed_in_server
    browser.get(sign_in_link.new())
    open_live(browser, server + "/pages/todo")
    assert "to do" in row_text(browser, "todo-3")
    assert "2 of 8 done" in row_text(browser, "progress")

    browser.find_element(By.CSS_SELECTOR, '[data-row="todo-3"] form.tk-select button').click()
    assert wait_until(lambda: "done" in row_text(browser, "todo-3"), 2.0), "the clicked to-do did not change"
    assert wait_until(lambda: "3 of 8 done" in row_text(browser, "progress"), 2.0), "the summary did not follow"
    assert browser.find_elements(By.CSS_SELECTOR, '[data-row="todo-3"] .tk-checkmark')
    assert browser.execute_script("return window.__sameDocument === true"), "the page reloaded"
    assert console_errors(browser) == []

    # It was stored: a fresh load shows it ticked.
    browser.refresh()
    assert "done" in row_text(browser, "todo-3")


def test_a_todo_added_and_ticked_by_another_client_appears_without_reload(signed_in_server, browser):
    server, sign_in_link = signed_in_server
    open_live(browser, server + "/pages/todo")
    signed_in = session_headers(sign_in_link, server + "/pages/todo")

    status, _ = post(server + "/pages/todo/sections/todos/rows", json.dumps({"title": "Pack the tent"}), headers=signed_in)
    assert status == 201
    assert wait_until(lambda: "Pack the tent" in browser.find_element(By.CSS_SELECTOR, '[data-section="todos"]').text, 2.0)

    status, _ = post(server + "/pages/todo/rows/todo-4/select", headers=signed_in)
    assert status == 200
    assert wait_until(lambda: "done" in row_text(browser, "todo-4"), 1.0), "the other client's change did not appear within 1 s"
    assert wait_until(lambda: "3 of 9 done" in row_text(browser, "progress"), 1.0)
    assert browser.execute_script("return window.__sameDocument === true"), "the page reloaded"
    assert console_errors(browser) == []
