"""A person on a phone (390 × 844, signed in) changing the to-do list with a finger: every
control of a row (Delete, the rename field, Rename, Move up, Move down) is a target at least
44 px each way, with at least 8 px between neighbours on a line, and the page does not scroll
sideways; at a laptop's width the row keeps its compact controls. A screenshot of each."""
import pytest
from selenium.webdriver.common.by import By

from conftest import wait_until
from journey import check_step, examples_site, live, navigate, set_size  # noqa: F401 (a fixture)

# Each visible control of each row's edit area: its box, and its row.
CONTROLS = """
return [...document.querySelectorAll('.tk-row .tk-edit')].flatMap((edit, row) =>
  [...edit.querySelectorAll('button, input[type=text]')].map((control) => {
    const box = control.getBoundingClientRect();
    return {row, label: control.getAttribute('aria-label') || control.textContent || control.name,
            left: box.left, right: box.right, top: box.top, bottom: box.bottom, width: box.width, height: box.height};
  }));
"""


def test_row_controls_are_finger_sized_and_apart_on_a_phone(examples_site, browser):
    base, link = examples_site
    set_size(browser, (390, 844))
    navigate(browser, lambda: browser.get(link.new()))
    navigate(browser, lambda: browser.get(base + "/pages/todo"))
    assert wait_until(lambda: live(browser), 10)
    controls = browser.execute_script(CONTROLS)
    assert len(controls) >= 10
    small = [(c["label"], round(c["width"]), round(c["height"])) for c in controls if c["width"] < 44 or c["height"] < 44]
    assert small == [], f"targets under 44 px: {small}"
    cramped = []
    for a in controls:
        for b in controls:
            same_line = a["row"] == b["row"] and a["top"] < b["bottom"] and b["top"] < a["bottom"]
            if same_line and a["right"] <= b["left"] and b["left"] - a["right"] < 8:
                cramped.append((a["label"], b["label"], round(b["left"] - a["right"], 1)))
    assert cramped == [], f"controls closer than 8 px: {cramped[:5]}"
    check_step(browser, "targets-phone", (390, 844))
