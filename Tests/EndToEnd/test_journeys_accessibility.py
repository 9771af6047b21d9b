"""A person who uses assistive technology or only a keyboard, in Chromium with JavaScript on, at a
laptop's and a phone's width. axe-core (4.12, the `axe.min.js` of PyPI's `axe-playwright-python` 0.1.8, which `make test-deps` installs) finds no serious or
critical violation on the index, every example page and layout, a database table page and a row's
page, signed in and out. A database page's rows and cells are a table to assistive technology
(computed roles `table`, `row`, `cell`, `columnheader`, as a screen reader gets them). The first
Tab reaches "Skip to the table", which leads past the bar; from there Tab goes from row to row (one
tab stop per row) and the arrow keys reach a row's other controls."""
import sqlite3
import urllib.parse

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import SignInLinks, start_server, stop_server, wait_until
from journey import SIZE_IDS, SIZES, live, navigate, open_as, serious_violations, set_size, shot



@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The examples and a writable database of orders on one server (anonymous clients read,
    signed-in ones write); yields (base URL, `SignInLinks` for its sign-in links, the database's path)."""
    directory = tmp_path_factory.mktemp("journey-accessibility")
    database = directory / "shop.sqlite"
    with sqlite3.connect(database) as db:
        db.execute("CREATE TABLE orders (id INTEGER PRIMARY KEY, customer TEXT NOT NULL, total REAL, notes TEXT)")
        db.executemany("INSERT INTO orders VALUES (?, ?, ?, ?)",
                       [(n, f"Customer {n}", n * 1.25, "gift wrap" if n % 3 else None) for n in range(1, 41)])
    process, base = start_server(directory, "--database", str(database), "--writable", "--examples", anonymous_writes=False)
    yield base, SignInLinks(directory), database
    stop_server(process)



def pages_to_check(browser, base):
    """The index, every page it lists and each of their layouts, a row's own page and the
    database table."""
    browser.get(base + "/")
    pages = [link.get_attribute("href") for link in browser.find_elements(By.CSS_SELECTOR, ".tp-pages a")]
    assert base + "/pages/orders" in pages and base + "/pages/todo" in pages
    urls = [base + "/"]
    for page in pages:
        urls.append(page)
        browser.get(page)
        urls += [link.get_attribute("href") for link in browser.find_elements(By.CSS_SELECTOR, ".tp-variants a:not([aria-current])")]
    return urls + [base + "/pages/orders/rows/1", base + "/pages/checklist/rows/item-1"]


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
@pytest.mark.parametrize("signed_in", [False, True], ids=["signed-out", "signed-in"])
def test_axe_finds_no_serious_violation_on_any_page(site, browser, size, signed_in):
    base, link, _ = site
    open_as(browser, size, link if signed_in else None)
    found = {}
    for url in pages_to_check(browser, base):
        navigate(browser, lambda: browser.get(url))
        if browser.find_elements(By.CSS_SELECTOR, ".tp-live"):
            assert wait_until(lambda: live(browser), 10), f"{url} did not go live"
        name = urllib.parse.urlsplit(url).path.strip("/").replace("/", "-") or "index"
        shot(browser, f"a11y-{'in' if signed_in else 'out'}-{name}-{urllib.parse.urlsplit(url).query}", size)
        violations = serious_violations(browser)
        if violations:
            found[url] = violations
    assert found == {}, f"axe-core found serious or critical violations: {found}"


def roles(browser, selector):
    """The computed ARIA roles (as Chromium gives them to assistive technology) of the elements
    `selector` matches."""
    return [element.aria_role for element in browser.find_elements(By.CSS_SELECTOR, selector)]


def accessibility_tables(browser):
    """The tables of the page as Chromium's accessibility tree gives them to a screen reader (CDP
    `Accessibility.getFullAXTree`): for each, its rows, each a list of (role, name) of its cells.
    Nodes a screen reader skips (ignored, `none`, `generic`) are looked through."""
    nodes = {node["nodeId"]: node for node in browser.execute_cdp_cmd("Accessibility.getFullAXTree", {})["nodes"]}
    role = lambda node: node.get("role", {}).get("value", "")
    name = lambda node: node.get("name", {}).get("value", "")

    def children(node):
        for child_id in node.get("childIds", []):
            child = nodes.get(child_id)
            if child is None:
                continue
            if child.get("ignored") or role(child) in ("none", "generic", "presentation", "rowgroup"):
                yield from children(child)
            else:
                yield child

    tables = []
    for node in nodes.values():
        if role(node) == "table" and not node.get("ignored"):
            rows = [child for child in children(node) if role(child) == "row"]
            tables.append([[(role(cell), name(cell).strip()) for cell in children(row)] for row in rows])
    return tables


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_a_database_page_is_a_table_of_rows_and_cells(site, browser, size):
    base, _, _ = site
    set_size(browser, size)
    browser.get(base + "/pages/orders")
    assert wait_until(lambda: live(browser), 10)
    rows = browser.find_elements(By.CSS_SELECTOR, ".tk-section .tk-row")
    assert len(rows) == 40
    assert set(roles(browser, ".tk-section .tk-row")) == {"row"}, "a record row is not a row to assistive technology"
    assert set(roles(browser, ".tk-section .tk-rows")) == {"table"}
    # Every row holds one cell per column, and only those (at the phone's width too, where each
    # row's values are stacked).
    for row in rows[:5]:
        cells = row.find_elements(By.CSS_SELECTOR, "[role='cell']")
        assert [cell.get_attribute("data-field") for cell in cells] == ["id", "customer", "total", "notes"], row.get_attribute("outerHTML")[:300]
        assert {cell.aria_role for cell in cells} == {"cell"}
    assert set(roles(browser, ".tk-db-column")) == {"columnheader"}
    assert len(roles(browser, ".tk-db-column")) == 4

    # What a screen reader gets: one table whose first row is the column headers and whose other
    # rows are one cell per column, each cell's text its value; no cell inside a cell.
    tables = [table for table in accessibility_tables(browser) if len(table) > 1]
    assert len(tables) == 1, tables
    [table] = tables
    assert [cell for cell in table[0]] == [("columnheader", name) for name in ("id", "customer", "total", "notes")], table[0]
    assert len(table) == 41
    with sqlite3.connect(site[2]) as db:
        expected = [[str(value) if value is not None else "NULL" for value in row] for row in db.execute("SELECT id, customer, total, notes FROM orders ORDER BY id")]
    for row, values in zip(table[1:], expected):
        assert [role for role, _ in row] == ["cell"] * 4, row
        # A cell's name is its column's name (for a reader without the page script's header row) and its value.
        assert [text.split(" ", 1)[1] if " " in text else text for _, text in row] == values, row
    shot(browser, "accessibility-table", size)


def focused(browser):
    """What has the keyboard focus: (its row's id or None, its text or label)."""
    return browser.execute_script("""
        const element = document.activeElement;
        return [element.closest('.tk-row')?.dataset.row ?? null,
                element.getAttribute('aria-label') || element.textContent.trim() || element.name || element.tagName];""")


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_a_keyboard_skips_the_bar_and_tabs_from_row_to_row(site, browser, size):
    base, link, _ = site
    open_as(browser, size, link)
    browser.get(base + "/pages/todo")
    assert wait_until(lambda: live(browser), 10)
    keys = ActionChains(browser)

    # The first Tab reaches the skip link; following it, the next Tab is in the table.
    keys.send_keys(Keys.TAB).perform()
    assert focused(browser) == [None, "Skip to the table"]
    shot(browser, "a11y-keyboard-skip-link", size)
    keys.send_keys(Keys.ENTER).perform()
    assert wait_until(lambda: browser.execute_script("return location.hash") == "#table", 5)
    ActionChains(browser).send_keys(Keys.TAB).perform()
    assert browser.execute_script("return document.getElementById('table').contains(document.activeElement)")

    # One tab stop per row: from a to-do's select button, Tab goes to the next to-do.
    todos = browser.execute_script(
        "return [...document.querySelectorAll('[data-section=\"todos\"] .tk-row')].map((row) => row.dataset.row)")
    assert len(todos) >= 4
    browser.execute_script("document.getElementById(arguments[0]).querySelector('.tk-select button').focus()", "row-" + todos[0])
    assert focused(browser)[0] == todos[0]
    ActionChains(browser).send_keys(Keys.TAB).perform()
    assert focused(browser)[0] == todos[1], "Tab stayed in the row"
    ActionChains(browser).send_keys(Keys.TAB).perform()
    assert focused(browser)[0] == todos[2]
    ActionChains(browser).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()
    assert focused(browser)[0] == todos[1]

    # The arrow keys reach the row's other controls, and the rows above and below.
    first = focused(browser)
    ActionChains(browser).send_keys(Keys.ARROW_RIGHT).perform()
    second = focused(browser)
    assert second[0] == todos[1] and second[1] != first[1], "the right arrow did not reach the row's next control"
    ActionChains(browser).send_keys(Keys.ARROW_DOWN).perform()
    assert focused(browser)[0] == todos[2]
    ActionChains(browser).send_keys(Keys.ARROW_UP).perform()
    assert focused(browser) == second
    ActionChains(browser).send_keys(Keys.ARROW_LEFT).perform()
    assert focused(browser) == first
    shot(browser, "a11y-keyboard-row", size)
    # The control last reached is the row's tab stop now: Tab from the row above lands on it.
    ActionChains(browser).send_keys(Keys.ARROW_RIGHT).perform()
    browser.execute_script("document.getElementById(arguments[0]).querySelector('.tk-select button').focus()", "row-" + todos[0])
    ActionChains(browser).send_keys(Keys.TAB).perform()
    assert focused(browser) == second
