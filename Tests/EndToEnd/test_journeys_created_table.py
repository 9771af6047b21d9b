"""A table created while TablePages runs, in Chromium at a laptop's and a phone's width: a script
creates it through Datasette's write API (`/{database}/-/create`, as `dclient insert --create`
does); a person on the index sees it after a reload (the index is not a live page), opens it, and
sees the script's next rows arrive live, then the column the script adds with `alter` (the open
page is told to fetch itself again). Signed in, the person may add a row to it. Before, the new
table got its page only at the next start."""
import json
import sqlite3
import subprocess

import pytest
from selenium.webdriver.common.by import By

from conftest import BINARY, SignInLinks, post, start_server, stop_server, wait_until
from journey import SIZE_IDS, SIZES, check_step, live, navigate, set_size


@pytest.fixture()
def shop(tmp_path):
    """A one-table shop served writable; yields (base URL, sign-in links, a write token)."""
    database = tmp_path / "shop.sqlite"
    with sqlite3.connect(database) as db:
        db.executescript("PRAGMA journal_mode = WAL; CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO items VALUES (1, 'Green tea');")
    token = subprocess.run([BINARY, "token", "create", "--name", "script", "--write"], cwd=tmp_path, capture_output=True, text=True,
                           timeout=30, check=True).stdout.strip().splitlines()[-1]
    process, base = start_server(tmp_path, "--database", str(database), "--writable", anonymous_writes=False)
    yield base, SignInLinks(tmp_path), token
    stop_server(process)


def script(base, token, path, body):
    """The script's request: Datasette's write API with the token."""
    return post(base + path, json.dumps(body), headers={"Authorization": "Bearer " + token})


def names(driver):
    return driver.execute_script(
        "return [...document.querySelectorAll('.tk-row[data-kind=\"record\"] [data-field=\"name\"] .tk-field-value')].map((value) => value.textContent)")


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_a_table_a_script_creates_appears_and_follows_its_changes(shop, browser, size):
    base, links, token = shop
    set_size(browser, size)
    browser.get(base + "/")
    assert not browser.find_elements(By.CSS_SELECTOR, "a[href='/pages/birds']")
    check_step(browser, "created-table-1-index-before", size)

    status, _ = script(base, token, "/shop/-/create", {"table": "birds", "rows": [{"id": 1, "name": "Tweety"}], "pk": "id"})
    assert status == 201
    navigate(browser, browser.refresh)
    link = browser.find_element(By.CSS_SELECTOR, "a[href='/pages/birds']")
    check_step(browser, "created-table-2-index-after-reload", size)
    navigate(browser, link.click)
    assert wait_until(lambda: live(browser), 10), "the new table's page is not live"
    assert names(browser) == ["Tweety"]
    check_step(browser, "created-table-3-page", size)

    # The script's next row arrives without a reload.
    assert script(base, token, "/shop/birds/-/insert", {"row": {"id": 2, "name": "Zazu"}})[0] == 201
    assert wait_until(lambda: names(browser) == ["Tweety", "Zazu"], 5), f"the new row did not arrive: {names(browser)}"

    # A column the script adds: the open page fetches itself again and shows it.
    assert script(base, token, "/shop/birds/-/insert", {"row": {"id": 3, "name": "Iago", "colour": "red"}, "alter": True})[0] == 201
    assert wait_until(lambda: browser.find_elements(By.CSS_SELECTOR, ".tk-field[data-field='colour']"), 5), "the new column did not appear"
    assert wait_until(lambda: names(browser) == ["Tweety", "Zazu", "Iago"], 5), f"{names(browser)}"
    assert wait_until(lambda: live(browser), 10), "the page did not follow again after fetching itself"
    check_step(browser, "created-table-4-altered", size)

    # Signed in, the person may add a row to the new table, as to any other.
    navigate(browser, lambda: browser.get(links.new()))
    browser.get(base + "/pages/birds")
    assert browser.find_element(By.CSS_SELECTOR, "a.tp-add-row").text == "Add a row"
    check_step(browser, "created-table-5-signed-in", size)
