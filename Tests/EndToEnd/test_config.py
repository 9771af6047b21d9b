"""`serve --config FILE`: a configuration file's table titles, descriptions, label columns and hidden
tables reach the index, the pages and Datasette's `_labels`; its canned queries are pages of their
own (HTML, JSON, CSV) for every reader, even with `--sql off`; a mistake in the file stops the server
at startup with a message naming the file and the key or line (docs/operations.md, "The
configuration file")."""
import json
import subprocess

import pytest

from conftest import BINARY, start_datasette, start_server, stop_server
from datasette_corpus import build
from test_sql_page import get

CONFIG = {
    "tables": {
        "customer": {"title": "Customers", "description": "Everyone who <b>bought</b> & paid", "label_column": "city"},
        "tally": {"hidden": True},
    },
    "queries": {
        "by_city": {"title": "Customers in a city", "description": "Pick a city", "sql": "select id, name from customer where city = :city order by id"},
    },
}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    directory = tmp_path_factory.mktemp("config")
    path = str(directory / "corpus.db")
    build(path)
    (directory / "site.json").write_text(json.dumps(CONFIG))
    process, base = start_server(directory, "--database", path, "--config", str(directory / "site.json"), "--sql", "off")
    yield base
    stop_server(process)


def test_tables_are_titled_described_labelled_and_hidden(site):
    _, _, body = get(site, "/.json")
    index = json.loads(body)
    pages = {page["name"]: page for page in index["pages"]}
    assert pages["customer"]["title"] == "Customers" and pages["customer"]["summary"] == "Everyone who <b>bought</b> & paid"
    assert "tally" not in pages
    assert get(site, "/pages/tally.json")[0] == 200, "a hidden table is still served"
    # --sql off: the SQL page is not on the index, the canned query is.
    assert index["links"] == [{"title": "Customers in a city", "summary": "Pick a city", "url": "/-/queries/by_city"}]
    _, _, body = get(site, "/corpus/purchase.json?_labels=on&_shape=objects&_size=1")
    assert json.loads(body)["rows"][0]["customer_id"] == {"value": 2, "label": "City 2"}


def test_a_tables_description_is_on_its_page_under_the_title(site):
    status, _, body = get(site, "/pages/customer")
    page = body.decode()
    assert status == 200, page
    title = page.index('<h1 class="tk-title">Customers</h1>')
    description = page.index('<p class="tk-db-description">Everyone who &lt;b&gt;bought&lt;/b&gt; &amp; paid</p>')
    # Right under the title: the header view (the row count, the forms) follows it.
    assert title < description < page.index('class="tk-db-count"'), page[title:title + 600]
    assert "<b>bought</b>" not in page
    document = json.loads(get(site, "/pages/customer.json")[2])
    assert document["headerView"]["fields"]["tableDescription"] == "Everyone who <b>bought</b> & paid"
    # A table the file does not describe has none (its index entry lists its columns instead).
    assert "tk-db-description" not in get(site, "/pages/purchase")[2].decode()
    assert "tableDescription" not in json.loads(get(site, "/pages/purchase.json")[2])["headerView"]["fields"]
    # Datasette's table JSON has no such key, and TablePages adds none at its URLs.
    assert "description" not in json.loads(get(site, "/corpus/customer.json")[2])


def test_a_canned_query_is_a_page_for_every_reader(site):
    status, _, body = get(site, "/-/queries/by_city.json?city=City+1")
    document = json.loads(body)
    assert status == 200 and document["query_name"] == "by_city" and document["allow_execute_sql"] is False
    assert document["rows"] == [[1, "Customer 1 ü"], [5, "Customer 5 ü"]]
    assert document["query"]["params"] == {"city": "City 1"}
    status, _, body = get(site, "/-/queries/by_city.csv?city=City+1")
    assert status == 200 and body.decode() == "id,name\r\n1,Customer 1 ü\r\n5,Customer 5 ü\r\n"
    status, _, body = get(site, "/-/queries/by_city?city=City+1")
    page = body.decode()
    assert status == 200 and "<h1>Customers in a city</h1>" in page and 'name="city" value="City 1"' in page and "<textarea" not in page
    assert get(site, "/-/queries/nope.json")[0] == 404
    # The visitor's own SQL stays off.
    assert get(site, "/-/sql.json?sql=select+1")[0] == 403


def test_a_canned_query_answers_as_datasettes(tmp_path):
    """The same canned query in Datasette 0.65.5's metadata: the same document but `query_ms`."""
    path = str(tmp_path / "corpus.db")
    build(path)
    (tmp_path / "site.json").write_text(json.dumps(CONFIG))
    (tmp_path / "metadata.json").write_text(json.dumps({"databases": {"corpus": {"queries": CONFIG["queries"]}}}))
    ours, our_base = start_server(tmp_path, "--database", path, "--config", str(tmp_path / "site.json"))
    theirs, their_base = start_datasette(path, "-m", str(tmp_path / "metadata.json"))
    try:
        for query in ["city=City+1", "city=City+2&_shape=objects", "city=nowhere", "_shape=array&city=City+3"]:
            our_status, _, our_body = get(our_base, "/-/queries/by_city.json?" + query)
            their_status, _, their_body = get(their_base, "/corpus/by_city.json?" + query)
            mine, expected = json.loads(our_body), json.loads(their_body)
            for document in (mine, expected):
                if isinstance(document, dict):
                    document.pop("query_ms", None)
            assert our_status == their_status == 200 and mine == expected, (query, mine, expected)
    finally:
        theirs.terminate()
        theirs.wait(timeout=10)
        stop_server(ours)


@pytest.mark.parametrize("text, says", [
    ('{"tables": {"customer": {"lable_column": "city"}}}', "tables.customer.lable_column: unknown key"),
    ('{"tables": {"custmer": {}}}', "tables.custmer: the database has no table or view of this name"),
    ('{"queries": {"q": {"title": "no sql"}}}', "queries.q.sql: missing"),
    ('{"tables": {"customer": {"hidden": "yes"}}}', "tables.customer.hidden: should be true or false"),
    ('{\n  "tables": {\n    "customer" {}\n  }\n}', "line 3, column 16: is not valid JSON"),
])
def test_a_mistake_in_the_file_stops_the_server_naming_file_and_key(tmp_path, text, says):
    path = str(tmp_path / "corpus.db")
    build(path)
    config = tmp_path / "bad.json"
    config.write_text(text)
    finished = subprocess.run([BINARY, "serve", "--port", "0", "--database", path, "--config", str(config)],
                              capture_output=True, text=True, timeout=30)
    assert finished.returncode != 0
    assert f"--config {config}: {says}" in finished.stderr, finished.stderr


def refused_at_startup(database, config, *arguments):
    """The stderr of a server that must refuse to start for its configuration file, checked to be
    one line of the error (no stack) and a non-zero exit."""
    finished = subprocess.run([BINARY, "serve", "--port", "0", "--database", database, "--config", str(config), *arguments],
                              capture_output=True, text=True, timeout=60)
    assert finished.returncode != 0, finished.stderr
    lines = [line for line in finished.stderr.splitlines() if f"--config {config}:" in line]
    assert len(lines) == 1, finished.stderr
    assert "Fatal error" not in finished.stderr and "Stack" not in finished.stderr, finished.stderr
    # The log line escapes quotes, as every log line does.
    return lines[0].replace('\\"', '"')


@pytest.mark.parametrize("sql, says", [
    ("select id, name from custmer where city = :city", "queries.q.sql: no such table: custmer"),
    ("selct * from customer", 'queries.q.sql: near "selct": syntax error'),
    ("select nme from customer", "queries.q.sql: no such column: nme"),
    ("delete from customer where id = :id", "queries.q.sql: Only SELECT statements are allowed"),
    ("select 1; select 2", "queries.q.sql: Only one statement can run at a time"),
    ("attach database '/tmp/x.db' as x", "queries.q.sql: ATTACH"),
    ("select * from customer where id = ?", "queries.q.sql: Name every parameter"),
])
def test_a_canned_query_the_database_refuses_stops_the_server(tmp_path, sql, says):
    """Each canned query is prepared (not run) at startup on the SQL page's read-only connection: SQL
    that SQLite cannot prepare, or that would write, stops the server naming the file, the query
    and SQLite's own message, before the server listens."""
    path = str(tmp_path / "corpus.db")
    build(path)
    config = tmp_path / "bad.json"
    good = {"title": "fine", "sql": "select id from customer where city = :city"}
    config.write_text(json.dumps({"queries": {"a_good_one": good, "q": {"sql": sql}}}))
    line = refused_at_startup(path, config)
    assert f"--config {config}: {says}" in line, line
    # The good query alone starts, with its parameter left unfilled at startup.
    config.write_text(json.dumps({"queries": {"a_good_one": good}}))
    process, base = start_server(tmp_path, "--database", path, "--config", str(config))
    try:
        assert get(base, "/-/queries/a_good_one.json?city=City+1")[0] == 200
    finally:
        stop_server(process)
