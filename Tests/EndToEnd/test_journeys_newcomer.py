"""A newcomer's first look at the example site in Chromium with JavaScript on, at a laptop's and a
phone's width: the index, every page it lists and every layout of each, then an address that does
not exist and one that is malformed. Every page fits the screen (no sideways scrolling), its bar's
items (site name, layouts, live status, sign-in) are on screen, no word is broken letter by letter,
and nothing logs a console error; the error pages are laid out for the phone and carry the bar.
Then the newcomer signs in with the link the server printed, sees that in the bar, and signs out
with the bar's button."""
import urllib.parse

import pytest
from selenium.webdriver.common.by import By

from conftest import wait_until
from journey import SIZE_IDS, SIZES, check_step, examples_site, navigate, set_size  # noqa: F401 (a fixture)


def page_links(browser):
    return [link.get_attribute("href") for link in browser.find_elements(By.CSS_SELECTOR, ".tp-pages a")]


def layout_links(browser):
    return [link.get_attribute("href") for link in browser.find_elements(By.CSS_SELECTOR, ".tp-variants a:not([aria-current])")]


def live(browser):
    return browser.execute_script("return document.querySelector('.tp-live')?.dataset.state") == "live"


def visit_every_page(browser, base, size, who):
    browser.get(base + "/")
    check_step(browser, f"newcomer-{who}-index", size)
    pages = page_links(browser)
    assert len(pages) >= 6, "the index lists the example pages"
    for page in pages:
        navigate(browser, lambda: browser.get(page))
        name = urllib.parse.urlsplit(page).path.rsplit("/", 1)[-1]
        assert wait_until(lambda: live(browser), 10), f"{name} did not go live"
        check_step(browser, f"newcomer-{who}-{name}", size)
        for other in layout_links(browser):
            navigate(browser, lambda: browser.get(other))
            assert wait_until(lambda: live(browser), 10)
            check_step(browser, f"newcomer-{who}-{name}-{urllib.parse.urlsplit(other).query}", size)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_a_newcomer_sees_every_page_fit_the_screen(examples_site, browser, size):
    base, _ = examples_site
    set_size(browser, size)
    visit_every_page(browser, base, size, "anonymous")
    assert browser.find_element(By.CSS_SELECTOR, ".tp-bar .tp-signin").is_displayed()


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_signed_in_every_page_fits_the_screen(examples_site, browser, size):
    base, link = examples_site
    set_size(browser, size)
    browser.get(link)
    visit_every_page(browser, base, size, "signed-in")


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
@pytest.mark.parametrize("path, status", [("/pages/nowhere", "404"), ("/pages/products?limit=nope", "400")])
def test_an_error_page_is_laid_out_for_the_screen_and_has_the_bar(examples_site, browser, size, path, status):
    base, _ = examples_site
    set_size(browser, size)
    browser.get(base + path)
    assert browser.find_element(By.TAG_NAME, "h1").text.startswith(status)
    viewport = browser.find_elements(By.CSS_SELECTOR, "meta[name='viewport']")
    assert viewport and viewport[0].get_attribute("content") == "width=device-width, initial-scale=1"
    home = browser.find_element(By.CSS_SELECTOR, ".tp-bar .tp-home")
    assert home.text == "TablePages"
    check_step(browser, f"newcomer-error-{status}", size, expected_error=f"status of {status}")
    navigate(browser, home.click)
    assert urllib.parse.urlsplit(browser.current_url).path == "/"


def bar_text(browser):
    return browser.find_element(By.CSS_SELECTOR, ".tp-bar").text


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_a_newcomer_signs_in_sees_it_in_the_bar_and_signs_out(examples_site, browser, size):
    base, link = examples_site
    set_size(browser, size)
    browser.get(base + "/")
    assert "Sign in to make changes" in bar_text(browser)
    assert "Signed in" not in bar_text(browser)
    check_step(browser, "signin-1-anonymous-index", size)

    # The link lands on the index, whose bar now says so and offers to sign out.
    navigate(browser, lambda: browser.get(link))
    assert urllib.parse.urlsplit(browser.current_url).path == "/"
    assert "Signed in" in bar_text(browser) and "Sign in to make changes" not in bar_text(browser)
    assert browser.find_element(By.CSS_SELECTOR, ".tp-bar .tp-signout button").is_displayed()
    check_step(browser, "signin-2-signed-in-index", size)

    # Every page says so too, and shows its controls.
    navigate(browser, lambda: browser.get(base + "/pages/todo"))
    assert wait_until(lambda: live(browser), 10)
    assert "Signed in" in bar_text(browser)
    assert browser.find_elements(By.CSS_SELECTOR, ".tk-row form.tk-select")
    check_step(browser, "signin-3-signed-in-page", size)

    # Sign out with the bar's button: back on the index, anonymous, the page without controls.
    navigate(browser, browser.find_element(By.CSS_SELECTOR, ".tp-bar .tp-signout button").click)
    assert urllib.parse.urlsplit(browser.current_url).path == "/"
    assert "Sign in to make changes" in bar_text(browser) and "Signed in" not in bar_text(browser)
    check_step(browser, "signin-4-signed-out-index", size)
    navigate(browser, lambda: browser.get(base + "/pages/todo"))
    assert "Sign in to make changes" in bar_text(browser)
    assert browser.find_elements(By.CSS_SELECTOR, ".tk-row form") == []


# Whether a signed-in person can change anything on the page (its own forms), so whether an
# anonymous one is asked to sign in: People, the gallery and the products (rows that are links) only show.
SIGN_IN_OFFERED = {
    "checklist": True, "todo": True, "products": False, "product?id=1": False, "destination": True,
    "people": False, "gallery": False,
}


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_only_pages_with_something_to_change_ask_to_sign_in(examples_site, browser, size):
    base, link = examples_site
    set_size(browser, size)
    for page, offered in SIGN_IN_OFFERED.items():
        browser.get(f"{base}/pages/{page}")
        assert ("Sign in to make changes" in bar_text(browser)) == offered, page
        check_step(browser, f"sign-in-offered-{page}", size)
    # Signed in, the pages without a sign-in prompt still have nothing to change: no forms that post.
    navigate(browser, lambda: browser.get(link))
    for page, offered in SIGN_IN_OFFERED.items():
        browser.get(f"{base}/pages/{page}")
        posting = browser.execute_script(
            "return document.querySelectorAll(\".tk-table form[method='post']\").length")
        assert (posting > 0) == offered, (page, posting)
    browser.delete_all_cookies()
