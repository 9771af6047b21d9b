"""Adding where a page says "add", in Chromium with JavaScript on, at a laptop's and a phone's
width: the shared to-do list (`/pages/todo`) and the in-memory checklist (`/pages/checklist`) each
end with an add form, signed in; the item typed there appears in the list and the form is empty
again. And `/pages/mine` says what is true of whose list it is: each browser signed in with the
link is its own actor, with a list of its own, and the page says so; two browsers signed in with
the same link see exactly that."""
import pytest
from selenium.webdriver.common.by import By

from conftest import new_browser, wait_until
from journey import SIZE_IDS, SIZES, check_step, examples_site, live, navigate, set_size  # noqa: F401 (a fixture)


def titles(browser, section):
    return browser.execute_script(
        "return [...document.querySelectorAll('[data-section=\"' + arguments[0] + '\"] .tk-row .tk-title')].map((t) => t.textContent)",
        section)



def add(browser, title):
    field = browser.find_element(By.CSS_SELECTOR, "form.tk-insert input[type='text']")
    field.send_keys(title)
    browser.find_element(By.CSS_SELECTOR, "form.tk-insert button").click()


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
@pytest.mark.parametrize("page, section", [("todo", "todos"), ("checklist", "items")])
def test_a_list_that_says_add_has_an_add_form_that_adds(examples_site, browser, size, page, section):
    base, link = examples_site
    set_size(browser, size)
    browser.get(base + "/")
    summary = browser.find_element(By.CSS_SELECTOR, f".tp-pages a[href='/pages/{page}'] span").text
    assert "add" in summary.lower(), summary
    new_link = link.new()
    navigate(browser, lambda: browser.get(new_link))
    browser.get(base + f"/pages/{page}")
    assert wait_until(lambda: live(browser), 10)
    before = titles(browser, section)
    assert browser.find_elements(By.CSS_SELECTOR, "form.tk-insert"), f"/pages/{page} has no add form"
    title = f"Fetch the {size[0]} parcel"
    add(browser, title)
    assert wait_until(lambda: titles(browser, section) == before + [title], 5), "the added item did not appear"
    assert wait_until(lambda: browser.find_element(By.CSS_SELECTOR, "form.tk-insert input[type='text']").get_attribute("value") == "", 5)
    check_step(browser, f"add-{page}", size)


def test_two_browsers_signed_in_with_the_link_see_what_mine_says(examples_site, browser):
    base, link = examples_site
    other = new_browser()
    try:
        for driver in (browser, other):
            new_link = link.new()
            navigate(driver, lambda: driver.get(new_link))
            driver.get(base + "/pages/mine")
            assert wait_until(lambda: live(driver), 10)
        add(browser, "Only in the first browser")
        assert wait_until(lambda: titles(browser, "todos") == ["Only in the first browser"], 5)
        footer = browser.find_element(By.CSS_SELECTOR, "[data-section='todos'] .tk-footer").text
        # What the page promises ...
        assert "only this browser sees it" in footer and "another browser signed in with the link has a list of its own" in footer, footer
        assert "every browser" not in footer
        # ... is what the second browser sees, live and after a reload.
        add(other, "Only in the second browser")
        assert wait_until(lambda: titles(other, "todos") == ["Only in the second browser"], 5)
        other.refresh()
        assert wait_until(lambda: live(other), 10)
        assert titles(other, "todos") == ["Only in the second browser"]
        assert titles(browser, "todos") == ["Only in the first browser"]
    finally:
        other.quit()


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_a_blank_title_is_told_what_to_do_and_an_anonymous_visitor_sees_no_dead_add_row(examples_site, browser, size):
    base, link = examples_site
    set_size(browser, size)
    # Not signed in: the add row is not shown (it would be a form nobody may send), nor announced.
    navigate(browser, lambda: browser.get(base + "/pages/todo"))
    assert wait_until(lambda: live(browser), 10)
    add_row = browser.find_element(By.ID, "row-add-todo")
    assert not add_row.is_displayed()
    assert "New to-do" not in browser.find_element(By.TAG_NAME, "main").text
    check_step(browser, "add-anonymous", size)

    navigate(browser, lambda: browser.get(link.new()))
    navigate(browser, lambda: browser.get(base + "/pages/todo"))
    assert wait_until(lambda: live(browser), 10)
    assert browser.find_element(By.ID, "row-add-todo").is_displayed()
    add(browser, "   ")
    # Said below the form, where the person is looking, and the field marked.
    assert wait_until(lambda: browser.find_elements(By.CSS_SELECTOR, "form.tk-insert .tk-form-error"), 5), "no word on a blank title"
    note = browser.find_element(By.CSS_SELECTOR, "form.tk-insert .tk-form-error")
    assert note.is_displayed()
    assert note.text == "Nothing was added: a new to-do needs a title. Type what it is in the box, then press Add."
    field = browser.find_element(By.CSS_SELECTOR, "form.tk-insert input[name='title']")
    assert field.get_attribute("aria-invalid") == "true" and field.get_attribute("aria-describedby") == note.get_attribute("id")
    check_step(browser, "add-blank", size, expected_error="400")
