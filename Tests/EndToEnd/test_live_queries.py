"""Canned queries as live pages (`/pages/queries~2F{name}`), on SQLite and on PostgreSQL (with
`--watch`): a watcher of `SELECT status, count(*) FROM orders GROUP BY status` receives a patch of
exactly the changed group within 1 s of an insert by the `sqlite3` shell or by `psql`; a variant
with other parameter values hears nothing of rows it does not show; a burst of writes is re-run at most once per 250 ms and the last state always arrives; a row
of the result has its own URL."""
import json
import sqlite3
import subprocess
import time
import urllib.parse

import pytest

from conftest import psql, reader_url, start_server, stop_server
from test_database_live import Events
from test_journeys_database_tools import make_orders
from test_sql_page import get

CONFIG = {"queries": {
    "status_counts": {"title": "Orders by status", "sql": "select status, count(*) as n from orders group by status order by status"},
    "of_customer": {"sql": "select id, status from orders where customer = :customer order by id"},
}}


def copy_orders_to_postgres(path, url, extra=""):
    """The orders of the SQLite file at `path` (test_journeys_database_tools.make_orders) as a
    PostgreSQL table, and `extra` SQL after."""
    with sqlite3.connect(path) as db:
        rows = db.execute("select * from orders").fetchall()
    values = ", ".join("({}, '{}', '{}', {}, '{}', '{}')".format(*row) for row in rows)
    psql(url, "CREATE TABLE orders (id serial PRIMARY KEY, customer text, status text, total double precision, placed text, code text);"
              f"INSERT INTO orders VALUES {values}; SELECT setval('orders_id_seq', 1000);" + extra)


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def site(request, tmp_path_factory):
    """(base URL, a function running SQL on the served database as another client would)."""
    directory = tmp_path_factory.mktemp("live-queries")
    database = directory / "shop.sqlite"
    make_orders(database)
    (directory / "site.json").write_text(json.dumps(CONFIG))
    if request.param == "sqlite":
        with sqlite3.connect(database) as db:
            db.execute("PRAGMA journal_mode = WAL")
        process, base = start_server(directory, "--database", str(database), "--config", str(directory / "site.json"))
        yield base, lambda sql: subprocess.run(["sqlite3", str(database), sql], check=True, capture_output=True, text=True).stdout
        stop_server(process)
        return
    from test_postgres_tables import drop_database, fresh_database
    cluster = request.getfixturevalue("postgres_cluster")
    url = fresh_database(cluster, "pg_live_queries")
    copy_orders_to_postgres(database, url)
    process, base = start_server(directory, "--database", url, "--watch", "--config", str(directory / "site.json"), "--sql-url", reader_url(url))
    yield base, lambda sql: psql(url, sql)
    stop_server(process)
    drop_database(cluster, "pg_live_queries")


def events(base, name, **parameters):
    query = urllib.parse.urlencode(parameters)
    return Events(f"{base}/pages/queries~2F{name}/events" + ("?" + query if query else ""))


def counts(run):
    return {line.split("|")[0]: int(line.split("|")[1]) for line in run("select status, count(*) from orders group by status").splitlines() if line}


def test_an_insert_patches_exactly_the_changed_group_within_a_second(site):
    base, run = site
    _, _, body = get(base, "/pages/queries~2Fstatus_counts.json")
    rows = json.loads(body)["sections"][0]["rows"]
    paid = next(row for row in rows if row["fields"]["status"] == "paid")
    assert paid["fields"]["n"] == counts(run)["paid"]
    assert_each_insert_patches_the_group(run, events(base, "status_counts"), paid["id"], "canned query")


def assert_each_insert_patches_the_group(run, watcher, row, what, unordered=False):
    """Five paid orders inserted one by one: each is one patch, within 1 s, that replaces `row` (the
    "paid" group) with the new count, and nothing else. Closes `watcher`.

    `unordered`: the query has no ORDER BY, so the database may return its groups in another order
    after a write (PostgreSQL's planner switches between hashing and sorting as its statistics
    change), and the patch then also moves rows, as it should; only moves are allowed besides."""
    try:
        latencies = []
        for _ in range(5):
            started = time.monotonic()
            run("insert into orders (customer, status, total) values ('Ada Lovelace', 'paid', 1.5)")
            event = watcher.next(timeout=5)
            latencies.append(event["at"] - started)
            ops = event["patch"]["ops"]
            if unordered:
                ops = [op for op in ops if op["op"] != "move"]
            assert [(op["op"], op["row"]) for op in ops] == [("replace", row)], ops
            assert f">{counts(run)['paid']}<" in ops[0]["html"]
        assert max(latencies) < 1.0, latencies
        print(f"insert to patch ({what}): median {sorted(latencies)[2] * 1000:.0f} ms, max {max(latencies) * 1000:.0f} ms")
    finally:
        watcher.close()


def test_a_variant_hears_only_of_its_own_rows(site):
    base, run = site
    ada, grace = events(base, "of_customer", customer="Ada Lovelace"), events(base, "of_customer", customer="Grace Hopper")
    try:
        run("insert into orders (customer, status, total) values ('Grace Hopper', 'pending', 2)")
        event = grace.next(timeout=5)
        # The new row, and the header's row count.
        assert [op["op"] for op in event["patch"]["ops"]] == ["insert", "replace-header"], event["patch"]
        with pytest.raises(Exception):
            ada.next(timeout=1)
    finally:
        ada.close()
        grace.close()


def test_a_burst_of_writes_reruns_at_most_four_times_a_second_and_ends_right(site):
    base, run = site
    watcher = events(base, "status_counts")
    try:
        started = time.monotonic()
        for _ in range(20):
            run("insert into orders (customer, status, total) values ('Ada Lovelace', 'shipped', 1)")
        duration = time.monotonic() - started
        received = []
        while True:
            try:
                received.append(watcher.next(timeout=1.5))
            except Exception:
                break
        assert 1 <= len(received) <= duration / 0.25 + 2, (len(received), duration)
        assert f">{counts(run)['shipped']}<" in received[-1]["patch"]["ops"][-1]["html"]
    finally:
        watcher.close()


def test_a_row_of_a_live_query_has_its_own_url(site):
    base, _ = site
    _, _, body = get(base, "/pages/queries~2Fstatus_counts.json")
    row = json.loads(body)["sections"][0]["rows"][0]["id"]
    status, _, page = get(base, f"/pages/queries~2Fstatus_counts/rows/{row}")
    assert status == 200 and "tk-row-page" in page.decode()
