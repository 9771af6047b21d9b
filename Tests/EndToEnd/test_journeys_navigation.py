"""A visitor who is not signed in, in Chromium with JavaScript on, at a laptop's and a phone's
width, finding their way: a product row of the examples is a link (its address in the status bar,
opened by a click, no sign-in asked), and the product's "All products" row leads back."""
import pytest
from selenium.webdriver.common.by import By

from journey import SIZE_IDS, SIZES, check_step, examples_site, live, navigate, open_as, serious_violations  # noqa: F401
from conftest import wait_until


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
@pytest.mark.parametrize("layout", ["list", "sections"])
def test_anonymous_visitor_opens_a_product_by_its_link(examples_site, browser, size, layout):
    base, _ = examples_site
    open_as(browser, size)
    navigate(browser, lambda: browser.get(f"{base}/pages/products?layout={layout}"))
    assert wait_until(lambda: live(browser), 10)
    assert not browser.find_elements(By.CSS_SELECTOR, "form.tk-select"), "an anonymous visitor gets no select forms"
    link = browser.find_element(By.CSS_SELECTOR, '#row-3 a.tk-link')
    assert link.get_attribute("href") == f"{base}/pages/product?id=3"
    assert "Decaf Colombia" in link.text and "\u203a" in link.text, link.text
    check_step(browser, f"navigation-products-{layout}", size)
    assert serious_violations(browser) == []

    navigate(browser, link.click)
    assert browser.current_url == f"{base}/pages/product?id=3"
    assert browser.find_element(By.CSS_SELECTOR, "h1").text == "Decaf Colombia, 250 g"
    assert "€8.90" in browser.find_element(By.ID, "row-price").text
    check_step(browser, f"navigation-product-{layout}", size)
    assert serious_violations(browser) == []

    back = browser.find_element(By.CSS_SELECTOR, "#row-all-products a.tk-link")
    assert back.text.startswith("All products")
    navigate(browser, back.click)
    assert browser.current_url == f"{base}/pages/products"
