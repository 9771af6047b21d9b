"""What the journey tests (`test_journeys_*.py`) share: the two screen sizes a person uses, a browser
set to one of them, navigation that waits for the next document, the checks every step makes (no
sideways scrolling of the page, the bar's items on screen, no console error) and a screenshot of
each step under /tmp/tablepages-journeys (or $JOURNEY_SHOTS), to look at: a test cannot judge that a page
looks right."""
import importlib.util
import os
import re

import pytest
from conftest import SignInLinks, console_errors, start_server, stop_server, wait_until
from selenium.webdriver.common.by import By

# A laptop and a phone (an iPhone 12–15's CSS viewport).
SIZES = [(1280, 900), (390, 844)]
SIZE_IDS = ["desktop", "phone"]
SHOTS = os.environ.get("JOURNEY_SHOTS", "/tmp/tablepages-journeys")

# Located, not imported: the package's Python side wants Playwright, which these tests do not use.
_AXE_PACKAGE = importlib.util.find_spec("axe_playwright_python")
AXE = os.path.join(os.path.dirname(_AXE_PACKAGE.origin), "axe.min.js") if _AXE_PACKAGE else None


@pytest.fixture(scope="module")
def examples_site(tmp_path_factory):
    """The example pages as `tablepages serve` offers them (anonymous clients read, signed-in ones
    write), one server per test file; yields (base URL, `SignInLinks` that make its sign-in links:
    each signs in once)."""
    directory = tmp_path_factory.mktemp("journey")
    process, base = start_server(directory, anonymous_writes=False)
    yield base, SignInLinks(directory)
    stop_server(process)


def read_only_database_site(tmp_path_factory, name, make, *arguments):
    """A server of one SQLite file that `make(path)` fills, read-only (no `--writable`, no
    examples) so that nothing can be changed through the web, with `arguments` besides; yields
    (base URL, path, directory)."""
    directory = tmp_path_factory.mktemp(name)
    database = directory / "shop.sqlite"
    make(database)
    process, base = start_server(directory, "--database", str(database), *arguments, anonymous_writes=False)
    yield base, database, directory
    stop_server(process)


def open_as(driver, size, sign_in_links=None):
    """Sets the viewport to `size`, and signs in with a new link of `sign_in_links` (`SignInLinks`) when given."""
    set_size(driver, size)
    if sign_in_links:
        link = sign_in_links.new()
        navigate(driver, lambda: driver.get(link))


def set_size(driver, size):
    """Makes the page's viewport `size` (width, height) in CSS pixels; below 600 px it is a phone's,
    which lays a page out at 980 px unless the page carries a viewport meta."""
    width, height = size
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600,
    })


def navigate(driver, action, timeout=10):
    """Runs `action` (a click, a submit, `driver.back`), which loads another document, and waits
    until that document has loaded."""
    old = driver.find_element(By.TAG_NAME, "html")
    action()

    def loaded():
        try:
            old.is_enabled()
            return False
        except Exception:
            return driver.execute_script("return document.readyState") == "complete"

    assert wait_until(loaded, timeout), "no new page loaded"


def shot(driver, name, size):
    """Saves a screenshot of what the person sees now, named by the step and the width."""
    os.makedirs(SHOTS, exist_ok=True)
    driver.save_screenshot(os.path.join(SHOTS, f"{re.sub(r'[^a-z0-9-]+', '-', name.lower())}-{size[0]}.png"))


def overflow(driver, size):
    """How many CSS pixels the page is wider than the screen's `size`: the person would scroll
    sideways. On a phone, a page wider than the screen also makes the browser zoom out (its
    `innerWidth` grows past the screen's), and a page without a viewport meta is laid out 980 px
    wide: both count, not only `scrollWidth` past `innerWidth`."""
    return driver.execute_script(
        "const root = document.documentElement;"
        " return Math.max(root.scrollWidth, root.clientWidth, window.innerWidth) - arguments[0]", size[0])


def bar_items_outside(driver, size):
    """The bar's visible items (site name, layouts, live status, sign-in or sign-out) that are not
    wholly within the screen's width, as their texts."""
    return driver.execute_script("""
        const outside = [];
        for (const item of document.querySelectorAll('.tp-bar > *, .tp-variants > a')) {
          const box = item.getBoundingClientRect();
          if (box.width === 0) continue;
          if (box.left < 0 || box.right > arguments[0] + 0.5) outside.push(item.textContent.trim());
        }
        return outside;""", size[0])


def words_broken_letter_by_letter(driver):
    """Visible texts of two or more letters laid out one letter per line: a box too narrow for
    them. Each text node's letters are measured by a range; a word whose letters sit on as many
    lines as it has letters is reported."""
    return driver.execute_script("""
        const broken = [];
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        const range = document.createRange();
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          for (const match of node.data.matchAll(/[\\p{L}\\p{N}]{3,}/gu)) {
            range.setStart(node, match.index);
            range.setEnd(node, match.index + match[0].length);
            const rects = [...range.getClientRects()].filter((rect) => rect.width > 0);
            const lines = new Set(rects.map((rect) => Math.round(rect.top)));
            if (lines.size >= 3) broken.push(match[0]);
          }
        }
        return broken;""")


def check_step(driver, name, size, expected_error=None, wide_table=False):
    """What every step of a journey must show: a screenshot saved, the page no wider than the
    viewport, the bar's items on screen, no word broken across lines, no console error but the
    one that says `expected_error` (an error page's own status, which Chromium logs). With
    `wide_table`, a database table of more columns than a laptop's screen holds may widen the page
    there (by design: it scrolls sideways under the fixed bar rather than cut its rows); at a
    phone's width its rows are stacked and the page never does."""
    shot(driver, name, size)
    if not (wide_table and size[0] >= 600):
        assert overflow(driver, size) <= 0, f"{name}: the page is {overflow(driver, size)} px wider than the screen at {size[0]} px"
    assert bar_items_outside(driver, size) == [], f"{name}: bar items off screen at {size[0]} px"
    assert words_broken_letter_by_letter(driver) == [], f"{name}: words broken across lines at {size[0]} px: {words_broken_letter_by_letter(driver)}"
    errors = [entry for entry in console_errors(driver) if not (expected_error and expected_error in entry["message"])]
    assert errors == [], f"{name}: console errors: {errors}"


def live(driver):
    """Whether the page's live status says "live": its event stream is open."""
    return driver.execute_script("return document.querySelector('.tp-live')?.dataset.state") == "live"


def serious_violations(browser):
    """axe-core's violations of impact serious or critical on the page shown, as (rule, targets)."""
    assert AXE, "axe-core is missing: pip install --no-deps axe-playwright-python==0.1.8 (make test-deps does)"
    with open(AXE, encoding="utf-8") as file:
        browser.execute_script(file.read() + "; return 1")
    browser.set_script_timeout(60)
    result = browser.execute_async_script("axe.run().then(arguments[0], (error) => arguments[0]({error: String(error)}))")
    assert "error" not in result, result
    return [(violation["id"], [node["target"] for node in violation["nodes"]][:5])
            for violation in result["violations"] if violation["impact"] in ("serious", "critical")]
