"""Datasette's JSON API at Datasette's URLs: TablePages and Datasette 0.65.5 (from PyPI) serve the
same generated file (datasette_corpus.py) and must answer every table alike — each `_shape`,
`_col`/`_nocol`, `_size=max`, filters, sorts, every page by `next_url` to the end, and each row's
JSON — with 0 rows different.

The keys that differ on purpose are listed in IGNORED_KEYS, and docs/operations.md's "Datasette's JSON API"
says why; nothing else may differ."""
import json
import os
import socket
import sqlite3
import urllib.error
import urllib.parse
import urllib.request

import pytest

from conftest import start_datasette, start_server, stop_server
from datasette_corpus import build

DATASETTE_VERSION = "0.65.5"

# Keys of the table document that differ on purpose (docs/operations.md, "Datasette's JSON API"):
# `query` is each server's own SQL, `query_ms` a timing, and `suggested_facets` holds each server's
# own host in its links (test_datasette_facets.py compares them without it).
IGNORED_KEYS = {"query", "query_ms", "suggested_facets"}


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def servers(tmp_path_factory):
    try:
        import datasette
    except ImportError:
        pytest.fail(f"Datasette {DATASETTE_VERSION} is not installed: run `make test-deps`")
    assert datasette.__version__ == DATASETTE_VERSION, \
        f"the comparison is with Datasette {DATASETTE_VERSION}, found {datasette.__version__}: run `make test-deps`"
    directory = tmp_path_factory.mktemp("datasette-api")
    path = str(directory / "corpus.db")
    build(path)
    ours, our_base = start_server(directory, "--database", path)
    theirs, their_base = start_datasette(path)
    yield our_base, their_base, path
    theirs.terminate()
    theirs.wait(timeout=10)
    stop_server(ours)


def fetch(base, path):
    """(status, parsed JSON or None) of a GET."""
    try:
        with urllib.request.urlopen(base + path, timeout=30) as response:
            body = response.read()
            status = response.status
    except urllib.error.HTTPError as error:
        body = error.read()
        status = error.code
    try:
        return status, json.loads(body)
    except ValueError:
        return status, None


def tables(path):
    with sqlite3.connect(path) as db:
        return [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]


def table_path(table, query=""):
    from datasette.utils import tilde_encode
    return f"/corpus/{tilde_encode(table)}.json" + (("?" + query) if query else "")


def comparable(document):
    """The document without what differs on purpose, `next_url` without its host."""
    if not isinstance(document, dict) or "rows" not in document:
        return document
    document = {key: value for key, value in document.items() if key not in IGNORED_KEYS}
    if document.get("next_url"):
        parts = urllib.parse.urlsplit(document["next_url"])
        document["next_url"] = parts.path + "?" + parts.query
    return document


def differences(ours, theirs):
    """Rows that differ (by position), plus 1 for any other difference of the documents."""
    if isinstance(ours, dict) and isinstance(theirs, dict) and "rows" in ours and "rows" in theirs:
        rows = sum(1 for a, b in zip(ours["rows"], theirs["rows"]) if a != b) + abs(len(ours["rows"]) - len(theirs["rows"]))
        rest = {k: v for k, v in ours.items() if k != "rows"} != {k: v for k, v in theirs.items() if k != "rows"}
        return rows + int(rest)
    if isinstance(ours, list) and isinstance(theirs, list):
        return sum(1 for a, b in zip(ours, theirs) if a != b) + abs(len(ours) - len(theirs))
    return int(ours != theirs)


def compare(servers, path):
    our_base, their_base, _ = servers
    our_status, ours = fetch(our_base, path)
    their_status, theirs = fetch(their_base, path)
    assert their_status == 200, (path, theirs)
    assert our_status == 200, (path, ours)
    ours, theirs = comparable(ours), comparable(theirs)
    assert differences(ours, theirs) == 0, (path, ours, theirs)
    return ours, theirs


def walk(servers, path):
    """Every page by `next_url`, compared page by page; the pages' rows."""
    our_base, _, _ = servers
    rows = []
    pages = 0
    while path:
        ours, _ = compare(servers, path)
        rows += ours["rows"]
        pages += 1
        assert pages < 400
        path = ours.get("next_url")
    return rows, pages


def corpus_tables():
    directory = os.environ.get("TMPDIR", "/tmp")
    probe = os.path.join(directory, f"datasette-corpus-names-{os.getpid()}.db")
    if os.path.exists(probe):
        os.remove(probe)
    build(probe)
    names = tables(probe)
    os.remove(probe)
    return names


TABLES = corpus_tables()


@pytest.mark.parametrize("table", TABLES)
@pytest.mark.parametrize("shape", [None, "arrays", "objects", "array", "object"])
def test_every_table_in_every_shape(servers, table, shape):
    query = urllib.parse.urlencode({"_shape": shape}) if shape else ""
    compare(servers, table_path(table, query))
    compare(servers, table_path(table, "&".join(filter(None, [query, "_size=max"]))))


@pytest.mark.parametrize("table", TABLES)
def test_every_page_by_next_url_to_the_end(servers, table):
    _, _, path = servers
    rows, pages = walk(servers, table_path(table, "_size=2&_shape=objects"))
    with sqlite3.connect(path) as db:
        assert len(rows) == db.execute(f'SELECT count(*) FROM "{table.replace(chr(34), chr(34) * 2)}"').fetchone()[0]


@pytest.mark.parametrize("table", TABLES)
def test_each_rows_json(servers, table):
    from datasette.utils import tilde_encode
    our_base, their_base, _ = servers
    status, document = fetch(their_base, table_path(table, "_size=max"))
    assert status == 200
    keys = document["primary_keys"] or ["rowid"]
    columns = document["columns"]
    for row in document["rows"]:
        token = ",".join(tilde_encode(str(row[columns.index(key)])) for key in keys)
        path = f"/corpus/{tilde_encode(table)}/{token}.json"
        compare(servers, path)


@pytest.mark.parametrize("shape", [None, "arrays", "objects", "array", "object"])
def test_labels_on_expand_foreign_keys_as_datasette_does(servers, shape):
    # customer 3's name is NULL, tally has no label column, colour's label is found by the
    # id + one column rule, currency has a text key, and some keys refer to no row.
    query = "&".join(filter(None, ["_labels=on", f"_shape={shape}" if shape else ""]))
    ours, _ = compare(servers, table_path("purchase", query + "&_size=max"))
    if shape in (None, "arrays", "objects"):
        # Rows with expanded values are objects in every shape, as Datasette 0.65 writes them.
        assert ours["expanded_columns"] == ["currency", "colour_id", "tally_id", "customer_id"], ours
        rows = ours["rows"]
        assert any(row["customer_id"] == {"value": 3, "label": None} for row in rows), "no NULL label"
        assert any(row["tally_id"] == {"value": 5, "label": "5"} for row in rows), "no own-text label"
        assert any(row["customer_id"] == 9 for row in rows), "a key to no row is expanded"
        walk(servers, table_path("purchase", query + "&_size=7"))


SORTS = ["_sort=n", "_sort_desc=n", "_sort=r", "_sort_desc=r", "_sort=t", "_sort_desc=t", "_sort=content", "_sort_desc=id"]


@pytest.mark.parametrize("sort", SORTS)
def test_sorted_pages_to_the_end(servers, sort):
    rows, pages = walk(servers, table_path("sortable", sort + "&_size=17"))
    assert len(rows) == 250 and pages == 15


FILTERS = ["content__not=world&content__not=hello", "content=hello", "n__gt=2", "n__gte=2&n__lt=5", "r__lte=0.5",
           "content__contains=an", "content__startswith=he", "content__endswith=y", "n__in=1,2,3", "n__notin=1,2",
           "content__isnull=1", "n__notnull=1", "t__exact=", "flag=1&n__isnull=1"]


@pytest.mark.parametrize("filters", FILTERS)
def test_filters_page_alike(servers, filters):
    rows, _ = walk(servers, table_path("sortable", filters + "&_size=11&_shape=arrays"))
    assert rows


@pytest.mark.parametrize("columns", ["_col=content", "_col=n&_col=r", "_nocol=content", "_nocol=t&_nocol=r", "_col=t&_col=n&_nocol=t"])
def test_columns_alike(servers, columns):
    walk(servers, table_path("sortable", columns + "&_size=50"))
    compare(servers, table_path("no_pk", columns.replace("content", "t").replace("=n", "=i")))


def test_repeated_filters_and_like_datasette(servers, ):
    our_base, _, path = servers
    status, document = fetch(our_base, table_path("sortable", "content__not=world&content__not=hello&_size=max&_shape=array"))
    assert status == 200
    with sqlite3.connect(path) as db:
        expected = [row[0] for row in db.execute("SELECT id FROM sortable WHERE content <> 'world' AND content <> 'hello' ORDER BY id")]
    assert [row["id"] for row in document] == expected


def test_mistakes_are_400s_with_datasettes_messages(servers):
    for query in ["_shape=nope", "_size=1001", "_size=-1", "_col=nope", "_nocol=id", "_sort=n&_sort_desc=r"]:
        ours, theirs = fetch(servers[0], table_path("sortable", query)), fetch(servers[1], table_path("sortable", query))
        # Datasette answers two sorts with a 500; a client's mistake is a 400 here (docs/operations.md).
        assert ours[0] == 400 and theirs[0] == (500 if "_sort_desc" in query else 400), query
        assert ours[1]["error"] == theirs[1]["error"], query


def test_an_unknown_table_or_row_is_a_404(servers):
    assert fetch(servers[0], "/corpus/nope.json")[0] == 404
    assert fetch(servers[0], "/corpus/sortable/99999.json")[0] == 404


def test_the_html_url_leads_to_the_tables_page(servers):
    request = urllib.request.Request(servers[0] + "/corpus/sortable?n__gt=2")

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *arguments):
            return None

    try:
        urllib.request.build_opener(NoRedirect).open(request, timeout=10)
        raise AssertionError("expected a redirect")
    except urllib.error.HTTPError as error:
        assert error.code == 302
        assert error.headers["Location"] == "/pages/sortable?n__gt=2"


@pytest.mark.parametrize("file_name", ["pages.db", "public.sqlite"])
def test_a_database_named_like_a_route_keeps_its_pages_and_says_why_it_has_no_datasette_urls(tmp_path, file_name):
    path = str(tmp_path / file_name)
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)")
        db.execute("INSERT INTO t VALUES (1, 'one')")
    process, base = start_server(tmp_path, "--database", path)
    try:
        status, document = fetch(base, "/pages/t.json")
        assert status == 200 and document["sections"][0]["rows"][0]["fields"]["v"] == "one"
        name = file_name.split(".")[0]
        log = open(tmp_path / "server.log").read()
        assert f"/{name}/… are TablePages' own URLs" in log
    finally:
        stop_server(process)


def test_a_database_with_an_odd_name_has_its_urls_tilde_encoded(tmp_path):
    from datasette.utils import tilde_encode
    path = str(tmp_path / "my data.v2.db")
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)")
        db.execute("INSERT INTO t VALUES (1, 'one')")
    process, base = start_server(tmp_path, "--database", path)
    try:
        for prefix in [tilde_encode("my data.v2"), "my%20data.v2"]:
            status, rows = fetch(base, f"/{prefix}/t.json?_shape=array")
            assert status == 200 and rows == [{"id": 1, "v": "one"}], prefix
    finally:
        stop_server(process)
