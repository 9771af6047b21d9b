"""A data person's facets in Chromium, at a laptop's and a phone's width, on the shop-like file of
test_datasette_facets.py (indexed `status` and `product_id`, `ordered_at` datetimes, `tags` arrays):
the table page suggests the facets Datasette 0.65.5 suggests for the same table (asked of a real
Datasette), in its order; following "ordered_at (date)" counts the orders of each day; following
the product facet shows each product by its name ("Giant Lamp #17"), not its number, and choosing
one filters the rows to it. Each step is checked against SQLite and by ``journey.check_step`` (no
sideways scrolling, no console error), with a screenshot."""
import sqlite3

import pytest
from selenium.webdriver.common.by import By

from conftest import start_datasette
from datasette_shop import build
from journey import SIZE_IDS, SIZES, check_step, navigate, read_only_database_site, set_size
from test_datasette_api import fetch


@pytest.fixture(scope="module")
def shop(tmp_path_factory):
    yield from read_only_database_site(tmp_path_factory, "journey-facets", build)


@pytest.fixture(scope="module")
def datasette_suggestions(shop):
    """What Datasette suggests for the orders, as the page names them: `status`, `ordered_at (date)`."""
    _, database, _ = shop
    process, base = start_datasette(database)
    try:
        status, document = fetch(base, "/shop/orders.json")
        assert status == 200
        return [s["name"] + (f" ({s['type']})" if s.get("type") else "") for s in document["suggested_facets"]]
    finally:
        process.terminate()
        process.wait(timeout=10)


def facet_values(browser, column, kind="column"):
    """Each value of the facet as shown: (its text, its count)."""
    section = browser.find_element(By.CSS_SELECTOR, f".tk-db-facet[data-field='{column}'][data-type='{kind}']")
    return [(item.find_element(By.CSS_SELECTOR, "a, span").text, item.find_element(By.CSS_SELECTOR, ".tk-db-facet-count").text)
            for item in section.find_elements(By.CSS_SELECTOR, "li:not(.tk-db-more)")]


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_suggested_date_and_labelled_facets(shop, datasette_suggestions, browser, size):
    base, database, _ = shop
    set_size(browser, size)
    browser.get(base + "/pages/orders")
    suggested = browser.find_element(By.CSS_SELECTOR, ".tk-db-suggested")
    links = suggested.find_elements(By.TAG_NAME, "a")
    assert [link.text for link in links] == datasette_suggestions
    assert datasette_suggestions[0] == "status" and "ordered_at (date)" in datasette_suggestions
    check_step(browser, "facets-1-suggested", size)

    navigate(browser, next(link for link in links if link.text == "ordered_at (date)").click)
    assert "_facet_date=ordered_at" in browser.current_url
    with sqlite3.connect(database) as db:
        days = [(day, f"{count:,}") for day, count in db.execute(
            "SELECT date(ordered_at), count(*) FROM orders GROUP BY 1 ORDER BY 2 DESC, 1")]
    title = browser.find_element(By.CSS_SELECTOR, ".tk-db-facet[data-type='date'] h2").get_attribute("textContent")
    assert title.startswith("ordered_at (date)")
    assert facet_values(browser, "ordered_at", "date") == days
    check_step(browser, "facets-2-date", size)

    browser.get(base + "/pages/orders?_facet=product_id")
    with sqlite3.connect(database) as db:
        top = list(db.execute("""SELECT p.id, p.name, count(*) FROM orders o JOIN products p ON p.id = o.product_id
                                 GROUP BY o.product_id ORDER BY 3 DESC, o.product_id LIMIT 5"""))
        nulls = db.execute("SELECT count(*) FROM orders WHERE product_id IS NULL").fetchone()[0]
    assert nulls > top[0][2], "the file's orders without a product come first"
    shown = facet_values(browser, "product_id")
    assert shown[1:6] == [(name, f"{count:,}") for _, name, count in top], "each product by its name, most ordered first"
    check_step(browser, "facets-3-labelled", size)

    product, name, count = top[0]
    link = browser.find_element(By.XPATH, f"//section[@data-field='product_id']//a[normalize-space()='{name}']")
    navigate(browser, link.click)
    assert f"product_id__exact={product}" in browser.current_url
    assert browser.find_element(By.CSS_SELECTOR, ".tk-db-count").text.startswith(f"{count} rows where product_id = {product}")
    check_step(browser, "facets-4-chosen", size)
