"""Facets at Datasette's URLs: TablePages and Datasette 0.65.5 (from PyPI) serve the same files and
must answer `facet_results` and `suggested_facets` alike — `_facet`, `_facet_date`, `_facet_array`,
`_facet_size`, `_nofacet`, `_nosuggest`, foreign-key labels, chosen values and every link — on a
shop-like file with indexed columns (datasette_shop.py), on every table and column of the
corpus of test_datasette_api.py (datasette_corpus.py), and on arbitrary values (hypothesis).
Links are compared without their host: each server writes its own."""
import json
import math
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.parse

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import start_datasette, start_server, stop_server
from datasette_corpus import build as build_corpus
from datasette_shop import build as build_shop
from test_datasette_api import DATASETTE_VERSION, fetch

FACET_KEYS = ("facet_results", "suggested_facets")


def start_both(directory, name, build):
    import datasette
    assert datasette.__version__ == DATASETTE_VERSION, f"the comparison is with Datasette {DATASETTE_VERSION}: run `make test-deps`"
    path = str(directory / f"{name}.db")
    build(path)
    ours, our_base = start_server(directory, "--database", path)
    theirs, their_base = start_datasette(path)
    return (ours, our_base), (theirs, their_base), path


@pytest.fixture(scope="module", params=["shop", "corpus"])
def servers(request, tmp_path_factory):
    build = build_shop if request.param == "shop" else build_corpus
    (ours, our_base), (theirs, their_base), path = start_both(tmp_path_factory.mktemp(request.param), request.param, build)
    yield request.param, our_base, their_base, path
    theirs.terminate()
    theirs.wait(timeout=10)
    stop_server(ours)


def without_hosts(value):
    """`value` with every absolute URL cut to its path and query, and an infinite number as
    `null`: Datasette writes a facet's infinite value as `Infinity`, which is not JSON, where
    TablePages writes `null` as in rows (docs/operations.md lists it)."""
    if isinstance(value, dict):
        return {key: without_hosts(item) for key, item in value.items()}
    if isinstance(value, list):
        return [without_hosts(item) for item in value]
    if isinstance(value, str) and value.startswith("http://"):
        parts = urllib.parse.urlsplit(value)
        return parts.path + ("?" + parts.query if parts.query else "")
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def facets_of(base, path):
    status, document = fetch(base, path)
    if status != 200:
        return status, document
    return status, without_hosts({key: document.get(key) for key in FACET_KEYS})


def compare(servers, table, query):
    database, our_base, their_base, _ = servers
    from datasette.utils import tilde_encode
    path = f"/{database}/{tilde_encode(table)}.json" + ("?" + query if query else "")
    ours, theirs = facets_of(our_base, path), facets_of(their_base, path)
    assert ours == theirs, path
    return ours


SHOP_QUERIES = [
    "",
    "_facet=status",
    "_facet=product_id",
    "_facet=status&_facet=product_id&_facet_date=ordered_at&_facet_array=tags&_facet_size=3",
    "status=paid&_facet=status&_facet=quantity",
    "product_id=17&_facet=product_id",
    "_facet=status&_facet=status",
    "_facet_date=ordered_at",
    "_facet_date=ordered_at&status=shipped",
    "_facet_array=tags",
    "_facet_array=notes&_facet_size=2",
    "_facet=tags&_facet=notes",
    "_facet=quantity&_facet_size=max",
    "_facet=status&_facet_size=0",
    "_facet=status&_facet_size=x",
    "_facet=status&_nofacet=1",
    "_facet=status&_nofacet=",
    "_nosuggest=1&_facet=quantity",
    "_facet=status&_shape=objects",
    "_facet=status&_sort_desc=quantity&_size=5",
    "quantity__gt=1&_facet_date=ordered_at&_facet=product_id",
]


def test_shop_orders_facets_and_suggestions_are_datasettes(servers):
    if servers[0] != "shop":
        pytest.skip("the shop file's queries")
    for query in SHOP_QUERIES:
        compare(servers, "orders", query)
    plain = compare(servers, "orders", "")
    assert [(s["name"], s.get("type")) for s in plain[1]["suggested_facets"]][:1] == [("status", None)], \
        "the indexed status column (5 values) is suggested"
    assert "product_id" not in [s["name"] for s in plain[1]["suggested_facets"]], "300 products are too many for a facet"
    labelled = compare(servers, "orders", "_facet=product_id")
    assert labelled[1]["facet_results"]["product_id"]["results"][0]["label"].startswith(("Giant", "Tiny", "Red", "Quiet", "Bright", "Old"))
    for query in ["", "_facet=category", "_facet=name&_facet_size=2"]:
        compare(servers, "products", query)


def test_a_later_page_counts_every_row_the_filters_pick(servers):
    """Datasette counts a later page's facets over the rows after its `_next` only (docs/operations.md
    lists it among Datasette's mistakes); these are the first page's counts on every page."""
    if servers[0] != "shop":
        pytest.skip("the shop file's queries")
    _, our_base, _, _ = servers
    _, first = facets_of(our_base, "/shop/orders.json?_facet=status")
    _, later = facets_of(our_base, "/shop/orders.json?_next=100&_facet=status")
    counts = lambda document: [(r["value"], r["count"]) for r in document["facet_results"]["status"]["results"]]
    assert counts(later) == counts(first) and sum(count for _, count in counts(first)) == 2000
    assert later["suggested_facets"] == [], "no suggestions on a later page, as in Datasette"


def test_shop_facet_mistakes_are_datasettes_400s(servers):
    if servers[0] != "shop":
        pytest.skip("the shop file's queries")
    for query in ["_facet=nope", "_facet_date=nope", "_facet_array=status"]:
        status, body = compare(servers, "orders", query)
        assert status == 400, (query, body)


def corpus_tables(path):
    with sqlite3.connect(path) as db:
        names = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        return [(name, [row[1] for row in db.execute("SELECT * FROM pragma_table_info(?)", [name])]) for name in names]


def test_every_corpus_table_suggests_and_counts_every_column_and_its_dates_as_datasette_does(servers):
    if servers[0] != "corpus":
        pytest.skip("the corpus's tables")
    compared = 0
    for table, columns in corpus_tables(servers[3]):
        compare(servers, table, "")
        for column in columns:
            # Not _facet_array: Datasette takes 2 s to answer its 400 for text that is not JSON
            # (the shop's tests compare that answer).
            for parameter in ["_facet", "_facet_date"]:
                compare(servers, table, urllib.parse.urlencode([(parameter, column)]))
            compared += 1
    assert compared > 40


# Arbitrary values, written into one table between requests: Datasette serves the file mutable
# (it reads it anew at each request) and TablePages reads each Datasette-URL request anew.
VALUES = st.one_of(st.none(), st.integers(-2**63, 2**63 - 1), st.floats(allow_nan=False, allow_infinity=False),
                   st.text(max_size=8), st.sampled_from(["a", "b", "1", "2.5", ""]))
DATES = st.one_of(st.none(), st.text(max_size=12), st.dates().map(str), st.datetimes().map(lambda d: d.isoformat(" ")),
                  st.sampled_from(["2026-03-01", "2026-03-01 10:00", "2026-13-01", "2026-02-30"]))
ARRAYS = st.one_of(st.none(), st.just(""), st.lists(st.one_of(st.text(max_size=4), st.sampled_from(["x", "y"]), st.integers(0, 3)), max_size=3).map(json.dumps),
                   st.text(max_size=6), st.sampled_from(["['a']", "[1,]", '["a","a"]', "[]", "{}", '"x"']))


@pytest.fixture(scope="module")
def mutable_servers(tmp_path_factory):
    import datasette
    assert datasette.__version__ == DATASETTE_VERSION
    directory = tmp_path_factory.mktemp("facets-hypothesis")
    path = str(directory / "random.db")
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE r (id INTEGER PRIMARY KEY, v, d TEXT, a TEXT)")
    ours, our_base = start_server(directory, "--database", path)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    theirs = subprocess.Popen([sys.executable, "-m", "datasette", "serve", path, "-h", "127.0.0.1", "-p", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    their_base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            if fetch(their_base, "/-/versions.json")[0] == 200:
                break
        except OSError:
            pass
        assert time.monotonic() < deadline and theirs.poll() is None, "Datasette did not start"
        time.sleep(0.1)
    yield our_base, their_base, path
    theirs.terminate()
    theirs.wait(timeout=10)
    stop_server(ours)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=st.lists(st.tuples(VALUES, DATES, ARRAYS), max_size=25),
       query=st.sampled_from(["", "_facet=v", "_facet=v&_facet_size=2", "_facet_date=d", "_facet_array=a", "_facet=v&_facet=d&_facet_date=d&v=a"]))
def test_arbitrary_values_facet_and_suggest_as_in_datasette(mutable_servers, rows, query):
    our_base, their_base, path = mutable_servers
    with sqlite3.connect(path) as db:
        db.execute("DELETE FROM r")
        db.executemany("INSERT INTO r (v, d, a) VALUES (?, ?, ?)", rows)
    url = "/random/r.json" + ("?" + query if query else "")
    assert facets_of(our_base, url) == facets_of(their_base, url), (url, rows)
