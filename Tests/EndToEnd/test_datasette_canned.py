"""Datasette's canned-query URL, `/{database}/{query}.json`: TablePages (`--config`) and Datasette
0.65.5 (the same queries in its metadata) answer the same document — every key but `query_ms`, in
each `_shape`, with and without parameters — and both resolve a canned query's name before a
table's (a query named `customer` beside the table `customer`). Without `.json` TablePages
redirects to the query's page, `/-/queries/{query}`."""
import json
import urllib.parse

import pytest

from conftest import start_datasette, start_server, stop_server
from datasette_corpus import build
from test_sql_page import get, without_timing

QUERIES = {
    "by_currency": {"title": "Purchases by currency", "sql": "select currency, count(*) as n from purchase group by currency order by currency"},
    "of_city": {"sql": "select id, name from customer where city = :city order by id"},
    # A table's name: the query answers, not the table.
    "customer": {"sql": "select 'the query' as answer"},
}


@pytest.fixture(scope="module")
def both(tmp_path_factory):
    directory = tmp_path_factory.mktemp("datasette-canned")
    path = directory / "corpus.db"
    build(str(path))
    (directory / "site.json").write_text(json.dumps({"queries": QUERIES}))
    (directory / "metadata.json").write_text(json.dumps({"databases": {"corpus": {"queries": QUERIES}}}))
    ours, our_base = start_server(directory, "--database", str(path), "--config", str(directory / "site.json"))
    theirs, their_base = start_datasette(str(path), "-m", str(directory / "metadata.json"))
    yield our_base, their_base
    theirs.terminate()
    theirs.wait(timeout=10)
    stop_server(ours)


@pytest.mark.parametrize("shape", ["arrays", "objects", "array"])
@pytest.mark.parametrize("name, params", [("by_currency", {}), ("of_city", {"city": "City 1"}), ("of_city", {}), ("customer", {})])
def test_canned_query_json_matches_datasette(both, shape, name, params):
    ours, theirs = both
    extra = {} if shape == "arrays" else {"_shape": shape}
    path = f"/corpus/{name}.json?" + urllib.parse.urlencode({**params, **extra})
    our_status, _, our_body = get(ours, path)
    their_status, _, their_body = get(theirs, path)
    assert our_status == their_status == 200, (our_body[:300], their_body[:300])
    mine = without_timing(json.loads(our_body))
    assert mine == without_timing(json.loads(their_body))
    if shape == "arrays":
        assert mine["query_name"] == name and (mine["rows"] or not params and name == "of_city"), mine
        if name == "customer":
            assert mine["rows"] == [["the query"]]


def test_without_json_it_is_the_query_page(both):
    ours, _ = both
    status, _, body = get(ours, "/corpus/of_city?city=City+1")
    assert status == 200 and "<h1>of_city</h1>" in body.decode(), body[:300]
