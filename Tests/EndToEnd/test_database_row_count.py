"""A section's `rowCount` means one thing on every response (docs/operations.md "URLs", /openapi.json): the rows
from the response's first row to the end of the section. On the page that is the whole section; on
a section URL with `after`, or the page's URL with `_next`, the rows from that position on; exact
while at most 10,000 rows follow, an estimate from the key range beyond (exact without key gaps)."""
import json
import sqlite3
import urllib.request

import pytest

from conftest import start_server, stop_server

ROWS = 30_000
GAPPY = 12_000  # every third id: positions with more than 10,000 rows after them are estimated


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    directory = tmp_path_factory.mktemp("rowcount")
    path = str(directory / "data.sqlite")
    with sqlite3.connect(path) as db:
        db.executescript(f"""
            CREATE TABLE items (id INTEGER PRIMARY KEY, category TEXT);
            WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < {ROWS})
            INSERT INTO items SELECT x, 'c' || (x % 3) FROM n;
            CREATE TABLE gappy (id INTEGER PRIMARY KEY, t TEXT);
            WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < {GAPPY})
            INSERT INTO gappy SELECT 3 * x, 't' FROM n;
        """)
    process, base = start_server(directory, "--database", path)
    yield base, path
    stop_server(process)


def section(base, path):
    request = urllib.request.Request(base + path, headers={"Accept": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        document = json.loads(response.read())
    return document["sections"][0] if "sections" in document else document


def rows_from(path, table, first_id, where=""):
    with sqlite3.connect(path) as db:
        return db.execute(f"SELECT count(*) FROM {table} WHERE id >= ? {where}", (first_id,)).fetchone()[0]


def test_the_page_says_the_whole_section(site):
    base, _ = site
    assert section(base, "/pages/items.json?limit=5")["rowCount"] == ROWS


@pytest.mark.parametrize("after", [0, 1, 4_999, 15_000, 19_990, 20_001, 29_990, 29_999])
def test_a_section_after_a_row_says_the_rows_from_its_first_row_on(site, after):
    base, path = site
    paged = section(base, f"/pages/items/sections/all.json?after={after}&limit=7")
    first = int(paged["rows"][0]["id"]) if paged["rows"] else ROWS + 1
    assert paged["rowCount"] == rows_from(path, "items", first) == ROWS - after
    # The page's own URL with Datasette's `_next` answers the same.
    assert section(base, f"/pages/items.json?_next={after}&_size=7")["rowCount"] == paged["rowCount"]


def test_every_page_of_a_walk_agrees_with_the_first(site):
    """Following `next` links, each page's rowCount is the previous one's less the rows it carried."""
    base, _ = site
    page = section(base, "/pages/items.json?category=c1&limit=1000")
    expected = ROWS // 3
    assert page["rowCount"] == expected
    while page.get("next"):
        expected -= len(page["rows"])
        page = section(base, page["next"] + "&format=json" if "?" in page["next"] else page["next"])
        assert page["rowCount"] == expected
    assert expected == len(page["rows"])


@pytest.mark.parametrize("after", [3, 300, 6_000, 24_000, 35_997])
def test_deep_positions_with_key_gaps_are_close_and_exact_near_the_end(site, after):
    base, path = site
    paged = section(base, f"/pages/gappy/sections/all.json?after={after}&limit=5")
    actual = rows_from(path, "gappy", after + 1)
    if actual <= 10_000:
        assert paged["rowCount"] == actual
    else:
        assert abs(paged["rowCount"] - actual) <= actual * 0.01, (paged["rowCount"], actual)
