"""Datasette's own fixtures database (datasette_fixtures.py), served by Datasette 0.65.5 and by
TablePages, asked the same things at the same Datasette URLs: the kinds of request Datasette's own
table, filter, CSV and API tests make (listed below in this file's words), plus seeded random
filter/sort combinations. Every answer must be equal — status, and the JSON document or CSV text —
except where Datasette itself is wrong: those are `DATASETTE_BUGS`, each listed in docs/operations.md
("Datasette's JSON API") with what TablePages answers instead.

Facets belong to test_datasette_facets (another change): their keys are left out here, and requests
with `_facet` are not made.

Set DATASETTE_FIXTURES_BASES="http://ours http://theirs" to compare two servers already running."""
import json
import os
import random
import urllib.error
import urllib.parse
import urllib.request

import pytest

from conftest import start_datasette, start_server, stop_server
from datasette_fixtures import write_fixtures

# Keys that differ on purpose in every document (docs/operations.md, "Datasette's JSON API"):
# each server's own SQL and timing; facets are compared by test_datasette_facets.
IGNORED_KEYS = {"query", "query_ms", "facet_results", "suggested_facets"}

TABLES = ["simple_primary_key", "compound_primary_key", "compound_three_primary_keys", "sortable", "no_primary_key",
          "facetable", "searchable", "foreign_key_references", "complex_foreign_keys", "binary_data", "infinity",
          "select", "123_starts_with_digits", "roadside_attraction_characteristics", "tags", "facet_cities"]

# Requests of the kinds Datasette's tests make, each a path and query at Datasette's URLs.
LISTED = [
    # Shapes, pages and sizes.
    *[f"/fixtures/{table}.json?_shape={shape}" for table in TABLES for shape in ("arrays", "objects", "array", "object")],
    "/fixtures/simple_primary_key.json?_shape=array&_nl=on", "/fixtures/binary_data.json?_shape=array&_nl=on",
    "/fixtures/simple_primary_key.json?_shape=nonsense",
    "/fixtures/no_primary_key.json?_size=25", "/fixtures/no_primary_key.json?_size=0", "/fixtures/no_primary_key.json?_size=max",
    "/fixtures/no_primary_key.json?_size=-4", "/fixtures/no_primary_key.json?_size=dog", "/fixtures/no_primary_key.json?_size=1001",
    "/fixtures/compound_three_primary_keys.json?_size=7", "/fixtures/sortable.json?_size=5",
    # Columns.
    "/fixtures/facetable.json?_col=state", "/fixtures/facetable.json?_col=state&_col=created",
    "/fixtures/facetable.json?_col=state&_col=state", "/fixtures/facetable.json?_col=state&_col=created&_nocol=created",
    "/fixtures/facetable.json?_nocol=created", "/fixtures/facetable.json?_nocol=pk", "/fixtures/facetable.json?_col=nope",
    "/fixtures/facetable.json?_nocol=nope",
    # Sorting.
    *[f"/fixtures/sortable.json?{sort}={column}&_shape=objects" for sort in ("_sort", "_sort_desc")
      for column in ("sortable", "sortable_with_nulls", "sortable_with_nulls_2", "text", "content", "pk1")],
    "/fixtures/sortable.json?_sort=nope", "/fixtures/sortable.json?_sort_desc=nope",
    # Filters.
    "/fixtures/simple_primary_key.json?content=hello", "/fixtures/simple_primary_key.json?content__exact=",
    "/fixtures/simple_primary_key.json?content__not=world", "/fixtures/simple_primary_key.json?content__not=world&content__not=hello",
    "/fixtures/simple_primary_key.json?content__contains=o", "/fixtures/simple_primary_key.json?content__startswith=h",
    "/fixtures/simple_primary_key.json?content__endswith=d", "/fixtures/simple_primary_key.json?id__gt=2",
    "/fixtures/simple_primary_key.json?id__in=1,3", "/fixtures/simple_primary_key.json?id__notin=1,3",
    "/fixtures/simple_primary_key.json?id__in=[1,3]", "/fixtures/simple_primary_key.json?content__isnull=1",
    "/fixtures/simple_primary_key.json?content__notnull=1", "/fixtures/simple_primary_key.json?content__isblank=1",
    "/fixtures/simple_primary_key.json?content__notblank=1",
    "/fixtures/compound_three_primary_keys.json?content__contains=d&_shape=objects",
    "/fixtures/facetable.json?planet_int=1", "/fixtures/facetable.json?state=CA&_city_id=1",
    "/fixtures/facetable.json?tags__arraycontains=tag1", "/fixtures/facetable.json?tags__arraynotcontains=tag3&tags__not=[]",
    "/fixtures/facetable.json?state__like=C%25", "/fixtures/facetable.json?state__notlike=C%25",
    "/fixtures/facetable.json?state__notlike=C%Z", "/fixtures/facetable.json?state__notlike=C%Z&_size=2",
    "/fixtures/facetable.json?nope=1", "/fixtures/facetable.json?nope__gt=1",
    "/fixtures.json?sql=select+'C%Z'+as+x,+'%E2%82'+as+y&_shape=array", "/fixtures/simple_primary_key/1.json?_shape=objects&x=%Z",
    "/fixtures/facetable.json?state__notcontains=A", "/fixtures/facetable.json?created__date=2019-01-14",
    "/fixtures/facetable.json?state__glob=C*", "/fixtures/facetable.json?state__arraycontains=CA", "/fixtures/facetable.json?_where=_neighborhood='Dogpatch'",
    "/fixtures/facetable.json?_where=_neighborhood=Dogpatch'", "/fixtures/facetable.json?_where=pk>3&state=CA&_size=2", "/fixtures/facetable.json?_where=pk>3&_where=pk<9&_sort_desc=pk&_size=2",
    "/fixtures/facetable.json?" + urllib.parse.urlencode({"_where": "pk in (select pk from facetable where state = 'MI')"}),
    *["/fixtures/roadside_attractions.json?" + urllib.parse.urlencode({"_through": json.dumps(through)}) for through in (
        {"table": "roadside_attraction_characteristics", "column": "characteristic_id", "value": "1"},
        {"table": "roadside_attraction_characteristics", "column": "characteristic_id", "value": 2},
        {"table": "roadside_attraction_characteristics", "column": "characteristic_id", "value": "nope"})],
    "/fixtures/roadside_attractions.json?_through=" + urllib.parse.quote(json.dumps(
        {"table": "roadside_attraction_characteristics", "column": "characteristic_id", "value": "1"})) + "&name__contains=e&_shape=objects",
    # Search.
    "/fixtures/searchable.json?_search=dog", "/fixtures/searchable.json?_search=weasel",
    "/fixtures/searchable.json?_search=te*+AND+do*", "/fixtures/searchable.json?_search=te*+AND+do*&_searchmode=raw",
    "/fixtures/searchable.json?_search=AND", "/fixtures/searchable.json?_search=NOT&_searchmode=raw",
    "/fixtures/searchable.json?_search_text2=dog", "/fixtures/searchable.json?_search_text2=te*&_searchmode=raw",
    "/fixtures/searchable.json?_search_nope=x", "/fixtures/searchable.json?_search_text1=cat&_search_text2=dog",
    "/fixtures/searchable.json?_search_text2=NOT&_searchmode=raw", "/fixtures/searchable.json?_search_text1=", "/fixtures/searchable.json?_search=dog&_search_text1=cat",
    # Labels and infinity.
    "/fixtures/foreign_key_references.json?_shape=array&_labels=on", "/fixtures/foreign_key_references.json?_labels=on",
    "/fixtures/facetable.json?_shape=object&_labels=1&_size=2", "/fixtures/facetable.json?_label=_city_id",
    "/fixtures/roadside_attraction_characteristics.json?_size=2&_sort=attraction_id&_labels=on",
    "/fixtures/infinity.json?_shape=array", "/fixtures/infinity.json?_shape=array&_json_infinity=1",
    "/fixtures/infinity.json?_shape=arrayfirst", "/fixtures/simple_primary_key.json?_shape=arrayfirst",
    # Views.
    "/fixtures/simple_view.json", "/fixtures/simple_view.json?_shape=objects", "/fixtures/simple_view.json?_col=content",
    "/fixtures/simple_view.json?_nocol=content", "/fixtures/simple_view.json?_col=nope", "/fixtures/paginated_view.json",
    "/fixtures/paginated_view.json?_size=50", "/fixtures/paginated_view.json?_size=max",
    # Rows.
    "/fixtures/simple_primary_key/1.json", "/fixtures/simple_primary_key/1.json?_shape=objects",
    "/fixtures/simple_primary_key/1.json?_shape=array", "/fixtures/simple_primary_key/1.json?_shape=object",
    "/fixtures/simple_primary_key/1.json?_shape=arrayfirst", "/fixtures/compound_primary_key/a,b.json",
    "/fixtures/compound_three_primary_keys/a,a,a.json?_shape=objects", "/fixtures/no_primary_key/1.json",
    "/fixtures/table~2Fwith~2Fslashes~2Ecsv/3.json?_shape=objects", "/fixtures/simple_primary_key/99.json",
    "/fixtures/foreign_key_references/1.json",
    # Names.
    "/fixtures/table~2Fwith~2Fslashes~2Ecsv.json?_shape=objects", "/fixtures/Table~20With~20Space~20In~20Name.json",
    "/fixtures/123_starts_with_digits.json", "/fixtures/blah.json", "/fixtures/blah/1.json",
    # CSV.
    "/fixtures/simple_primary_key.csv", "/fixtures/simple_primary_key.csv?_dl=1", "/fixtures/compound_three_primary_keys.csv?_size=max",
    "/fixtures/compound_three_primary_keys.csv?_stream=1", "/fixtures/compound_three_primary_keys.csv?_stream=1&_size=7&_dl=1",
    "/fixtures/sortable.csv?_stream=1&_sort_desc=sortable_with_nulls", "/fixtures/facetable.csv?_stream=1&_labels=1&state=CA",
    "/fixtures/paginated_view.csv?_stream=1&_size=3", "/fixtures/simple_primary_key.csv?_header=off",
    "/fixtures/sortable.csv?_stream=1&_header=off", "/fixtures/simple_primary_key/1.csv?_header=off", "/fixtures/binary_data.csv?_stream=1", "/fixtures/facetable.csv?_labels=1", "/fixtures/binary_data.csv",
    "/fixtures/foreign_key_references.csv?_labels=1", "/fixtures/simple_view.csv", "/fixtures/simple_primary_key/1.csv",
    "/fixtures/sortable.csv?_sort=sortable&_size=10", "/fixtures/infinity.csv", "/fixtures/searchable.csv?_search=dog",
    "/fixtures/binary_data/1.blob?_blob_column=data", "/fixtures/simple_primary_key/1.blob?_blob_column=content",
    "/fixtures/no_primary_key.csv?_size=3&_nocol=a", "/fixtures/compound_primary_key/a,b.csv",
    # Actor.
    "/-/actor.json",
]

# Datasette's own mistakes: (why, predicate on the path and query). docs/operations.md lists each,
# with what TablePages answers instead; a check that meets one is not compared.
COMPOUND_KEYS = ("/fixtures/sortable.", "/fixtures/compound_primary_key.", "/fixtures/compound_three_primary_keys.")
ROWID_TABLES = ("/fixtures/no_primary_key.",)
DATASETTE_BUGS = [
    ("_sort with _sort_desc, or a sort by no column, is a 500 in Datasette (a 400 here)",
     lambda path, query: "_sort_desc" in query and "_sort" in query or query.get("_sort", query.get("_sort_desc")) == "nope"),
    ("a row of no table is Datasette's 400 \"no such table\" (a 404 \"Table not found\" here)",
     lambda path, query: path.startswith("/fixtures/blah/")),
    ("Datasette sorts a compound key by one of its columns descending without the rest of the key: ties come in"
     " SQLite's order and its next pages repeat and skip rows (here: ties by the key ascending, every row once)",
     lambda path, query: query.get("_sort_desc") in ("pk1", "pk2", "pk3") and path.startswith(COMPOUND_KEYS)),
    ("an in/notin value that starts with [ but is no JSON array is a 500 in Datasette (a 400 here)",
     lambda path, query: any(name.endswith("in") and value.startswith("[") for name, value in query.items())),
    ("Datasette answers 400 \"malformed JSON\" to __arraycontains on a value that is not JSON (here such a value matches neither)",
     lambda path, query: any(name.endswith(("__arraycontains", "__arraynotcontains")) and not name.startswith(("tags", "complex_array"))
                             for name in query)),
    ("_through with a filter: Datasette names both parameters p0, so the filter compares with the _through's value"
     " (here each its own)", lambda path, query: "_through" in query and any(not name.startswith("_") for name in query)),
    ("a _where SQLite refuses: both 400, each quoting its own SQL", lambda path, query: query.get("_where", "").endswith("Dogpatch'")),
    ("a filter on no column (?nope=1) is Datasette's comparison of the text 'nope' (SQLite reads an unknown"
     " \"nope\" as a string), so it picks no row or every row; a 400 naming the columns here",
     lambda path, query: any(name.split("__")[0] == "nope" for name in query)),
    ("Datasette answers a rowid table sorted with _col 400 \"incomplete input\" (here: the rows)",
     lambda path, query: ("_sort" in query or "_sort_desc" in query) and "_col" in query and path.startswith(ROWID_TABLES)),
]

# Differences still to close (issue 32); the test fails when one of them no longer differs, so
# the list shrinks as they are fixed.
NOT_YET = []


def _bases():
    given = os.environ.get("DATASETTE_FIXTURES_BASES")
    return given.split() if given else None


@pytest.fixture(scope="module")
def servers(tmp_path_factory):
    import datasette
    assert datasette.__version__ == "0.65.5", "the comparison is with Datasette 0.65.5: run `make test-deps`"
    if _bases():
        yield tuple(_bases())
        return
    directory = tmp_path_factory.mktemp("datasette-fixtures")
    path = directory / "fixtures.db"
    write_fixtures(path)
    ours, our_base = start_server(directory, "--database", str(path))
    theirs, their_base = start_datasette(path)
    yield our_base, their_base
    theirs.terminate()
    theirs.wait(timeout=10)
    stop_server(ours)


def fetch(base, path):
    """(status, content type, body) of a GET, following no redirect."""
    request = urllib.request.Request(base + path)
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, response.headers.get("Content-Type", ""), response.headers.get("Content-Disposition"), response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Content-Type", ""), error.headers.get("Content-Disposition"), error.read()


def without_host(answer, base):
    """The answer with its server's own address (in a CSV's blob links) written as `BASE`."""
    status, content_type, disposition, body = answer
    if "json" in content_type:
        return answer
    return status, content_type, disposition, body.replace(base.encode(), b"BASE")


def comparable(answer):
    """What must be equal of an answer: status, then the parsed JSON without what differs on purpose
    (and `next_url` without its host), or the text."""
    status, content_type, disposition, body = answer
    try:
        document = json.loads(body)
    except ValueError:
        return status, content_type.split(";")[0], disposition, body.decode(errors="replace")
    if isinstance(document, dict):
        document = {key: value for key, value in document.items() if key not in IGNORED_KEYS}
        if document.get("next_url"):
            parts = urllib.parse.urlsplit(document["next_url"])
            document["next_url"] = parts.path + "?" + parts.query
    return status, document


def query_of(url):
    parts = urllib.parse.urlsplit(url)
    return parts.path, dict(urllib.parse.parse_qsl(parts.query, keep_blank_values=True))


def explanation(url, rules=None):
    """(kind, why) when `url` meets a known difference (of `rules` when given), else None."""
    path, query = query_of(url)
    for kind, listed in (("datasette", DATASETTE_BUGS), ("not yet", NOT_YET)):
        for why, applies in (rules if rules is not None else listed):
            if applies(path, query):
                return kind, why
    return None


def random_urls(seed, count):
    """Seeded random filter/sort/shape combinations on the fixtures' tables."""
    chance = random.Random(seed)
    columns = {
        "sortable": (["pk1", "pk2", "content", "sortable", "sortable_with_nulls", "sortable_with_nulls_2", "text"],
                     ["a", "b", "c", "1", "-5", "50", "0.5", "", "ab"]),
        "facetable": (["pk", "created", "planet_int", "on_earth", "state", "_city_id", "_neighborhood", "tags", "complex_array", "distinct_some_null", "n"],
                      ["1", "2", "CA", "MI", "Mission", "2019-01-14 08:00:00", "tag1", "", "one", "[]", "0"]),
        "compound_three_primary_keys": (["pk1", "pk2", "pk3", "content"], ["a", "b", "c-d", "a-a-a", "z", ""]),
        "simple_primary_key": (["id", "content"], ["1", "hello", "world", "", "3", "o"]),
        "no_primary_key": (["content", "a", "b", "c"], ["1", "a1", "b2", "c3", "", "10"]),
        "paginated_view": (["content", "content_extra"], ["1", "10", "- 1 -", "", "- 20 -"]),
    }
    operators = ["", "__exact", "__not", "__contains", "__startswith", "__endswith", "__gt", "__gte", "__lt", "__lte",
                 "__isnull", "__notnull", "__isblank", "__notblank", "__in", "__notin"]
    urls = []
    for _ in range(count):
        table = chance.choice(sorted(columns))
        names, values = columns[table]
        items = []
        for _ in range(chance.randint(0, 3)):
            operator = chance.choice(operators)
            value = chance.choice(values)
            if operator in ("__in", "__notin"):
                value = ",".join(chance.sample(values, 2))
            if operator in ("__isnull", "__notnull", "__isblank", "__notblank"):
                value = "1"
            items.append((chance.choice(names) + operator, value))
        if chance.random() < 0.6:
            items.append((chance.choice(["_sort", "_sort_desc"]), chance.choice(names)))
        if chance.random() < 0.4:
            items.append(("_size", str(chance.choice([1, 2, 5, 20]))))
        if chance.random() < 0.5:
            items.append(("_shape", chance.choice(["arrays", "objects", "array", "object"])))
        if chance.random() < 0.3:
            items.append(("_col", chance.choice(names)))
        urls.append(f"/fixtures/{table}.json" + ("?" + urllib.parse.urlencode(items) if items else ""))
    return urls


def checks(servers, urls):
    """Compares each URL, and each page after it by `next_url` (up to 5); returns the tally."""
    our_base, their_base = servers
    tally = {"checks": 0, "equal": 0, "datasette": [], "not yet": [], "differs": []}
    for url in urls:
        for _ in range(6):
            ours, theirs = without_host(fetch(our_base, url), our_base), without_host(fetch(their_base, url), their_base)
            tally["checks"] += 1
            known = explanation(url)
            ours_c, theirs_c = comparable(ours), comparable(theirs)
            if ours_c == theirs_c:
                tally["equal"] += 1
                if known and known[0] == "not yet" and not explanation(url, rules=DATASETTE_BUGS):
                    tally.setdefault("closed", []).append((url, known[1]))
            elif known:
                tally[known[0]].append((url, known[1]))
            else:
                tally["differs"].append((url, ours_c, theirs_c))
            following = theirs_c[1].get("next_url") if len(theirs_c) == 2 and isinstance(theirs_c[1], dict) else None
            if not following or ours_c != theirs_c:
                break
            url = following
    return tally


def described(differences):
    """The first differences, each as its URL and what differs (the keys, for two documents)."""
    lines = []
    for url, ours, theirs in differences[:15]:
        if len(ours) == 2 and len(theirs) == 2 and isinstance(ours[1], dict) and isinstance(theirs[1], dict):
            keys = sorted({key for key in ours[1].keys() | theirs[1].keys() if ours[1].get(key) != theirs[1].get(key)})
            ours, theirs = (ours[0], {key: ours[1].get(key) for key in keys}), (theirs[0], {key: theirs[1].get(key) for key in keys})
        lines.append(f"{url}\n  ours:   {str(ours)[:400]}\n  theirs: {str(theirs)[:400]}")
    return "\n".join(lines)


def report(name, tally):
    print(f"{name}: {tally['checks']} checks, {tally['equal']} equal, {len(tally['datasette'])} Datasette's bugs, "
          f"{len(tally['not yet'])} not yet, {len(tally['differs'])} other differences")


def test_datasettes_requests_answer_alike(servers):
    tally = checks(servers, LISTED)
    report("listed", tally)
    assert tally["differs"] == [], described(tally["differs"])
    assert not tally.get("closed"), f"no longer differs, remove from NOT_YET: {tally.get('closed')}"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_filters_and_sorts_answer_alike(servers, seed):
    tally = checks(servers, random_urls(seed, 150))
    report(f"seed {seed}", tally)
    assert tally["differs"] == [], described(tally["differs"])


# Names and values a client might send at Datasette's URLs: Datasette's own parameters, filters on
# real and unknown columns with known and unknown operators, and hostile text.
_PARAMETER_NAMES = ["_shape", "_size", "_next", "_sort", "_sort_desc", "_col", "_nocol", "_labels", "_label", "_nl",
                    "_json_infinity", "_search", "_searchmode", "_search_text1", "_search_nope", "_where", "_through",
                    "_extra", "_stream", "_dl", "_blob_column", "_through", "_facet", "_trace", "_ttl", "_timelimit", "_nocount"]
_COLUMNS = ["pk", "pk1", "id", "content", "state", "tags", "created", "sortable", "text1", "rowid", "nope", "", "_city_id"]
_OPERATORS = ["", "__exact", "__not", "__gt", "__in", "__notin", "__isnull", "__isblank", "__like", "__glob", "__date",
              "__arraycontains", "__arraynotcontains", "__nope", "__", "__exact__x"]
_PATHS = ["/fixtures/{}.json", "/fixtures/{}.csv", "/fixtures/{}/1.json", "/fixtures/{}/a,b.json", "/fixtures/{}",
          "/fixtures/{}/1.csv", "/fixtures/{}/1.blob"]
_NAMES = ["facetable", "searchable", "sortable", "compound_primary_key", "no_primary_key", "simple_view", "paginated_view",
          "infinity", "binary_data", "nope", "table~2Fwith~2Fslashes~2Ecsv", "~", "~zz"]


def _hostile_text():
    from hypothesis import strategies as st
    return st.one_of(
        st.sampled_from(["", "1", "-1", "max", "0", "99999999999999999999", "[", "[1,", "[\"a\"]", "{}", "NOT", "AND",
                         "\"", "'", "*", "te*", "$null", "a,b", "a,b,c", "~2F", "~", "1e999", "nan", "inf", "on", "off",
                         "select 1", "1) or (1", "\x00", "😀", "%", "C%Z", "%ZZ", "objects", "array", "arrayfirst", "object",
                         '{"table": "nope", "column": "x", "value": 1}', '{"table": "facetable", "column": "nope", "value": "1"}',
                         '{"table": "roadside_attraction_characteristics", "column": "characteristic_id", "value": [1]}',
                         '{"table": "roadside_attraction_characteristics", "column": "characteristic_id", "value": null}']),
        st.text(max_size=12))


def test_no_datasette_url_answers_500_for_any_query(servers):
    """Hypothesis sends random paths and query strings made of Datasette's parameters, filters and
    hostile values to TablePages' Datasette URLs: none may answer 5xx (a client's mistake is a 4xx)."""
    from hypothesis import HealthCheck, given, settings, strategies as st
    our_base = servers[0]
    item = st.tuples(st.one_of(st.sampled_from(_PARAMETER_NAMES),
                               st.tuples(st.sampled_from(_COLUMNS), st.sampled_from(_OPERATORS)).map("".join)),
                     _hostile_text())

    @settings(max_examples=int(os.environ.get("DATASETTE_FUZZ_EXAMPLES", "400")), deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(st.sampled_from(_PATHS), st.sampled_from(_NAMES), st.lists(item, max_size=5))
    def check(path, name, items):
        url = path.format(name) + "?" + urllib.parse.urlencode(items)
        status = fetch(our_base, url)[0]
        assert status < 500, url

    check()


def _dclient(home, *arguments):
    """dclient 0.4's output (`make test-deps` installs it), with its configuration in `home`."""
    import subprocess
    import sys
    environment = dict(os.environ, HOME=str(home), XDG_CONFIG_HOME=str(home))
    result = subprocess.run([sys.executable, "-c", "from dclient.cli import cli; cli()", *arguments],
                            capture_output=True, text=True, timeout=60, env=environment)
    return result.returncode, result.stdout


@pytest.mark.parametrize("sql", ["select id, content from simple_primary_key order by id",
                                 "select * from facetable where state = 'CA' order by pk limit 3",
                                 "select count(*) as n, 1.5 as r, null as z from sortable"])
def test_dclient_query_and_actor_answer_alike(servers, sql, tmp_path):
    our_base, their_base = servers
    for command in (["query", "{}/fixtures", sql], ["actor", "{}/fixtures"]):
        ours = _dclient(tmp_path, *[part.format(our_base) for part in command])
        theirs = _dclient(tmp_path, *[part.format(their_base) for part in command])
        assert ours == theirs and ours[0] == 0, (command, ours, theirs)


def test_extras_answer_as_datasette_1_0a41(servers):
    """`?_extra=` is answered as Datasette 1.0a41 answered the same URLs on the same fixtures
    (recorded in datasette_1_0a41_extras.json: status and document, `next_url` without its host,
    the host of other links written `BASE`), while the same URL without `_extra` keeps 0.65's
    document (compared above)."""
    with open(os.path.join(os.path.dirname(__file__), "datasette_1_0a41_extras.json")) as recorded:
        expected = json.load(recorded)
    for url, (status, document) in expected.items():
        ours = fetch(servers[0], url)
        ours_document = json.loads(ours[3])
        if isinstance(ours_document, dict) and ours_document.get("next_url"):
            ours_document["next_url"] = "/" + ours_document["next_url"].split("/", 3)[3]
        ours_document = json.loads(json.dumps(ours_document).replace(servers[0], "BASE"))
        assert (ours[0], ours_document) == (status, document), url
    plain = json.loads(fetch(servers[0], "/fixtures/simple_primary_key.json?_size=2")[3])
    assert plain["database"] == "fixtures" and plain["rows"] == [[1, "hello"], [2, "world"]] and "ok" not in plain


def test_where_runs_as_the_sql_page_runs_sql(servers, tmp_path):
    """`_where` is SQL from a visitor: it runs on the SQL page's connection, under its authorizer and
    limits, and is refused (403, Datasette's words) where the SQL page is off."""
    our_base = servers[0]
    attacks = {
        "length(zeroblob(1000000000)) > 0": "larger than the size limit",
        "1; drop table facetable": "syntax error",
        "pk = ?": "Name every parameter",
        "1) UNION SELECT 1,2,3,4,5,6,7,8,9,10,11,12 --": "UNION",
        "pk in (select rowid from sqlite_master) and load_extension('x')": "load_extension",
    }
    for sql, words in attacks.items():
        status, _, _, body = fetch(our_base, "/fixtures/facetable.json?" + urllib.parse.urlencode({"_where": sql}))
        assert status == 400 and words in json.loads(body)["error"], (sql, status, body)
    path = tmp_path / "fixtures.db"
    write_fixtures(path)
    process, base = start_server(tmp_path, "--database", str(path), "--sql", "off")
    try:
        status, _, _, body = fetch(base, "/fixtures/facetable.json?_where=pk>3")
        assert status == 403 and json.loads(body)["error"] == "_where= is not allowed"
        assert fetch(base, "/fixtures/facetable.json?state=CA")[0] == 200
    finally:
        stop_server(process)


def test_a_streamed_csv_is_every_row_and_ends_at_its_bound_as_datasettes(tmp_path):
    """`_stream=1` sends every row of a table many pages long, as Datasette 0.65.5 does; past the
    byte bound (Datasette's `max_csv_mb` 1, `--datasette-csv-max-bytes 1048576` here) both end
    the body with the same words at the same line. `_next` with it is Datasette's 400."""
    import sqlite3
    path = tmp_path / "big.db"
    with sqlite3.connect(path) as db:
        db.execute("create table small (id integer primary key, word text)")
        db.executemany("insert into small values (?, ?)", [(n, f"w{n}, \"q\"") for n in range(1, 2501)])
        db.execute("create table big (id integer primary key, text text)")
        db.executemany("insert into big values (?, ?)", [(n, f"{n:08d}" + "x" * 92) for n in range(1, 15001)])
    ours, our_base = start_server(tmp_path, "--database", str(path), "--datasette-csv-max-bytes", "1048576")
    theirs, their_base = start_datasette(path, "--setting", "max_csv_mb", "1")
    try:
        small = fetch(our_base, "/big/small.csv?_stream=1")
        assert small[3].count(b"\r\n") == 2501 and small[3] == fetch(their_base, "/big/small.csv?_stream=1")[3]
        big, their_big = fetch(our_base, "/big/big.csv?_stream=1"), fetch(their_base, "/big/big.csv?_stream=1")
        assert big[0] == 200 and big[3].endswith(b"\r\nCSV contains more than 1048576 bytes"), big[3][-200:]
        assert big[3] == their_big[3]
        assert len(big[3]) - len(b"CSV contains more than 1048576 bytes") <= 1048576
        assert fetch(our_base, "/big/big.csv?_size=5")[3].count(b"\r\n") == 6
        refused, their_refusal = fetch(our_base, "/big/small.csv?_stream=1&_next=5"), fetch(their_base, "/big/small.csv?_stream=1&_next=5")
        assert refused[0] == their_refusal[0] == 400 and b"_next not allowed for CSV streaming" in refused[3]
    finally:
        theirs.terminate()
        theirs.wait(timeout=10)
        stop_server(ours)
