"""Access control in a real headless Chromium: an anonymous browser reads pages without action
controls and is told how to sign in; a browser signed in with the URL the server prints can act,
live for another signed-in browser; and on the per-viewer page `/pages/mine` two signed-in browsers
(two sessions) each see only their own to-dos."""
import time

import pytest
from conftest import console_errors, new_browser, wait_until
from selenium.webdriver.common.by import By
from test_live_page import open_live, row_text

@pytest.fixture()
def site(signed_in_server):
    """A server where only signed-in clients write; yields (base URL, `SignInLinks` for its sign-in links)."""
    yield signed_in_server


@pytest.fixture()
def second_browser():
    """A second Chromium, with cookies (and so a session) of its own."""
    driver = new_browser()
    yield driver
    driver.quit()


def page_text(browser):
    return browser.find_element(By.CSS_SELECTOR, ".tp-page").text


def sign_in_browser(browser, links):
    """Signs `browser` in with a new link of `links` (each link signs in once)."""
    browser.get(links.new())
    assert any(cookie["name"] == "tablepages_session" for cookie in browser.get_cookies()), "no session cookie was set"


def test_an_anonymous_browser_sees_no_controls_and_how_to_sign_in(site, browser):
    base, _ = site
    open_live(browser, base + "/pages/todo")
    assert "Book the train" in page_text(browser)
    assert browser.find_elements(By.CSS_SELECTOR, ".tp-page form") == [], "an anonymous browser was shown action controls"
    assert browser.find_elements(By.CSS_SELECTOR, ".tp-page button") == []
    hint = browser.find_element(By.CSS_SELECTOR, "a.tp-signin")
    assert "Sign in" in hint.text
    # The per-viewer page is not listed for it.
    browser.get(base + "/")
    assert "/pages/todo" in browser.page_source and "/pages/mine" not in browser.page_source
    # The hint leads to a page that says where the sign-in URL is.
    browser.get(base + "/pages/todo")
    browser.find_element(By.CSS_SELECTOR, "a.tp-signin").click()
    assert wait_until(lambda: "sign-in URL" in browser.find_element(By.TAG_NAME, "body").text, 5)
    # ... and that each link signs in once, and how to get another.
    assert "once" in browser.find_element(By.TAG_NAME, "body").text and "tablepages secret link" in browser.find_element(By.TAG_NAME, "body").text
    assert not any(cookie["name"] == "tablepages_session" for cookie in browser.get_cookies())


def test_a_signed_in_browser_toggles_a_todo_live_for_another_signed_in_browser(site, browser, second_browser):
    base, links = site
    sign_in_browser(browser, links)
    sign_in_browser(second_browser, links)
    open_live(browser, base + "/pages/todo")
    open_live(second_browser, base + "/pages/todo")
    assert "to do" in row_text(second_browser, "todo-3")
    assert browser.find_elements(By.CSS_SELECTOR, "a.tp-signin") == []

    browser.find_element(By.CSS_SELECTOR, '[data-row="todo-3"] form.tk-select button').click()
    assert wait_until(lambda: "done" in (row_text(browser, "todo-3") or ""), 3), "the click did not tick the to-do"
    assert wait_until(lambda: "done" in (row_text(second_browser, "todo-3") or ""), 3), "the other signed-in browser did not see it live"
    assert second_browser.execute_script("return window.__sameDocument === true"), "the other browser reloaded"
    # The patch it received keeps its controls: it may write too.
    assert second_browser.find_elements(By.CSS_SELECTOR, '[data-row="todo-3"] form.tk-select')
    assert console_errors(browser) == [] and console_errors(second_browser) == []


def add_todo(browser, title):
    field = browser.find_element(By.CSS_SELECTOR, 'form.tk-insert input[name="title"]')
    field.send_keys(title)
    browser.find_element(By.CSS_SELECTOR, "form.tk-insert button").click()


def test_two_signed_in_browsers_see_only_their_own_rows_on_the_per_viewer_page(site, browser, second_browser):
    base, links = site
    sign_in_browser(browser, links)
    sign_in_browser(second_browser, links)
    open_live(browser, base + "/pages/mine")
    open_live(second_browser, base + "/pages/mine")

    add_todo(browser, "First browser's errand")
    assert wait_until(lambda: "First browser's errand" in page_text(browser), 5)
    add_todo(second_browser, "Second browser's errand")
    assert wait_until(lambda: "Second browser's errand" in page_text(second_browser), 5)
    # Give a leaked patch time to arrive before looking for it.
    time.sleep(1)
    assert "Second browser's errand" not in page_text(browser)
    assert "First browser's errand" not in page_text(second_browser)
    # A fresh load shows the same: each list is stored per session.
    browser.refresh()
    second_browser.refresh()
    assert "First browser's errand" in page_text(browser) and "Second browser's errand" not in page_text(browser)
    assert "Second browser's errand" in page_text(second_browser) and "First browser's errand" not in page_text(second_browser)
    assert console_errors(browser) == [] and console_errors(second_browser) == []
