"""A person typing in a row while someone else changes it, in Chromium with JavaScript on, at a
laptop's and a phone's width: the patch of that row waits instead of resetting the field, the row
says it changed meanwhile, the typed text and the focus (caret included) survive the other's
rename and a move of the row, and sending the form applies the person's own write; "Show their
version" takes the other's. Before, a patch replaced the row under the person: the field went back
to the server's text and the focus went to the page."""
import subprocess
import urllib.parse

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import BINARY, SignInLinks, post, start_server, stop_server, wait_until
from journey import SIZE_IDS, SIZES, check_step, live, navigate, set_size


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The example pages with writes for signed-in clients only; yields (base URL, its sign-in
    links, a write token for the other client)."""
    directory = tmp_path_factory.mktemp("editing")
    process, base = start_server(directory, anonymous_writes=False)
    done = subprocess.run([BINARY, "token", "create", "--name", "other", "--write"], cwd=directory,
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    yield base, SignInLinks(directory), done.stdout.strip().splitlines()[-1]
    stop_server(process)


def as_other(base, token, path, **fields):
    """POSTs `fields` as the other client (a script with a write token); returns the status."""
    body = urllib.parse.urlencode(fields)
    status, _text = post(base + path, body, "application/x-www-form-urlencoded", {"Authorization": f"Bearer {token}"})
    return status


def field_of(browser, row):
    return browser.find_element(By.CSS_SELECTOR, f"#row-{row} form.tk-action input[name='title']")


def state(browser, row):
    """The row's title, its field's text, whether the field has the focus and where its caret is,
    and the row's note."""
    return browser.execute_script("""
        const row = document.getElementById('row-' + arguments[0]);
        const field = row?.querySelector('form.tk-action input[name="title"]');
        return {title: row?.querySelector('.tk-title')?.textContent, typed: field?.value,
                focused: field !== undefined && document.activeElement === field, caret: field?.selectionStart,
                note: row?.querySelector('.tk-changed-elsewhere')?.innerText ?? null,
                marked: row?.dataset.changedElsewhere === 'true'};""", row)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_a_patch_waits_while_a_person_types_in_the_row(site, browser, size):
    base, links, token = site
    row, next_row = ("todo-3", "todo-4") if size == SIZES[0] else ("todo-5", "todo-6")
    set_size(browser, size)
    navigate(browser, lambda: browser.get(links.new()))
    browser.get(base + "/pages/todo")
    assert wait_until(lambda: live(browser), 10)

    field = field_of(browser, row)
    field.click()
    field.send_keys(Keys.END, " before it rains")
    typed = field.get_attribute("value")
    assert typed.endswith(" before it rains")

    # The other client renames the row: the person's text and focus stay, the row says so.
    assert as_other(base, token, f"/pages/todo/rows/{row}/actions/rename", title="Buy an umbrella") == 200
    assert wait_until(lambda: state(browser, row)["marked"], 5), "the row was not marked as changed elsewhere"
    now = state(browser, row)
    assert now["typed"] == typed and now["focused"], f"the rename reset the field or took the focus: {now}"
    assert "Someone else changed this row meanwhile" in now["note"]
    check_step(browser, f"editing-1-changed-elsewhere-{row}", size)

    # The other client moves the row below its neighbour: it moves with the focus and caret kept.
    caret = state(browser, row)["caret"]
    assert as_other(base, token, f"/pages/todo/rows/{row}/move", section="todos", after=next_row) == 200
    order = lambda: browser.execute_script(
        "return [...document.querySelectorAll('[data-section=\"todos\"] .tk-row')].map((r) => r.dataset.row)")
    assert wait_until(lambda: order().index(row) == order().index(next_row) + 1, 5), order()
    now = state(browser, row)
    assert now["typed"] == typed and now["focused"] and now["caret"] == caret, f"the move lost the edit: {now}"

    # Sending the form writes the person's text; the row then shows it, unmarked, focus in the row.
    field_of(browser, row).send_keys(Keys.ENTER)
    assert wait_until(lambda: state(browser, row)["title"] == typed, 5), state(browser, row)
    now = state(browser, row)
    assert not now["marked"] and now["note"] is None
    assert browser.execute_script("return document.getElementById('row-' + arguments[0]).contains(document.activeElement)", row)
    check_step(browser, f"editing-2-saved-{row}", size)

    # Typing again, then taking the other's version: the typed text goes, theirs shows.
    field = field_of(browser, row)
    field.click()
    field.send_keys(" (draft)")
    assert as_other(base, token, f"/pages/todo/rows/{row}/actions/rename", title="Buy boots") == 200
    assert wait_until(lambda: state(browser, row)["marked"], 5)
    browser.find_element(By.CSS_SELECTOR, f"#row-{row} .tk-changed-elsewhere button").click()
    assert wait_until(lambda: state(browser, row)["title"] == "Buy boots", 5)
    now = state(browser, row)
    assert now["typed"] == "Buy boots" and not now["marked"], now


def test_a_row_deleted_under_the_focus_gives_it_to_its_neighbour(site, browser):
    base, links, token = site
    set_size(browser, SIZES[0])
    navigate(browser, lambda: browser.get(links.new()))
    browser.get(base + "/pages/todo")
    assert wait_until(lambda: live(browser), 10)
    browser.find_element(By.CSS_SELECTOR, "#row-todo-7 form.tk-select button").send_keys("")  # focus it
    assert browser.execute_script("return document.getElementById('row-todo-7').contains(document.activeElement)")
    status, _ = post(base + "/pages/todo/rows/todo-7", "_method=DELETE", "application/x-www-form-urlencoded",
                     {"Authorization": f"Bearer {token}"})
    assert status in (200, 204), status
    assert wait_until(lambda: browser.execute_script("return document.getElementById('row-todo-7') === null"), 5)
    focused_row = browser.execute_script("return document.activeElement.closest('.tk-row')?.dataset.row ?? null")
    assert focused_row == "todo-8", f"the focus went to {focused_row!r}, not the next row"
