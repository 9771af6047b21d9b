"""The SQL page (/-/sql, .json, .csv) and Datasette's /{database}.json?sql=…: TablePages and
Datasette 0.65.5 run the same queries on the same generated file (datasette_corpus.py) and must
answer alike — every key of the document but `query_ms`, in each `_shape` — with 0 rows different.
Refusals (writes, ATTACH, PRAGMA settings, file functions), syntax errors and the row limit are
checked against TablePages' own documented answers (docs/operations.md, "The SQL page")."""
import csv
import io
import json
import urllib.error
import urllib.parse
import urllib.request

import pytest

from conftest import start_server, stop_server
from datasette_corpus import build
# Datasette 0.65.5 and TablePages on one generated corpus, as the table API's comparison has them.
from test_datasette_api import servers  # noqa: F401  (a fixture)

QUERIES = [
    ("select * from sortable order by id", {}),
    ("select * from no_pk", {}),
    ("select * from one_column", {}),
    ("select currency, count(*) as n, sum(tally_id) as t from purchase group by currency order by currency", {}),
    ("select * from customer where city = :city or id = :id order by id", {"city": "City 1", "id": "3"}),
    ("select * from customer where name like :pattern order by id", {"pattern": "%ü%"}),
    ("select p.id, c.name, p.note from purchase p left join customer c on c.id = p.customer_id where p.id > :after order by p.id", {"after": "20"}),
    ("select :missing as m, 'it''s :not' as literal -- :comment", {}),
    ("select 1.5 as r, 1e20 as big, 0.1 + 0.2 as sum, -0.0 as z, 1/0 as no_value, x'00ff' as blob, x'6869' as text_blob, '' as empty", {}),
    ("with recursive n(i) as (select 1 union all select i + 1 from n where i < 30) select i, i * i from n", {}),
    ("select * from compound_three order by x, y, z", {}),
    ("select name from pragma_table_info('purchase')", {}),
    # No rows: the columns are still named, as Datasette names them.
    ("select id, name as who, 1 as one from customer where id < 0", {}),
]


def get(base, path):
    """(status, headers, body bytes) of a GET."""
    try:
        with urllib.request.urlopen(base + path, timeout=30) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def query_path(prefix, sql, params, **extra):
    return prefix + "?" + urllib.parse.urlencode({"sql": sql, **params, **extra})


def without_timing(document):
    return {key: value for key, value in document.items() if key != "query_ms"} if isinstance(document, dict) else document


@pytest.mark.parametrize("shape", ["arrays", "objects", "array"])
def test_query_json_matches_datasette(servers, shape):
    ours, theirs, _ = servers
    differences = []
    for sql, params in QUERIES:
        extra = {} if shape == "arrays" else {"_shape": shape}
        our_status, _, our_body = get(ours, query_path("/corpus.json", sql, params, **extra))
        their_status, _, their_body = get(theirs, query_path("/corpus.json", sql, params, **extra))
        assert our_status == their_status == 200, (sql, our_body[:300], their_body[:300])
        mine, theirs_document = without_timing(json.loads(our_body)), without_timing(json.loads(their_body))
        if mine != theirs_document:
            differences.append((sql, mine, theirs_document))
        # The SQL page's own JSON is the same document.
        _, _, own = get(ours, query_path("/-/sql.json", sql, params, **extra))
        assert without_timing(json.loads(own)) == mine
    assert differences == []


def test_newline_delimited_array_matches_datasette(servers):
    ours, theirs, _ = servers
    sql = "select * from sortable order by id limit 5"
    _, our_headers, our_body = get(ours, query_path("/corpus.json", sql, {}, _shape="array", _nl="on"))
    _, _, their_body = get(theirs, query_path("/corpus.json", sql, {}, _shape="array", _nl="on"))
    assert our_body == their_body
    assert our_headers["Content-Type"].startswith("text/plain")


def test_syntax_error_is_a_400_document_as_datasette_writes_it(servers):
    ours, theirs, _ = servers
    sql = "select * fro sortable"
    our_status, _, our_body = get(ours, query_path("/corpus.json", sql, {}))
    their_status, _, their_body = get(theirs, query_path("/corpus.json", sql, {}))
    assert our_status == their_status == 400
    assert without_timing(json.loads(our_body)) == without_timing(json.loads(their_body))


@pytest.mark.parametrize("sql, says", [
    ("insert into customer (name) values ('x')", "would insert rows"),
    ("update customer set name = 'x'", "would update rows"),
    ("attach database 'other.db' as other", "ATTACH is refused"),
    ("pragma query_only = 0", "is refused: it changes a setting"),
    ("select load_extension('evil')", "load_extension() is refused"),
    ("select * from customer; delete from customer", "would delete rows"),
    ("select 1; select 2", "multiple statements"),
])
def test_writes_attach_pragma_settings_and_file_functions_are_400s_that_say_why(servers, sql, says):
    ours, _, path = servers
    for prefix in ["/-/sql.json", "/corpus.json", "/-/sql.csv", "/-/sql"]:
        status, _, body = get(ours, query_path(prefix, sql, {}))
        assert status == 400, (prefix, sql, body[:300])
        assert says.lower() in body.decode().lower(), (prefix, sql, body[:500])
    import sqlite3
    with sqlite3.connect(path) as db:
        assert db.execute("select count(*) from customer where name = 'x'").fetchone()[0] == 0


def test_row_limit_truncates_and_says_so(tmp_path):
    path = str(tmp_path / "corpus.db")
    build(path)
    process, base = start_server(tmp_path, "--database", path, "--sql-row-limit", "25")
    try:
        numbers = "with recursive n(i) as (select 1 union all select i + 1 from n where i < 100) select i from n"
        status, _, body = get(base, query_path("/-/sql.json", numbers, {}))
        document = json.loads(body)
        assert status == 200 and document["rows"] == [[i] for i in range(1, 26)] and document["truncated"] is True
        _, _, page = get(base, query_path("/-/sql", numbers, {}))
        assert "25 rows (more were left out" in page.decode()
        _, _, whole = get(base, query_path("/-/sql.json", numbers + " limit 25", {}))
        assert json.loads(whole)["truncated"] is False
    finally:
        stop_server(process)


def test_csv_matches_the_json_rows(servers):
    ours, _, _ = servers
    sql = "select id, name, city from customer order by id"
    _, headers, body = get(ours, query_path("/-/sql.csv", sql, {}))
    assert headers["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(body.decode())))
    _, _, document = get(ours, query_path("/-/sql.json", sql, {}))
    expected = json.loads(document)
    assert rows[0] == expected["columns"]
    assert rows[1:] == [["" if value is None else str(value) for value in row] for row in expected["rows"]]


def assert_columns_without_rows(base, sql, columns):
    """A query without rows names its columns in JSON (`columns`), CSV (the header line) and HTML
    (the table's header), the same on SQLite and PostgreSQL."""
    status, _, body = get(base, query_path("/-/sql.json", sql, {}))
    document = json.loads(body)
    assert status == 200 and document["rows"] == [] and document["columns"] == columns, body
    status, _, body = get(base, query_path("/-/sql.csv", sql, {}))
    assert status == 200 and list(csv.reader(io.StringIO(body.decode()))) == [columns], body
    status, _, body = get(base, query_path("/-/sql", sql, {}))
    page = body.decode()
    assert status == 200 and "0 rows" in page, page
    assert page.count('<th scope="col"') == len(columns), page
    for column in columns:
        assert '<th scope="col">' + column + "</th>" in page, page


def test_a_query_without_rows_still_names_its_columns(servers):
    ours, _, _ = servers
    assert_columns_without_rows(ours, "select id, name as who, 1 as one, id from customer where id < 0", ["id", "who", "one", "id"])


def test_html_page_has_a_field_per_parameter_and_escapes_values(servers):
    ours, _, _ = servers
    status, headers, body = get(ours, query_path("/-/sql", "select :who || '<b>' as greeting, :n as n", {"who": "<i>Ida</i>"}))
    page = body.decode()
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert 'name="who" value="&lt;i&gt;Ida&lt;/i&gt;"' in page and 'name="n" value=""' in page
    assert "<td>&lt;i&gt;Ida&lt;/i&gt;&lt;b&gt;</td>" in page


def test_database_page_with_sql_redirects_to_the_sql_page(servers):
    ours, _, _ = servers
    request = urllib.request.Request(ours + "/corpus?sql=select+1")

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None
    try:
        urllib.request.build_opener(NoRedirect).open(request, timeout=10)
        raise AssertionError("no redirect")
    except urllib.error.HTTPError as error:
        assert error.code == 302 and error.headers["Location"] == "/-/sql?sql=select+1"


@pytest.mark.parametrize("flag, signed_in_status, anonymous_status", [("off", 403, 403), ("signed-in", 200, 403)])
def test_the_sql_flag_says_who_may_run_sql(tmp_path, flag, signed_in_status, anonymous_status):
    from conftest import sign_in, sign_in_url
    path = str(tmp_path / "corpus.db")
    build(path)
    process, base = start_server(tmp_path, "--database", path, "--sql", flag, anonymous_writes=False)
    try:
        status, _, body = get(base, query_path("/-/sql.json", "select 1 as one", {}))
        assert status == anonymous_status, body
        assert b"--sql " + flag.encode() in body
        status, _, _ = get(base, query_path("/corpus.json", "select 1 as one", {}))
        assert status == anonymous_status
        if flag == "signed-in":
            # The database is read-only, yet the server offers the sign-in link: it lets one run SQL.
            _, cookie = sign_in(sign_in_url(tmp_path))
            request = urllib.request.Request(base + query_path("/-/sql.json", "select 1 as one", {}), headers={"Cookie": cookie})
            with urllib.request.urlopen(request, timeout=10) as response:
                assert response.status == signed_in_status
                assert json.loads(response.read())["rows"] == [[1]]
    finally:
        stop_server(process)
