"""Layout details a person notices, in Chromium with JavaScript on, at a laptop's and a phone's
width: signed in, the check marks of the ticked to-dos line up (one x for every row, whichever move
controls a row has), and on Products an "only N left" badge never pushes a price out of its column
(every price ends at the same right edge)."""
import pytest
from selenium.webdriver.common.by import By

from conftest import wait_until
from journey import SIZE_IDS, SIZES, check_step, examples_site, live, open_as  # noqa: F401 (a fixture)



def edges(browser, selector, side):
    return browser.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map((e) => e.getBoundingClientRect()[arguments[1]])", selector, side)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_signed_in_todo_check_marks_line_up(examples_site, browser, size):
    base, link = examples_site
    open_as(browser, size, link)
    browser.get(base + "/pages/todo")
    assert wait_until(lambda: live(browser), 10)
    # Tick every to-do, so the first row (no "Move up") and the last (no "Move down") have one too.
    rows = browser.execute_script("return [...document.querySelectorAll('[data-section=\"todos\"] .tk-row')].map((r) => r.id)")
    for row in rows:
        if not browser.find_elements(By.CSS_SELECTOR, f"#{row} .tk-checkmark"):
            browser.find_element(By.CSS_SELECTOR, f"#{row} .tk-select button").click()
            assert wait_until(lambda: browser.find_elements(By.CSS_SELECTOR, f"#{row} .tk-checkmark"), 5)
    check_step(browser, "layout-todo-check-marks", size)
    lefts = edges(browser, "[data-section='todos'] .tk-checkmark", "left")
    assert len(lefts) == len(rows) >= 3
    assert max(lefts) - min(lefts) <= 1, f"check marks at x = {lefts}"


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
@pytest.mark.parametrize("signed_in", [False, True], ids=["signed-out", "signed-in"])
def test_product_prices_share_a_right_edge_beside_a_badge(examples_site, browser, size, signed_in):
    base, link = examples_site
    open_as(browser, size, link if signed_in else None)
    browser.get(base + "/pages/products")
    assert wait_until(lambda: live(browser), 10)
    assert browser.find_elements(By.CSS_SELECTOR, ".tk-badge"), "no product shows a stock badge"
    check_step(browser, f"layout-products-{'in' if signed_in else 'out'}", size)
    for section in browser.find_elements(By.CSS_SELECTOR, ".tk-section"):
        rights = [round(edge) for edge in section.parent.execute_script(
            "return [...arguments[0].querySelectorAll('.tk-detail')].map((e) => e.getBoundingClientRect().right)", section)]
        assert len(set(rights)) <= 1 or max(rights) - min(rights) <= 1, f"prices end at {rights}"
