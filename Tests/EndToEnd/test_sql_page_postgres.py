"""The SQL page on PostgreSQL (`serve --database postgresql://…`): a read-only SELECT with named
parameters, whose rows are PostgreSQL's own (psql), as JSON, CSV and HTML; SQL that would write,
change a setting or read a file is a 400 that says why and changes nothing; a syntax error is a 400;
the query time limit is a 503 and the row limit truncates. The server runs on a private cluster
(scripts/postgres-cluster)."""
import csv
import io
import json
import subprocess
import urllib.parse

import pytest

from conftest import psql, reader_url, start_server, stop_server
from test_postgres_tables import drop_database, fresh_database, make_tables
from test_sql_page import assert_columns_without_rows, get, query_path


@pytest.fixture(scope="module")
def site(postgres_cluster, tmp_path_factory):
    name = "pg_sql_page"
    url = fresh_database(postgres_cluster, name)
    make_tables(url)
    process, base = start_server(tmp_path_factory.mktemp("pgsql"), "--database", url, "--sql-url", reader_url(url),
                                 "--query-time-limit", "500", "--sql-row-limit", "25")
    yield base, url
    stop_server(process)
    drop_database(postgres_cluster, name)


def psql_rows(url, sql):
    out = subprocess.run(["psql", url, "-X", "-A", "-t", "-F", "\t", "-c", sql], check=True, capture_output=True, text=True).stdout
    return [line.split("\t") for line in out.splitlines() if line]


def test_a_select_with_named_parameters_answers_postgresqls_rows(site):
    base, url = site
    sql = "select id, n, t, r from things where id > :after and (t = :t or :t = '') order by id limit 20"
    status, _, body = get(base, query_path("/-/sql.json", sql, {"after": "40"}, _shape="objects"))
    document = json.loads(body)
    assert status == 200 and document["ok"] is True, body
    assert document["columns"] == ["id", "n", "t", "r"]
    expected = json.loads(psql(url, "select json_agg(x) from (select id, n, t, r from things where id > 40 order by id limit 20) x"))
    assert document["rows"] == expected and len(expected) == 20
    assert document["query"]["params"] == {"after": "40", "t": ""}
    # The same parameter twice is one field and one value.
    status, _, page = get(base, query_path("/-/sql", sql, {"after": "40", "t": "zebra"}))
    assert status == 200 and page.decode().count('name="t"') == 1 and 'value="zebra"' in page.decode()


def test_values_of_postgresql_types(site):
    base, _ = site
    sql = "select true as b, 2.50::numeric as n, 12345678901234567890.125::numeric(30, 5) as exact, '{\"a\": [1]}'::jsonb as j, date '2024-02-29' as d, 'x'::varchar as v, '\\x00ff'::bytea as blob"
    status, _, body = get(base, query_path("/-/sql.json", sql, {}, _shape="objects"))
    assert status == 200, body
    row = json.loads(body)["rows"][0]
    assert row["b"] is True and row["n"] == 2.5 and row["exact"] == "12345678901234567890.125"
    assert json.loads(row["j"]) == {"a": [1]} and row["d"].startswith("2024-02-29") and row["v"] == "x"
    assert row["blob"] == {"$base64": True, "encoded": "AP8="}


@pytest.mark.parametrize("sql, says", [
    ("delete from things", "Only SELECT statements are allowed"),
    ("with gone as (delete from things returning id) select * from gone", "Only SELECT statements are allowed: WITH clause containing a data-modifying"),
    # The reader role (--sql-url) may not lock rows, nor run pg_read_file at all.
    ("select * from things for update", "permission denied for table things"),
    ("select set_config('statement_timeout', '0', false)", "set_config() is refused"),
    ("select pg_read_file('/etc/passwd')", "permission denied for function pg_read_file"),
    ("select query_to_xml('select set_config(''x.y'', ''1'', false)', true, true, '')", "is refused"),
    ("set statement_timeout = 0", "begins with SET"),
    ("select * fro things", "syntax error"),
    ("select * from nowhere", "does not exist"),
    ("select 1; delete from things", "multiple statements"),
    ("select 1; -- a comment\n select 2;", "multiple statements"),
    ("select * from things where id = :id", "invalid input syntax for type integer"),
])
def test_refusals_and_mistakes_are_400s_that_say_why(site, sql, says):
    base, url = site
    for prefix in ["/-/sql.json", "/-/sql", "/-/sql.csv"]:
        status, _, body = get(base, query_path(prefix, sql, {"id": "abc"} if ":id" in sql else {}))
        assert status == 400, (prefix, sql, body[:300])
        assert says.lower() in body.decode().lower(), (prefix, sql, body[:400])
    assert psql_rows(url, "select count(*) from things") == [["300"]]


def test_time_limit_is_a_503_and_later_queries_still_have_it(site):
    base, _ = site
    for _ in range(2):
        status, _, body = get(base, query_path("/-/sql.json", "select pg_sleep(2)", {}))
        assert status == 503 and b"500 ms" in body, body


def test_trailing_semicolons_and_comments_and_explain(site):
    base, _ = site
    for sql in ["select 1 as one;", "select 1 as one; ; -- done", "select 1 as one -- a comment"]:
        status, _, body = get(base, query_path("/-/sql.json", sql, {}))
        assert status == 200 and json.loads(body)["rows"] == [[1]], (sql, body)
    status, _, body = get(base, query_path("/-/sql.json", "explain select * from things", {}))
    assert status == 200 and json.loads(body)["columns"] == ["QUERY PLAN"], body


def test_row_limit_truncates_and_csv_has_the_rows(site):
    base, _ = site
    sql = "select i, i * 2 as double from generate_series(1, 100) as i"
    document = json.loads(get(base, query_path("/-/sql.json", sql, {}))[2])
    assert document["rows"] == [[i, i * 2] for i in range(1, 26)] and document["truncated"] is True
    status, headers, body = get(base, query_path("/-/sql.csv", sql, {}))
    rows = list(csv.reader(io.StringIO(body.decode())))
    assert status == 200 and rows[0] == ["i", "double"] and rows[1:] == [[str(i), str(i * 2)] for i in range(1, 26)]


def test_a_query_without_rows_still_names_its_columns(site):
    base, _ = site
    assert_columns_without_rows(base, "select id, t as who, 1 as one, id from things where id < 0", ["id", "who", "one", "id"])
    # With a named parameter, and a row count of zero that PostgreSQL learns only by running it.
    sql = "select n, r from things where t = :t"
    document = json.loads(get(base, query_path("/-/sql.json", sql, {"t": "no such text"}))[2])
    assert document["rows"] == [] and document["columns"] == ["n", "r"], document


@pytest.mark.parametrize("sql, says", [
    ("select id, t from thngs where t = :t", 'relation "thngs" does not exist'),
    ("select * fro things", "syntax error"),
    ("select * from things where id = :id and :id > 0 and nope = 1", 'column "nope" does not exist'),
    ("delete from things", "Only SELECT statements are allowed"),
    ("with gone as (delete from things returning id) select * from gone", "data-modifying"),
    ("select * from things for update", "permission denied for table things"),
    ("select set_config('x.y', '1', false)", "set_config() is refused"),
])
def test_a_canned_query_postgresql_refuses_stops_the_server(site, tmp_path, sql, says):
    """At startup each canned query is checked in a READ ONLY transaction, with its parameters NULL
    and its rows limited to none: a query PostgreSQL refuses stops the server, naming the file, the
    query and PostgreSQL's message; nothing is written."""
    from test_config import refused_at_startup
    _, url = site
    config = tmp_path / "bad.json"
    good = {"sql": "select id from things where id = :id and t = :t"}
    config.write_text(json.dumps({"queries": {"a_good_one": good, "q": {"sql": sql}}}))
    line = refused_at_startup(url, config, "--sql-url", reader_url(url))
    assert f"--config {config}: queries.q.sql: " in line and says.lower() in line.lower(), line
    assert psql_rows(url, "select count(*) from things") == [["300"]]
    config.write_text(json.dumps({"queries": {"a_good_one": good}}))
    process, base = start_server(tmp_path, "--database", url, "--config", str(config), "--sql-url", reader_url(url))
    try:
        status, _, body = get(base, "/-/queries/a_good_one.json?id=3&t=")
        assert status == 200, body
    finally:
        stop_server(process)


def test_a_tables_description_shows_on_its_postgresql_page(site, tmp_path):
    _, url = site
    config = tmp_path / "site.json"
    config.write_text(json.dumps({"tables": {"things": {"description": "Things & <stuff>"}}}))
    process, base = start_server(tmp_path, "--database", url, "--config", str(config))
    try:
        page = get(base, "/pages/things")[2].decode()
        assert '<p class="tk-db-description">Things &amp; &lt;stuff&gt;</p>' in page, page[:2000]
        assert json.loads(get(base, "/pages/things.json")[2])["headerView"]["fields"]["tableDescription"] == "Things & <stuff>"
    finally:
        stop_server(process)
