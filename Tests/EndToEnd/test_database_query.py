"""Datasette's query parameters on `tablepages serve --database FILE`, through the real server:
every filter operator against sqlite3's own answer, paged with `_size` and the `next` links,
`_next` on the page's URL, `_search`, repeated `_facet`, the 400s for mistakes, and (when
Datasette is installed) the same URLs against Datasette itself."""
import json
import sqlite3
import urllib.error
import urllib.parse
import urllib.request

import pytest

from conftest import start_datasette, start_server, stop_server

ROWS = 300
HOSTILE = 'we=ird&,"q\''


def make_database(path):
    """300 rows with NULLs and repeats, a column without a type holding numbers, digit texts and
    words, a column named like a filter (`a__gt`) next to `a`, one named with URL and SQL
    punctuation, and an FTS5 index of `t` as `sqlite-utils enable-fts` makes it."""
    with sqlite3.connect(path) as db:
        db.executescript(f"""
            CREATE TABLE things (id INTEGER PRIMARY KEY, n INTEGER, r REAL, t TEXT, m, "a__gt" TEXT, a INTEGER,
                                 "{HOSTILE.replace('"', '""')}" TEXT);
            CREATE VIRTUAL TABLE [things_fts] USING FTS5 ([t], content=[things]);
            CREATE TABLE plain (id INTEGER PRIMARY KEY, t TEXT);
        """)
        texts = [None, "", "apple pie", "Apple_tart", "50% off banana", "back\\slash cherry", "ünïcode ÄRGER",
                 "APPLE AND banana", "a,b", "zebra", "12.5"]
        for x in range(1, ROWS + 1):
            m = [x % 5, x % 5 + 0.5, str(x % 5), f"w{x % 3}", None, x % 4][x % 6]
            db.execute("INSERT INTO things VALUES (?, ?, ?, ?, ?, ?, ?, ?)", (
                x, None if x % 7 == 0 else x % 10 - 3, None if x % 9 == 0 else (x % 13) * 0.5, texts[x % 11], m,
                None if x % 5 == 0 else f"v{x % 4}", x % 6, ["a,b", "x=y&z", None][x % 3]))
        db.execute("INSERT INTO things_fts (rowid, t) SELECT id, t FROM things")
        db.execute("INSERT INTO plain (t) VALUES ('apple')")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    directory = tmp_path_factory.mktemp("query")
    path = str(directory / "data.sqlite")
    make_database(path)
    process, base = start_server(directory, "--database", path)
    yield base, path
    stop_server(process)


def get(base, path):
    """(status, parsed JSON) of a JSON request; errors are answers too."""
    request = urllib.request.Request(base + path, headers={"Accept": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def all_ids(base, path):
    """Every row id of the page's one section, following `next` links."""
    status, page = get(base, path)
    assert status == 200, page
    section = page["sections"][0]
    ids = [row["id"] for row in section["rows"]]
    while section.get("next"):
        status, section = get(base, section["next"])
        assert status == 200, section
        ids += [row["id"] for row in section["rows"]]
    return ids


def sqlite_ids(path, sql, arguments=()):
    with sqlite3.connect(path) as db:
        return [str(row[0]) for row in db.execute(sql, arguments)]


def q(name):
    return '"' + name.replace('"', '""') + '"'


# (parameter, value, the same in SQL)
CASES = [
    ("n", "2", "n = 2"),
    ("n__exact", "2", "n = 2"),
    ("n__not", "2", "n <> 2"),
    ("t__contains", "apple", "t LIKE '%apple%'"),
    ("t__contains", "%", "instr(t, '%') > 0"),
    ("t__startswith", "apple_", "t LIKE 'apple\\_%' ESCAPE '\\'"),
    ("t__endswith", "BANANA", "t LIKE '%banana'"),
    ("r__gt", "2.5", "r > 2.5"),
    ("r__gte", "2.5", "r >= 2.5"),
    ("n__lt", "0", "n < 0"),
    ("n__lte", "0", "n <= 0"),
    ("m__gt", "2", "m > 2"),
    ("m__lte", "1.5", "m <= 1.5"),
    ("n__in", "1,2,-1", "n IN (1, 2, -1)"),
    ("t__in", '["a,b","zebra"]', "t IN ('a,b', 'zebra')"),
    ("n__notin", "1,2", "n NOT IN (1, 2)"),
    ("t__isnull", "1", "t IS NULL"),
    ("m__notnull", "", "m IS NOT NULL"),
    ("a__gt", "3", "a > 3"),
    ("a__gt__exact", "v2", '"a__gt" = \'v2\''),
    (HOSTILE, "x=y&z", q(HOSTILE) + " = 'x=y&z'"),
    (HOSTILE + "__isnull", "1", q(HOSTILE) + " IS NULL"),
]


@pytest.mark.parametrize("parameter,value,where", CASES)
def test_each_filter_pages_to_sqlites_answer(site, parameter, value, where):
    base, path = site
    query = urllib.parse.urlencode([(parameter, value), ("_sort_desc", "n"), ("_size", "13")])
    expected = sqlite_ids(path, f"SELECT id FROM things WHERE {where} ORDER BY n DESC, id DESC")
    assert expected, "the case should pick some rows"
    assert all_ids(base, "/pages/things.json?" + query) == expected


def test_next_and_size_on_the_page_answer_like_the_section(site):
    base, _ = site
    status, by_page = get(base, "/pages/things.json?_next=40&_size=5&n__gt=0")
    assert status == 200
    status, by_section = get(base, "/pages/things/sections/all.json?after=40&limit=5&n__gt=0")
    assert status == 200
    assert by_page == by_section
    assert [row["id"] for row in by_page["rows"]] == ["44", "45", "46", "47", "48"]
    status, sized = get(base, "/pages/things.json?_size=7")
    assert len(sized["sections"][0]["rows"]) == 7


def test_search_finds_the_fts_matches(site):
    base, path = site
    expected = sqlite_ids(path, "SELECT rowid FROM things_fts WHERE things_fts MATCH ? ORDER BY rowid", ('"apple"',))
    assert all_ids(base, "/pages/things.json?_search=apple&_size=10") == expected
    # Escaped by default: FTS syntax in the words is text, never an error.
    status, _ = get(base, "/pages/things.json?" + urllib.parse.urlencode({"_search": 'apple AND "( *'}))
    assert status == 200
    raw = sqlite_ids(path, "SELECT rowid FROM things_fts WHERE things_fts MATCH 'apple OR zebra' ORDER BY rowid")
    assert all_ids(base, "/pages/things.json?_search=apple%20OR%20zebra&_searchmode=raw") == raw


def test_repeated_facets_and_equal_spellings_share_a_variant(site):
    base, _ = site
    status, datasette = get(base, "/pages/things.json?_facet=n&_facet=t&a__exact=2&_sort=r&_size=4")
    assert status == 200
    status, ours = get(base, "/pages/things.json?_facets=n,t&a=2&sort=r&limit=4")
    assert datasette == ours
    assert "_facets=n%2Ct" in datasette["sections"][0]["next"]


@pytest.mark.parametrize("query,message", [
    ("nope=1", "\u201cnope\u201d is not a column"),
    ("n__regex=1", "\u201cregex\u201d in \u201cn__regex\u201d is not a filter operator"),
    ("_sort=n&_sort_desc=n", "sort parameters disagree"),
    ("_sort=nope", "\u201cnope\u201d is not a column"),
    ("_facet=nope", "cannot be used for a facet"),
    ("n__in=" + ",".join(map(str, range(101))), "at most 100"),
    ("_search=apple%20AND&_searchmode=raw", "is not a valid FTS5 query"),
    ("_where=1", "_where is not supported"),
    ("limit=5&_size=6", "limit and _size"),
    ("_size=0", "_size must be a whole number"),
    ("group=a&_next=3", "page one section"),
])
def test_mistakes_are_400s_that_say_what_is_wrong(site, query, message):
    base, _ = site
    status, body = get(base, "/pages/things.json?" + query)
    assert status == 400, body
    assert message in body["error"]["message"]


def test_search_without_an_index_is_a_400(site):
    base, _ = site
    status, body = get(base, "/pages/plain.json?_search=apple")
    assert status == 400
    assert "has no full-text index" in body["error"]["message"]


# Where both mean the same (typed columns, values without LIKE wildcards): Datasette's own answer.
DATASETTE_CASES = ["n__exact=2", "n__not=2", "t__contains=apple", "t__startswith=APPLE", "t__endswith=banana",
                   "r__gt=2.5", "r__gte=2.5", "n__lt=0", "n__lte=0", "n__in=1,2,-1", "n__notin=1,2", "t__isnull=1",
                   "m__notnull=1", "a__gt=3", "_search=apple", "_search=banana%20cherry", "_sort_desc=r&n__gt=0",
                   "_sort=t&a=2"]


@pytest.fixture(scope="module")
def datasette(site):
    _, path = site
    process, base = start_datasette(path)
    yield base
    process.terminate()
    process.wait(timeout=10)


@pytest.mark.parametrize("query", DATASETTE_CASES)
def test_datasette_answers_the_same_urls_alike(site, datasette, query):
    base, path = site
    with urllib.request.urlopen(f"{datasette}/data/things.json?_shape=array&_size=max&{query}", timeout=30) as response:
        theirs = [str(row["id"]) for row in json.loads(response.read())]
    ours = all_ids(base, "/pages/things.json?_size=1000&" + query)
    assert sorted(ours, key=int) == sorted(theirs, key=int)
    sort = dict(urllib.parse.parse_qsl(query)).get("_sort") or dict(urllib.parse.parse_qsl(query)).get("_sort_desc")
    if sort:
        # The same order of values; ties differ: Datasette breaks them by ascending key, these
        # pages by the key in the sort's direction (so keyset paging runs one way).
        value = dict(sqlite_ids_with(path, f"SELECT id, {q(sort)} FROM things"))
        assert [value[i] for i in ours] == [value[i] for i in theirs]


def sqlite_ids_with(path, sql):
    with sqlite3.connect(path) as db:
        return [(str(row[0]), row[1]) for row in db.execute(sql)]


@pytest.mark.parametrize("search", ["NOT", "apple AND", '"(', "things_fts:apple", "*"])
def test_a_raw_search_sqlite_refuses_is_a_400_at_datasettes_url_too(site, search):
    """Datasette's table URL reads with the page's own search: a malformed FTS5 query is the
    client's mistake there too (it was a 500), answered in Datasette's words (SQLite's message,
    titled "Invalid SQL")."""
    base, _ = site
    status, body = get(base, "/data/things.json?" + urllib.parse.urlencode({"_search": search, "_searchmode": "raw"}))
    assert status in (200, 400), (search, status, body)
    if search in ("NOT", "apple AND"):
        assert status == 400 and body["title"] == "Invalid SQL" and body["error"].startswith("fts5: syntax error"), body
