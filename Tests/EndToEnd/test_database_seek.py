"""`_at=N`: a page of a section's rows from position N (0 is the first row), over plain HTTP, on
SQLite and on PostgreSQL (`--database postgresql://…`): the rows are the database's own
`LIMIT … OFFSET N` in the page's order, with filters and sorts; past the end a page is empty; a
value that is no position is a 400 that says so, never a 500."""
import json
import sqlite3
import urllib.parse

import pytest

from conftest import psql, start_server, stop_server
from test_database_query import get
from test_postgres_tables import drop_database, fresh_database

ROWS = 2000


def make_sqlite(path):
    with sqlite3.connect(path) as db:
        db.executescript(f"""
            CREATE TABLE items (id INTEGER PRIMARY KEY, kind TEXT, size INTEGER);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {ROWS})
            INSERT INTO items SELECT 3 * i, 'kind-' || (i % 5), CASE WHEN i % 11 = 0 THEN NULL ELSE (i * 37) % 100 END FROM n;
        """)


POSTGRES_SQL = f"""
    CREATE TABLE items (id integer PRIMARY KEY, kind text, size integer);
    INSERT INTO items SELECT 3 * i, 'kind-' || (i % 5), CASE WHEN i % 11 = 0 THEN NULL ELSE (i * 37) % 100 END
    FROM generate_series(1, {ROWS}) AS i;
"""


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def site(request, tmp_path_factory):
    """(base URL, a function running SQL on the served database and returning its rows as text)."""
    directory = tmp_path_factory.mktemp("seek")
    if request.param == "sqlite":
        database = directory / "items.sqlite"
        make_sqlite(database)

        def query(sql):
            with sqlite3.connect(database) as db:
                return [[None if value is None else str(value) for value in row] for row in db.execute(sql)]
        process, base = start_server(directory, "--database", str(database))
        yield base, query, "NULLS FIRST", "NULLS LAST"
        stop_server(process)
    else:
        cluster = request.getfixturevalue("postgres_cluster")
        url = fresh_database(cluster, "pg_seek")
        psql(url, POSTGRES_SQL)

        def query(sql):
            lines = [line for line in psql(url, sql).splitlines() if line]
            return [[None if value == "" else value for value in line.split("|")] for line in lines]
        process, base = start_server(directory, "--database", url)
        yield base, query, "NULLS FIRST", "NULLS LAST"
        stop_server(process)
        drop_database(cluster, "pg_seek")


def shown(section):
    return [[str(row["fields"]["id"]), row["fields"]["kind"], None if row["fields"]["size"] is None else str(row["fields"]["size"])]
            for row in section["rows"]]


# (query, WHERE, ORDER BY with SQLite's NULL order spelled out)
ORDERS = [
    ("", "", "id"),
    ("_sort_desc=id", "", "id DESC"),
    ("_sort=size", "", "size {first}, id"),
    ("_sort_desc=size", "", "size DESC {last}, id DESC"),
    ("kind=kind-3&_sort=size", "WHERE kind = 'kind-3'", "size {first}, id"),
    ("size__gt=40", "WHERE size > 40", "id"),
]


@pytest.mark.parametrize("query, where, order", ORDERS)
@pytest.mark.parametrize("at", [0, 1, 57, 999, 1401])
def test_rows_from_a_position_are_the_databases_rows_at_that_offset(site, query, where, order, at):
    base, sql, first, last = site
    order = order.format(first=first, last=last)
    expected = sql(f"SELECT id, kind, size FROM items {where} ORDER BY {order} LIMIT 25 OFFSET {at}")
    status, section = get(base, f"/pages/items/sections/all.json?{query}{'&' if query else ''}_at={at}&limit=25")
    assert status == 200, section
    assert shown(section) == expected
    # The next link goes on from there by keyset, to the database's next rows.
    if expected and len(expected) == 25:
        status, following = get(base, section["next"])
        assert status == 200
        assert shown(following) == sql(f"SELECT id, kind, size FROM items {where} ORDER BY {order} LIMIT 25 OFFSET {at + 25}")
    # The page's own URL pages its only section the same way.
    status, same = get(base, f"/pages/items.json?{query}{'&' if query else ''}_at={at}&limit=25")
    assert status == 200 and shown(same) == expected


def test_past_the_end_is_an_empty_page_and_the_last_row_is_a_page_of_one(site):
    base, sql, _, _ = site
    last = sql("SELECT id, kind, size FROM items ORDER BY id DESC LIMIT 1")
    status, section = get(base, f"/pages/items/sections/all.json?_at={ROWS - 1}")
    assert status == 200 and shown(section) == last and section["next"] is None
    for at in (ROWS, ROWS + 1, 999_999_999_999):
        status, section = get(base, f"/pages/items/sections/all.json?_at={at}")
        assert status == 200 and section["rows"] == [] and section["next"] is None


@pytest.mark.parametrize("value", ["-1", "abc", "1e3", "1.5", " 5", "+5", "", "0x10", "1000000000000", "9" * 40, "５"])
def test_a_value_that_is_no_position_is_a_400_that_says_so(site, value):
    base, _, _, _ = site
    for path in ("/pages/items/sections/all.json", "/pages/items.json"):
        status, answer = get(base, path + "?" + urllib.parse.urlencode({"_at": value}))
        assert status == 400, (value, answer)
        assert "_at must be a whole number" in answer["error"]["message"]


def test_a_position_and_a_row_to_follow_together_are_a_400(site):
    base, _, _, _ = site
    status, answer = get(base, "/pages/items/sections/all.json?_at=5&after=3")
    assert status == 400 and "give one" in answer["error"]["message"]
    status, answer = get(base, "/pages/items.json?_at=5&_next=3")
    assert status == 400
    # A grouped page has several sections: the page's URL cannot say which.
    status, answer = get(base, "/pages/items.json?_at=5&group=kind")
    assert status == 400


def test_a_section_of_a_grouped_page_starts_at_a_position_too(site):
    base, sql, _, _ = site
    status, page = get(base, "/pages/items.json?group=kind&limit=3")
    assert status == 200
    section = page["sections"][2]
    kind = section["rows"][0]["fields"]["kind"]
    link = urllib.parse.urlsplit(section["next"])
    query = [(name, value) for name, value in urllib.parse.parse_qsl(link.query) if name != "after"] + [("_at", "40")]
    status, seeked = get(base, link.path + "?" + urllib.parse.urlencode(query))
    assert status == 200, seeked
    assert shown(seeked) == sql(f"SELECT id, kind, size FROM items WHERE kind = '{kind}' ORDER BY id LIMIT 3 OFFSET 40")
