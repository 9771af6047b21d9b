"""Canned queries as live pages (`/pages/queries~2F{name}`): a watcher of `SELECT status, count(*)
FROM orders GROUP BY status` receives a patch of exactly the changed group within 1 s of an insert
by the `sqlite3` shell; a variant with other parameter values hears nothing of rows it does not
show; a burst of writes is re-run at most once per 250 ms and the last state always arrives; a row
of the result has its own URL."""
import json
import sqlite3
import subprocess
import time
import urllib.parse

import pytest

from conftest import start_server, stop_server
from test_database_live import Events
from test_journeys_database_tools import make_orders
from test_sql_page import get

CONFIG = {"queries": {
    "status_counts": {"title": "Orders by status", "sql": "select status, count(*) as n from orders group by status order by status"},
    "of_customer": {"sql": "select id, status from orders where customer = :customer order by id"},
}}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    directory = tmp_path_factory.mktemp("live-queries")
    database = directory / "shop.sqlite"
    make_orders(database)
    with sqlite3.connect(database) as db:
        db.execute("PRAGMA journal_mode = WAL")
    (directory / "site.json").write_text(json.dumps(CONFIG))
    process, base = start_server(directory, "--database", str(database), "--config", str(directory / "site.json"))
    yield base, str(database)
    stop_server(process)


def shell(database, sql):
    subprocess.run(["sqlite3", database, sql], check=True)


def events(base, name, **parameters):
    query = urllib.parse.urlencode(parameters)
    return Events(f"{base}/pages/queries~2F{name}/events" + ("?" + query if query else ""))


def counts(database):
    with sqlite3.connect(database) as db:
        return dict(db.execute("select status, count(*) from orders group by status"))


def test_an_insert_patches_exactly_the_changed_group_within_a_second(site):
    base, database = site
    _, _, body = get(base, "/pages/queries~2Fstatus_counts.json")
    rows = json.loads(body)["sections"][0]["rows"]
    paid = next(row for row in rows if row["fields"]["status"] == "paid")
    assert paid["fields"]["n"] == counts(database)["paid"]
    watcher = events(base, "status_counts")
    try:
        latencies = []
        for _ in range(5):
            started = time.monotonic()
            shell(database, "insert into orders (customer, status, total) values ('Ada Lovelace', 'paid', 1.5)")
            event = watcher.next(timeout=5)
            latencies.append(event["at"] - started)
            ops = event["patch"]["ops"]
            assert [(op["op"], op["row"]) for op in ops] == [("replace", paid["id"])], ops
            assert f">{counts(database)['paid']}<" in ops[0]["html"]
        assert max(latencies) < 1.0, latencies
        print(f"insert by sqlite3 to patch: median {sorted(latencies)[2] * 1000:.0f} ms, max {max(latencies) * 1000:.0f} ms")
    finally:
        watcher.close()


def test_a_variant_hears_only_of_its_own_rows(site):
    base, database = site
    ada, grace = events(base, "of_customer", customer="Ada Lovelace"), events(base, "of_customer", customer="Grace Hopper")
    try:
        shell(database, "insert into orders (customer, status, total) values ('Grace Hopper', 'pending', 2)")
        event = grace.next(timeout=5)
        # The new row, and the header's row count.
        assert [op["op"] for op in event["patch"]["ops"]] == ["insert", "replace-header"], event["patch"]
        with pytest.raises(Exception):
            ada.next(timeout=1)
    finally:
        ada.close()
        grace.close()


def test_a_burst_of_writes_reruns_at_most_four_times_a_second_and_ends_right(site):
    base, database = site
    watcher = events(base, "status_counts")
    try:
        started = time.monotonic()
        for _ in range(20):
            shell(database, "insert into orders (customer, status, total) values ('Ada Lovelace', 'shipped', 1)")
        duration = time.monotonic() - started
        received = []
        while True:
            try:
                received.append(watcher.next(timeout=1.5))
            except Exception:
                break
        assert 1 <= len(received) <= duration / 0.25 + 2, (len(received), duration)
        assert f">{counts(database)['shipped']}<" in received[-1]["patch"]["ops"][-1]["html"]
    finally:
        watcher.close()


def test_a_row_of_a_live_query_has_its_own_url(site):
    base, _ = site
    _, _, body = get(base, "/pages/queries~2Fstatus_counts.json")
    row = json.loads(body)["sections"][0]["rows"][0]["id"]
    status, _, page = get(base, f"/pages/queries~2Fstatus_counts/rows/{row}")
    assert status == 200 and "tk-row-page" in page.decode()
