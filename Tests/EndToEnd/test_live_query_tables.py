"""A live query re-runs only when a change touches a table it reads. On PostgreSQL with `--watch`
the triggers name the table each write changed, and the server learns the tables a query reads
from its plan (views expanded, partitions taken as their partitioned table; a query calling a
function of the database's own may read anything, so it re-runs on every change): a write to an
unrelated table leaves the query alone (`tablepages_live_rereads_total` stays flat and no patch
comes), while a write to its table, through a view or a partitioned table, still patches within
1 s. SQLite tells only that the file changed: there every change re-runs every watched query."""
import json
import re
import subprocess
import sqlite3
import time
import urllib.parse
import urllib.request

import pytest

from conftest import psql, reader_url, start_server, stop_server
from test_database_live import Events
from test_journeys_database_tools import make_orders
from test_live_queries import copy_orders_to_postgres
from test_live_query_watchers import rereads
from test_sql_page import get

SCHEMA = """
CREATE TABLE customers (id integer PRIMARY KEY, name text);
CREATE VIEW paid_orders AS SELECT id, customer, total FROM orders WHERE status = 'paid';
"""
PARTITIONED = """
CREATE TABLE visits (id integer, kind text, PRIMARY KEY (id, kind)) PARTITION BY LIST (kind);
CREATE TABLE visits_web PARTITION OF visits FOR VALUES IN ('web');
CREATE TABLE visits_shop PARTITION OF visits FOR VALUES IN ('shop');
INSERT INTO visits VALUES (1, 'web'), (2, 'shop');
CREATE FUNCTION paid_count() RETURNS bigint LANGUAGE sql STABLE AS $$ SELECT count(*) FROM orders WHERE status = 'paid' $$;
"""


@pytest.fixture(scope="module", params=["postgresql", "sqlite"])
def shop(request, tmp_path_factory):
    """(base URL, a function running SQL as another client would, whether the store names the tables a change touched)."""
    directory = tmp_path_factory.mktemp("live-query-tables")
    database = directory / "shop.sqlite"
    make_orders(database)
    if request.param == "sqlite":
        with sqlite3.connect(database) as db:
            db.executescript("PRAGMA journal_mode = WAL;" + SCHEMA)
        process, base = start_server(directory, "--database", str(database))
        yield base, lambda sql: subprocess.run(["sqlite3", str(database), sql], check=True, capture_output=True, text=True).stdout, False
        stop_server(process)
        return
    from test_postgres_tables import drop_database, fresh_database
    cluster = request.getfixturevalue("postgres_cluster")
    url = fresh_database(cluster, "pg_live_query_tables")
    copy_orders_to_postgres(database, url, SCHEMA + PARTITIONED)
    process, base = start_server(directory, "--database", url, "--watch", "--sql-url", reader_url(url))
    yield base, lambda sql: psql(url, sql), True
    stop_server(process)
    drop_database(cluster, "pg_live_query_tables")


def watch(base, sql):
    """The live page of `sql`: (its rows by id, a watcher of its patches)."""
    query = urllib.parse.urlencode({"sql": sql})
    status, _, body = get(base, f"/pages/-~2Fsql.json?{query}")
    assert status == 200, body
    rows = {row["id"]: row["fields"] for row in json.loads(body)["sections"][0]["rows"]}
    return rows, Events(f"{base}/pages/-~2Fsql/events?{query}")


def assert_patched_within_a_second(run, watcher, write):
    started = time.monotonic()
    run(write)
    event = watcher.next(timeout=5)
    assert event["at"] - started < 1.0, event["at"] - started
    return event["patch"]["ops"]


def skipped(base):
    text = urllib.request.urlopen(base + "/metrics", timeout=5).read().decode()
    found = re.search(r"^tablepages_live_query_changes_skipped_total (\d+)", text, re.MULTILINE)
    return int(found.group(1)) if found else 0


def assert_unrelated_writes_rerun_nothing(base, run, watcher, tells):
    before, passed_over = rereads(base), skipped(base)
    for number in range(3):
        run(f"insert into customers (id, name) values ((select coalesce(max(id), 0) + 1 from customers), 'Ada {number}')")
        time.sleep(0.35)
    # Longer than the change poll (SQLite) and the throttle: a re-run would have happened by now.
    time.sleep(0.6)
    if tells:
        assert rereads(base) == before, "a write to a table the query does not read re-ran it"
        assert skipped(base) >= passed_over + 3, "each write passed the query over"
    else:
        assert rereads(base) > before, "SQLite cannot tell which table changed: every watched query re-runs"
        assert skipped(base) == passed_over
    # The result is the same either way: nothing to patch.
    with pytest.raises(Exception):
        watcher.next(timeout=0.5)


def test_a_write_to_another_table_does_not_rerun_the_query_and_one_to_its_table_patches(shop):
    base, run, tells = shop
    rows, watcher = watch(base, "select status, count(*) as n from orders group by status order by status")
    try:
        assert_unrelated_writes_rerun_nothing(base, run, watcher, tells)
        paid = next(id for id, fields in rows.items() if fields["status"] == "paid")
        before = rereads(base)
        ops = assert_patched_within_a_second(run, watcher, "insert into orders (customer, status, total) values ('Ada Lovelace', 'paid', 1)")
        assert [(op["op"], op["row"]) for op in ops] == [("replace", paid)], ops
        assert f">{rows[paid]['n'] + 1}<" in ops[0]["html"]
        assert rereads(base) >= before + 1
    finally:
        watcher.close()


def test_a_query_of_a_view_follows_the_table_the_view_reads(shop):
    base, run, tells = shop
    rows, watcher = watch(base, "select count(*) as n from paid_orders")
    try:
        assert_unrelated_writes_rerun_nothing(base, run, watcher, tells)
        ops = assert_patched_within_a_second(run, watcher, "insert into orders (customer, status, total) values ('Grace Hopper', 'paid', 2)")
        [count] = rows.values()
        # The one row's only column is its key: the new count is a new row in place of the old.
        assert any(f">{count['n'] + 1}<" in op.get("html", "") for op in ops), ops
    finally:
        watcher.close()


def test_a_query_of_a_partitioned_table_follows_writes_through_it(shop):
    base, run, tells = shop
    if not tells:
        pytest.skip("SQLite has no partitioned tables")
    rows, watcher = watch(base, "select kind, count(*) as n from visits group by kind order by kind")
    try:
        assert_unrelated_writes_rerun_nothing(base, run, watcher, tells)
        web = next(id for id, fields in rows.items() if fields["kind"] == "web")
        ops = assert_patched_within_a_second(run, watcher, "insert into visits values (3, 'web')")
        assert [(op["op"], op["row"]) for op in ops] == [("replace", web)] and ">2<" in ops[0]["html"], ops
    finally:
        watcher.close()


def test_a_query_calling_a_function_of_the_database_reruns_on_every_change(shop):
    base, run, tells = shop
    if not tells:
        pytest.skip("SQLite runs no functions of the database's own")
    # Its plan shows no table: the function reads orders out of the plan's sight.
    rows, watcher = watch(base, "select paid_count() as n")
    try:
        [count] = rows.values()
        ops = assert_patched_within_a_second(run, watcher, "insert into orders (customer, status, total) values ('Grace Hopper', 'paid', 2)")
        assert any(f">{count['n'] + 1}<" in op.get("html", "") for op in ops), ops
        before = rereads(base)
        run("insert into customers (id, name) values ((select coalesce(max(id), 0) + 1 from customers), 'Ada')")
        time.sleep(1)
        assert rereads(base) > before, "a function's query is not known not to read customers"
    finally:
        watcher.close()
