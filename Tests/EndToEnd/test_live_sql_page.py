"""The SQL page's "Watch live" (`/pages/-~2Fsql?sql=…`), on SQLite and on PostgreSQL (with
`--watch`): a watcher of an ad-hoc `SELECT status, count(*) FROM orders GROUP BY status` receives
a patch of exactly the changed group within 1 s of an insert by the `sqlite3` shell or by `psql`;
the live URL refuses what the SQL page refuses (a write statement 400, `--sql off` 403,
`--sql signed-in` 401 for an anonymous client), and past `--sql-live-queries` watched queries a new one is 503."""
import html
import json
import re
import subprocess
import time
import urllib.parse

from conftest import start_server, stop_server
from test_database_live import Events
from test_journeys_database_tools import make_orders
from test_live_queries import assert_each_insert_patches_the_group, counts, site  # noqa: F401  (a fixture)
from test_sql_page import get

SQL = "SELECT status, count(*) FROM orders GROUP BY status"


def watch_link(base, sql, **parameters):
    """The SQL page's "Watch live" link for `sql` with `parameters`."""
    status, _, body = get(base, "/-/sql?" + urllib.parse.urlencode({"sql": sql, **parameters}))
    assert status == 200, body
    found = re.search(r'<a class="tp-sql-watch" href="([^"]+)">Watch live</a>', body.decode())
    assert found, body.decode()
    return html.unescape(found.group(1))


def events_of(base, link):
    path, _, query = link.partition("?")
    return Events(f"{base}{path}/events?{query}")


def test_an_insert_patches_exactly_the_changed_group_of_an_ad_hoc_query_within_a_second(site):  # noqa: F811
    base, run = site
    link = watch_link(base, SQL)
    assert link.startswith("/pages/-~2Fsql?"), link
    path, _, query = link.partition("?")
    _, _, body = get(base, f"{path}.json?{query}")
    rows = json.loads(body)["sections"][0]["rows"]
    paid = next(row for row in rows if row["fields"]["status"] == "paid")
    # SQLite names the column `count(*)`, PostgreSQL `count`.
    assert [value for name, value in paid["fields"].items() if name != "status"] == [counts(run)["paid"]]
    # The query, as a person types it: no ORDER BY.
    assert_each_insert_patches_the_group(run, events_of(base, link), paid["id"], "ad-hoc SQL", unordered=True)


def test_parameters_are_part_of_the_live_query(site):  # noqa: F811
    base, run = site
    link = watch_link(base, "select id, status from orders where customer = :customer order by id", customer="Grace Hopper")
    assert "customer=Grace+Hopper" in link, link
    watcher = events_of(base, link)
    try:
        run("insert into orders (customer, status, total) values ('Ada Lovelace', 'pending', 2)")
        run("insert into orders (customer, status, total) values ('Grace Hopper', 'pending', 2)")
        ops = watcher.next(timeout=5)["patch"]["ops"]
        # Grace's new row and the header's row count; Ada's row is not this query's.
        assert [op["op"] for op in ops] == ["insert", "replace-header"], ops
    finally:
        watcher.close()


def test_a_write_statement_is_refused_on_the_live_url_as_on_the_sql_page(site):  # noqa: F811
    base, _ = site
    sql = urllib.parse.urlencode({"sql": "delete from orders"})
    page_status, _, page_body = get(base, f"/-/sql.json?{sql}")
    live_status, _, live_body = get(base, f"/pages/-~2Fsql.json?{sql}")
    assert page_status == live_status == 400, (page_body, live_body)
    status, _, _ = get(base, "/pages/-~2Fsql")
    assert status == 400


def test_sql_off_and_signed_in_refuse_the_live_url(tmp_path):
    database = tmp_path / "shop.sqlite"
    make_orders(database)
    query = urllib.parse.urlencode({"sql": SQL})
    process, base = start_server(tmp_path, "--database", str(database), "--sql", "off")
    try:
        assert get(base, f"/-/sql?{query}")[0] == 403
        status, _, body = get(base, f"/pages/-~2Fsql.json?{query}")
        assert status == 403 and "--sql off" in body.decode(), body
    finally:
        stop_server(process)
    process, base = start_server(tmp_path, "--database", str(database), "--sql", "signed-in", anonymous_writes=False)
    try:
        assert get(base, f"/-/sql?{query}")[0] == 403
        # Signing in would help: the page server's 401.
        assert get(base, f"/pages/-~2Fsql.json?{query}")[0] == 401
    finally:
        stop_server(process)


def test_past_the_bound_a_new_query_drops_an_unwatched_one_or_is_503(tmp_path):
    database = tmp_path / "shop.sqlite"
    make_orders(database)
    process, base = start_server(tmp_path, "--database", str(database), "--sql-live-queries", "2")
    watchers = []
    try:
        links = [watch_link(base, f"select {n} as n, count(*) from orders") for n in range(4)]
        # Unwatched queries make way for new ones.
        for link in links:
            path, _, query = link.partition("?")
            assert get(base, f"{path}.json?{query}")[0] == 200
        watchers = [events_of(base, link) for link in links[:2]]
        path, _, query = links[2].partition("?")
        status, headers, body = get(base, f"{path}.json?{query}")
        assert status == 503 and headers["Retry-After"], body
        watchers.pop().close()
        deadline = time.monotonic() + 10
        while get(base, f"{path}.json?{query}")[0] != 200:
            assert time.monotonic() < deadline, "a query stayed refused after a watcher left"
            # The server learns that a watcher left when it next writes to it: a change makes it write.
            subprocess.run(["sqlite3", str(database), "insert into orders (customer, status, total) values ('Ada Lovelace', 'paid', 1)"], check=True)
            time.sleep(0.5)
    finally:
        for watcher in watchers:
            watcher.close()
        stop_server(process)
