"""The end of a big table (issue 32), in Chromium with JavaScript on, at a laptop's and a phone's
width: a person drags the scrollbar of a 200,000-row table to its end and sees the last row, not
rows some thirty before it (a phone stacks each row's columns, so rows are taller than the
placeholders' estimate, and the rows loaded where the viewport's top fell used to end below it)."""
import sqlite3

import pytest

from conftest import wait_until
from journey import SIZE_IDS, SIZES, check_step, live, navigate, read_only_database_site, set_size

ROWS = 200_000


def make_big(path):
    with sqlite3.connect(path) as db:
        db.executescript(f"""
            CREATE TABLE orders (id INTEGER PRIMARY KEY, customer TEXT NOT NULL, total REAL NOT NULL);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {ROWS})
            INSERT INTO orders SELECT i, 'Customer ' || (i % 997), (i * 7919) % 50000 / 100.0 FROM n;
        """)


@pytest.fixture(scope="module")
def big(tmp_path_factory):
    yield from read_only_database_site(tmp_path_factory, "journey-scroll-end", make_big)


LAST_ROW_ON_SCREEN = """
    const row = document.querySelector(".tk-row[data-kind='record'][data-row='%d']");
    if (!row) return false;
    const box = row.getBoundingClientRect();
    return box.top >= 0 && box.bottom <= innerHeight + 1;""" % ROWS


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_a_scrollbar_dragged_to_the_end_shows_the_last_row(big, browser, size):
    base, _, _ = big
    set_size(browser, size)
    navigate(browser, lambda: browser.get(base + "/pages/orders"))
    assert wait_until(lambda: live(browser), 10)
    # The drag: the scroll position goes to the end in steps, as a dragged scrollbar sends it.
    browser.execute_script("""
        const end = document.documentElement.scrollHeight - innerHeight;
        for (let step = 1; step <= 10; step++) window.scrollTo(0, end * step / 10);""")
    assert wait_until(lambda: browser.execute_script(LAST_ROW_ON_SCREEN), 10), "the last row is not on screen"
    check_step(browser, "scroll-end", size)
