"""The OpenAPI description against the running server: schemathesis finds no 5xx and no response
that breaks the schema."""
import json
import subprocess
import sys
import urllib.parse
import urllib.request

import pytest

from conftest import start_server, stop_server


def test_openapi_document_is_served_and_lists_every_json_endpoint(server):
    with urllib.request.urlopen(server + "/openapi.json", timeout=5) as response:
        assert response.headers["Content-Type"].startswith("application/json")
        spec = json.load(response)
    assert spec["openapi"].startswith("3.")
    for path in ["/pages/{page}.json", "/pages/{page}/sections/{section}.json", "/pages/{page}/rows/{row}.json",
                 "/pages/{page}/rows/{row}/select", "/pages/{page}/rows/{row}/move", "/pages/{page}/sections/{section}/rows"]:
        assert path in spec["paths"], path


def test_openapi_document_lists_the_sql_endpoints(server):
    with urllib.request.urlopen(server + "/openapi.json", timeout=5) as response:
        spec = json.load(response)
    for path in ["/-/sql", "/-/sql.json", "/-/sql.csv", "/-/queries/{query}", "/-/queries/{query}.json", "/-/queries/{query}.csv", "/{database}.json"]:
        operation = spec["paths"][path]["get"]
        assert {"200", "400", "403", "503"} <= set(operation["responses"]), path
    assert "sql" in [parameter["name"] for parameter in spec["paths"]["/{database}.json"]["get"]["parameters"]]


def test_schemathesis_finds_no_server_errors_and_no_schema_violations_on_the_sql_pages(tmp_path):
    """The SQL page, a canned query and Datasette's /{database}.json?sql= on a database: what
    schemathesis sends as SQL (mostly not SQL) is a 400 of the documented shape, never a 5xx."""
    from datasette_corpus import build
    path = str(tmp_path / "corpus.db")
    build(path)
    config = tmp_path / "site.json"
    config.write_text(json.dumps({"queries": {"by_city": {"sql": "select id, name from customer where city = :city order by id"}}}))
    process, server = start_server(tmp_path, "--database", path, "--config", str(config), "--connection-memory-limit", "16384")
    try:
        run_schemathesis(server, "--include-path-regex", "^/(-/sql|-/queries/|\\{database\\}\\.json)")
    finally:
        stop_server(process)


def test_openapi_document_lists_datasettes_table_and_row_urls(server):
    with urllib.request.urlopen(server + "/openapi.json", timeout=5) as response:
        spec = json.load(response)
    table = spec["paths"]["/{database}/{table}.json"]["get"]
    assert {"_shape", "_labels", "_col", "_nocol", "_size", "_next", "_sort", "_sort_desc"} <= {parameter["name"] for parameter in table["parameters"]}
    shape = next(parameter for parameter in table["parameters"] if parameter["name"] == "_shape")
    assert set(shape["schema"]["enum"]) == {"arrays", "objects", "array", "object"}
    assert {"200", "400", "404", "503"} <= set(table["responses"])
    row = spec["paths"]["/{database}/{table}/{pk}.json"]["get"]
    assert [parameter["name"] for parameter in row["parameters"]] == ["database", "table", "pk"]
    assert {"200", "404"} <= set(row["responses"])


# Requests to Datasette's table and row URLs on the corpus, each answer checked against the
# document: (the path's template, the URL, the status it must answer).
DATASETTE_REQUESTS = [
    ("/{database}/{table}.json", "/corpus/customer.json", 200),
    ("/{database}/{table}.json", "/corpus/customer.json?_shape=objects&_size=3", 200),
    ("/{database}/{table}.json", "/corpus/customer.json?_shape=array&_col=name", 200),
    ("/{database}/{table}.json", "/corpus/customer.json?_shape=object&_nocol=city", 200),
    ("/{database}/{table}.json", "/corpus/customer.json?_shape=array&_nl=on", 200),
    ("/{database}/{table}.json", "/corpus/no_pk.json?_shape=object", 200),
    ("/{database}/{table}.json", "/corpus/no_pk.json?_size=max", 200),
    ("/{database}/{table}.json", "/corpus/purchase.json?_labels=on&_size=5", 200),
    ("/{database}/{table}.json", "/corpus/purchase.json?_labels=on&_shape=objects&_sort_desc=note&currency__not=EUR", 200),
    ("/{database}/{table}.json", "/corpus/compound_pk.json?_size=2", 200),
    ("/{database}/{table}.json", "/corpus/table~2Fwith~2Fslashes~2Ecsv.json", 200),
    ("/{database}/{table}.json", "/corpus/by_city.json?city=City+1", 200),
    ("/{database}/{table}.json", "/corpus/customer.json?_shape=bogus", 400),
    ("/{database}/{table}.json", "/corpus/customer.json?_col=nosuch", 400),
    ("/{database}/{table}.json", "/corpus/customer.json?_nocol=id", 400),
    ("/{database}/{table}.json", "/corpus/customer.json?_size=1001", 400),
    ("/{database}/{table}.json", "/corpus/customer.json?_sort=id&_sort_desc=id", 400),
    # An operator Datasette does not know is passed over, as Datasette passes it over.
    ("/{database}/{table}.json", "/corpus/customer.json?name__bogus=1", 200),
    ("/{database}/{table}.json", "/corpus/nosuch.json", 404),
    ("/{database}/{table}.json", "/elsewhere/customer.json", 404),
    ("/{database}/{table}/{pk}.json", "/corpus/customer/1.json", 200),
    ("/{database}/{table}/{pk}.json", "/corpus/compound_pk/a~2Cb,b.json", 200),
    ("/{database}/{table}/{pk}.json", "/corpus/no_pk/1.json", 200),
    ("/{database}/{table}/{pk}.json", "/corpus/purchase/3.json", 200),
    ("/{database}/{table}/{pk}.json", "/corpus/customer/999.json", 404),
    ("/{database}/{table}/{pk}.json", "/corpus/compound_pk/a.json", 404),
    ("/{database}/{table}/{pk}.json", "/corpus/nosuch/1.json", 404),
]


@pytest.fixture(scope="module")
def corpus_server(tmp_path_factory):
    """A server of the Datasette corpus (as `corpus`) with the canned query `by_city`."""
    from datasette_corpus import build
    directory = tmp_path_factory.mktemp("openapi-corpus")
    path = str(directory / "corpus.db")
    build(path)
    config = directory / "site.json"
    config.write_text(json.dumps({"queries": {"by_city": {"sql": "select id, name from customer where city = :city order by id"}}}))
    process, base = start_server(directory, "--database", path, "--config", str(config), "--connection-memory-limit", "16384")
    yield base
    stop_server(process)


def test_datasettes_table_and_row_urls_answer_as_the_document_says(corpus_server):
    """Each shape, `_labels`, `_col`/`_nocol`, `_size`, a canned query's name, each refusal and
    each missing thing: a status the document lists for the path, a content type it lists for
    that status, and a body its schema accepts; then every `next_url` of a paged table, to the end."""
    import requests
    import schemathesis
    spec = requests.get(corpus_server + "/openapi.json", timeout=5).json()
    schema = schemathesis.openapi.from_dict(spec)

    def check(template, url, status):
        response = requests.get(url if url.startswith("http") else corpus_server + url, timeout=10)
        assert response.status_code == status, (url, response.status_code, response.text[:300])
        documented = spec["paths"][template]["get"]["responses"][str(status)]
        if "$ref" in documented:
            documented = spec["components"]["responses"][documented["$ref"].rsplit("/", 1)[1]]
        kind = response.headers["Content-Type"].split(";")[0]
        assert kind in documented["content"], (url, kind)
        schema[template]["GET"].validate_response(response)
        return response

    for template, url, status in DATASETTE_REQUESTS:
        check(template, url, status)
    pages, url = 0, "/corpus/compound_pk.json?_size=3&_sort=content"
    while url:
        document = check("/{database}/{table}.json", url, 200).json()
        if document["next"] is not None:
            assert urllib.parse.parse_qs(urllib.parse.urlsplit(document["next_url"]).query)["_next"] == [document["next"]]
        url, pages = document["next_url"], pages + 1
    assert pages >= 5


def test_schemathesis_finds_no_server_errors_and_no_schema_violations_on_datasettes_urls(corpus_server, tmp_path):
    """Datasette's table and row URLs fuzzed on the corpus: the database's name is the served
    one, and the table (and row key) is most often one of the corpus's, so the requests reach the
    tables' code rather than only their 404."""
    config = tmp_path / "schemathesis.toml"
    tables = ["customer", "purchase", "compound_pk", "no_pk", "sortable", "currency", "one_column", "rowid_big",
              "table~2Fwith~2Fslashes~2Ecsv", "x~2Ejson", "by_city"]
    config.write_text(
        "[dictionaries.tables]\nvalues = " + json.dumps(tables) + "\n"
        "[dictionaries.keys]\nvalues = " + json.dumps(["1", "2", "3", "a,b", "a~2Cb,b", "EUR", "a~2Fb~2Ec", "999"]) + "\n"
        "[parameters]\n\"path.database\" = \"corpus\"\n"
        "\"path.table\" = { dictionary = \"tables\", probability = 0.8 }\n"
        "\"path.pk\" = { dictionary = \"keys\", probability = 0.8 }\n")
    run_schemathesis(corpus_server, "--include-path-regex", "^/\\{database\\}/\\{table\\}", config=config)


def test_schemathesis_finds_no_server_errors_and_no_schema_violations(tmp_path):
    # A pool of 16 KiB per connection: schemathesis sends request lines with a hundred query
    # arguments or more, which libmicrohttpd cannot even answer within the default 7.5 KiB (it
    # closes the connection: see test_hostile_clients). That limit has its own test; this one is
    # about what the server answers.
    process, server = start_server(tmp_path, "--connection-memory-limit", "16384")
    try:
        run_schemathesis(server)
    finally:
        stop_server(process)


def test_a_refused_sql_request_answers_as_the_document_says(tmp_path):
    """With `--sql off` every SQL endpoint but a canned query's is 403, with a content type the
    document lists for 403 and, as JSON, Datasette's error object (QueryError's required keys)."""
    from datasette_corpus import build
    from test_sql_page import get
    path = str(tmp_path / "corpus.db")
    build(path)
    process, server = start_server(tmp_path, "--database", path, "--sql", "off")
    try:
        spec = json.loads(get(server, "/openapi.json")[2])
        required = spec["components"]["schemas"]["QueryError"]["required"]
        for template, url in [("/-/sql", "/-/sql?sql=select+1"), ("/-/sql.json", "/-/sql.json?sql=select+1"),
                              ("/-/sql.csv", "/-/sql.csv?sql=select+1"), ("/{database}.json", "/corpus.json?sql=select+1")]:
            status, headers, body = get(server, url)
            answer = spec["paths"][template]["get"]["responses"][str(status)]
            content = spec["components"]["responses"][answer["$ref"].rsplit("/", 1)[1]]["content"]
            kind = headers["Content-Type"].split(";")[0]
            assert status == 403 and kind in content, (url, status, kind)
            if kind == "application/json":
                document = json.loads(body)
                assert all(key in document for key in required) and document["ok"] is False and document["status"] == 403, document
    finally:
        stop_server(process)


def run_schemathesis(server, *options, config=None):
    """Runs schemathesis against `server`'s document with `options`, and `config` (a
    schemathesis.toml) when given."""
    result = subprocess.run(
        [sys.executable, "-m", "schemathesis.cli", *(["--config-file", str(config)] if config else []), "run", server + "/openapi.json", *options,
         # The event stream never ends by design; its behaviour has its own tests.
         "--exclude-path", "/pages/{page}/events", "--exclude-path", "/-/events",
         "--checks", "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance",
         # One worker: CPython 3.11's AST builder keeps its recursion depth per interpreter, not
         # per thread, so hypothesis describing a lambda (ast.parse) in two schemathesis workers at
         # once fails now and then with "AST constructor recursion depth mismatch" (seen in the
         # examples phase and, before, in the coverage phase, which is left out for that reason).
         # The time limit bounds the run; the fuzzing phase reaches every operation within it.
         "--phases", "examples,fuzzing,stateful",
         "--max-examples", "40", "--seed", "7", "--workers", "1", "--max-time", "60"],
        capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
