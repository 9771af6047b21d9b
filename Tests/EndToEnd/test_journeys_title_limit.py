"""A title's limit said before it is typed, and words about ticking only for those who may tick, in
Chromium with JavaScript on, at a laptop's and a phone's width (issue 32). Signed in, the to-do
list's add form says "At most 400 characters" under its field, the list's footer says it for
Rename too, and both fields stop typing at 400; a visitor who may not write reads neither the
limit nor "Select a to-do to tick it", on the to-do list or the checklist."""
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import wait_until
from journey import SIZE_IDS, SIZES, check_step, examples_site, live, navigate, serious_violations, set_size  # noqa: F401 (a fixture)

# Words, so that the title wraps between them in the list like any long title.
LONG_TITLE = "Pack " * 120


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_an_anonymous_visitor_reads_no_words_about_actions_they_cannot_take(examples_site, browser, size):
    base, _ = examples_site
    set_size(browser, size)
    for page in ("todo", "checklist"):
        navigate(browser, lambda: browser.get(base + f"/pages/{page}"))
        assert wait_until(lambda: live(browser), 10)
        main = browser.find_element(By.TAG_NAME, "main").text
        assert browser.find_elements(By.CSS_SELECTOR, ".tk-row .tk-title"), f"/pages/{page} shows no items"
        assert "tick it" not in main, main
        assert "At most 400 characters" not in main
        assert not [footer.text for footer in browser.find_elements(By.CSS_SELECTOR, ".tk-footer") if "tick" in footer.text]
        assert serious_violations(browser) == []
        check_step(browser, f"limit-anonymous-{page}", size)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_signed_in_the_limit_is_said_and_typing_stops_at_it(examples_site, browser, size):
    base, link = examples_site
    set_size(browser, size)
    navigate(browser, lambda: browser.get(link.new()))
    navigate(browser, lambda: browser.get(base + "/pages/todo"))
    assert wait_until(lambda: live(browser), 10)
    footer = browser.find_element(By.CSS_SELECTOR, "[data-section='todos'] .tk-footer")
    assert footer.is_displayed()
    assert "Select a to-do to tick it." in footer.text and "A title has at most 400 characters." in footer.text, footer.text
    hint = browser.find_element(By.CSS_SELECTOR, "form.tk-insert .tk-form-hint")
    assert hint.is_displayed() and hint.text == "At most 400 characters"
    field = browser.find_element(By.CSS_SELECTOR, "form.tk-insert input[type='text']")
    # The hint is part of the field's label, so it is read out with the field's name.
    label = browser.execute_script("return arguments[0].labels[0].textContent", field)
    assert "Title" in label and "At most 400 characters" in label, label
    assert serious_violations(browser) == []
    check_step(browser, "limit-said", size)

    field.send_keys(LONG_TITLE)
    assert len(field.get_attribute("value")) == 400, "typing did not stop at the limit"
    check_step(browser, "limit-typed", size)
    browser.find_element(By.CSS_SELECTOR, "form.tk-insert button").click()
    kept = LONG_TITLE[:400].strip()
    assert wait_until(lambda: browser.execute_script(
        "return [...document.querySelectorAll('[data-section=\"todos\"] .tk-row .tk-title')].some((t) => t.textContent === arguments[0])", kept), 5), \
        "the title at the limit was not added whole"

    rename = browser.find_element(By.CSS_SELECTOR, "#row-todo-1 form.tk-action input[name='title']")
    assert rename.get_attribute("maxlength") == "400"
    rename.send_keys(Keys.END, LONG_TITLE)
    assert len(rename.get_attribute("value")) == 400, "the rename field did not stop at the limit"
    check_step(browser, "limit-rename", size)
