"""Forms of declared fields, in Chromium at a laptop's and a phone's width: the in-memory reading
list (`/pages/reading`) ends with an add form of two labelled inputs (title and author). Signed
in, a book added there appears for every browser watching; a title that is only spaces (which the
browser's own `required` lets through) is refused beside the form, naming the field, and the
title input is marked. An anonymous visitor sees the books and no form at all."""
import html
import urllib.error
import urllib.parse
import urllib.request

import pytest
from selenium.webdriver.common.by import By

from conftest import new_browser, wait_until
from journey import SIZE_IDS, SIZES, check_step, examples_site, live, navigate, serious_violations, set_size  # noqa: F401 (a fixture)


def books(browser):
    return browser.execute_script(
        "return [...document.querySelectorAll('[data-section=\"books\"] .tk-row')].map((row) =>"
        " [row.querySelector('.tk-title')?.textContent, row.querySelector('.tk-subtitle')?.textContent])")


def labelled(browser, label):
    """The input a person finds by its label's words, as assistive technology names it."""
    return browser.find_element(By.XPATH, f"//form[contains(@class,'tk-insert')]//label[span[normalize-space()='{label}']]//input")


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_a_two_field_form_adds_a_book_every_browser_sees(examples_site, browser, size):
    base, link = examples_site
    set_size(browser, size)
    anonymous = new_browser()
    try:
        set_size(anonymous, size)
        anonymous.get(base + "/pages/reading")
        assert wait_until(lambda: live(anonymous), 10)
        assert len(books(anonymous)) >= 2, "the visitor sees the books"
        assert anonymous.find_elements(By.CSS_SELECTOR, ".tk-table form[method='post'], .tk-form-field") == [], \
            "an anonymous visitor sees no form to add or edit"
        check_step(anonymous, "forms-anonymous", size)

        navigate(browser, lambda: browser.get(link.new()))
        browser.get(base + "/pages/reading")
        assert wait_until(lambda: live(browser), 10)
        before = books(browser)
        assert serious_violations(browser) == []

        # A title of spaces passes the browser's `required`; the server refuses it, in words, beside the form.
        labelled(browser, "Title").send_keys("   ")
        labelled(browser, "Author").send_keys("Nobody")
        browser.find_element(By.CSS_SELECTOR, "form.tk-insert button").click()
        note = lambda: browser.find_elements(By.CSS_SELECTOR, "form.tk-insert .tk-form-error")
        assert wait_until(lambda: note() and note()[0].text == "Fill in \u201cTitle\u201d.", 5), "no message beside the form"
        assert labelled(browser, "Title").get_attribute("aria-invalid") == "true"
        assert books(browser) == before, "nothing was added"
        check_step(browser, "forms-refused", size, expected_error="400")
        assert serious_violations(browser) == []

        title = f"Piranesi ({size[0]})"
        labelled(browser, "Title").clear()
        labelled(browser, "Title").send_keys(title)
        browser.find_element(By.CSS_SELECTOR, "form.tk-insert button").click()
        added = before + [[title, "Nobody"]]
        assert wait_until(lambda: books(browser) == added, 5), books(browser)
        assert wait_until(lambda: books(anonymous) == added, 5), "the anonymous browser did not see the book arrive"
        assert wait_until(lambda: note() == [], 5), "the message stayed after the book was added"
        assert labelled(browser, "Title").get_attribute("value") == ""
        check_step(browser, "forms-added", size, expected_error="400")
    finally:
        anonymous.quit()


def test_the_forms_post_plainly_and_redirect(examples_site, browser):
    """What a browser without a script sends: a form-encoded POST (with the session's CSRF token as
    the `_csrf` field, as the page's writes need) is answered with a redirect to the page, which
    then shows the new book and the edited one; a bad value is an error page naming the field."""
    base, link = examples_site
    navigate(browser, lambda: browser.get(link.new()))
    browser.get(base + "/pages/reading")
    token = browser.find_element(By.CSS_SELECTOR, "meta[name='csrf-token']").get_attribute("content")
    cookie = "; ".join(f"{c['name']}={c['value']}" for c in browser.get_cookies())

    def send(path, fields):
        body = urllib.parse.urlencode({**fields, "_csrf": token}).encode()
        request = urllib.request.Request(base + path, data=body, method="POST", headers={
            "Content-Type": "application/x-www-form-urlencoded", "Accept": "text/html", "Cookie": cookie, "Origin": base})
        try:
            with urllib.request.urlopen(request, timeout=5) as response:
                return response.status, response.url, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.url, error.read().decode()

    status, url, page = send("/pages/reading/sections/add/rows", {"title": "Gilead", "author": "Marilynne Robinson"})
    assert (status, url) == (200, base + "/pages/reading"), (status, url)
    assert "Gilead" in page and "Marilynne Robinson" in page
    status, url, page = send("/pages/reading/rows/book-2/actions/edit", {"title": "Middlemarch", "author": "Mary Ann Evans"})
    assert (status, url) == (200, base + "/pages/reading")
    assert "Mary Ann Evans" in page and "George Eliot" not in page
    status, _, page = send("/pages/reading/sections/add/rows", {"title": "x" * 121})
    assert status == 400
    assert "\u201cTitle\u201d may have at most 120 characters; this one has 121." in html.unescape(page)
