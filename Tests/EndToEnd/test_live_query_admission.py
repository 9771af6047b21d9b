"""Live queries cannot stall table pages, and a shared stream never loses a page silently
(issue 29, items 4, 6 and 7), with the real server on SQLite (and on PostgreSQL with `--watch` for
the live SQL pages):

- eight anonymous live SQL pages (`/pages/-~2Fsql.json?sql=…`), each stopped at the 1 s time
  limit, leave a fresh table page under 1 s and `/readyz` 200 (on ec9b4ee they held the database
  lanes while they waited for the SQL connection: fresh pages took 3.9–7.0 s and `/readyz` was 503);
- 24 watched variants of a slow canned query, or 8 watched slow live SQL pages, and a write a
  second leave fresh table pages under 1 s and `/readyz` 200;
- one client watches at most `--max-watched-queries-per-client` live queries (429 beyond);
- every page a `/-/events` stream names gets its patches, a `reset` or a `refused`: 40 variants of
  one table page (past the 32 a page keeps unwatched) and 20 variants of a canned query."""
import json
import sqlite3
import statistics
import subprocess
import threading
import time
import urllib.parse

import pytest

from conftest import reader_url, start_server, stop_server
from test_journeys_database_tools import make_orders
from test_shared_events import Stream
from test_sql_page import get

RUNAWAY = {
    "sqlite": "with recursive r(n) as (select 1 union all select n + 1 from r) select count(*), {i} as i from r",
    "postgresql": "select count(*), {i} as i from generate_series(1, 100000000000)",
}


def fresh_page_latencies(base, seconds, first_code=1):
    """(latencies of fresh table pages, /readyz statuses) for `seconds`: each page a variant never
    asked for before (a filter on one order's code), so it is made, not answered from a cache."""
    latencies, readiness = [], []
    deadline = time.monotonic() + seconds
    code = first_code
    while time.monotonic() < deadline:
        started = time.monotonic()
        status, _, body = get(base, f"/pages/orders.json?code=C{code:04d}")
        latencies.append(time.monotonic() - started)
        assert status == 200, body
        readiness.append(get(base, "/readyz")[0])
        code += 1
        time.sleep(0.1)
    return latencies, readiness


def in_background(paths, base):
    """GETs each of `paths` at once on threads of its own; returns (threads, statuses)."""
    statuses = []
    threads = [threading.Thread(target=lambda p=path: statuses.append(get(base, p)[0]), daemon=True) for path in paths]
    for thread in threads:
        thread.start()
    return threads, statuses


@pytest.fixture(params=["sqlite", "postgresql"])
def shop(request, tmp_path):
    """(kind, base URL) of a server on the orders database, SQLite or PostgreSQL (`--watch`)."""
    database = tmp_path / "shop.sqlite"
    make_orders(database)
    if request.param == "sqlite":
        process, base = start_server(tmp_path, "--database", str(database))
        yield "sqlite", base
        stop_server(process)
        return
    from test_live_queries import copy_orders_to_postgres
    from test_postgres_tables import drop_database, fresh_database
    cluster = request.getfixturevalue("postgres_cluster")
    url = fresh_database(cluster, "pg_live_admission")
    copy_orders_to_postgres(database, url)
    # Visitors' SQL as a role that can only read (--sql-url), as it must run.
    process, base = start_server(tmp_path, "--database", url, "--watch", "--sql-url", reader_url(url))
    yield "postgresql", base
    stop_server(process)
    drop_database(cluster, "pg_live_admission")


def test_live_sql_pages_at_the_time_limit_leave_table_pages_and_readyz_fast(shop):
    kind, base = shop
    paths = ["/pages/-~2Fsql.json?" + urllib.parse.urlencode({"sql": RUNAWAY[kind].format(i=i)}) for i in range(8)]
    threads, statuses = in_background(paths, base)
    time.sleep(0.3)
    latencies, readiness = fresh_page_latencies(base, 4)
    for thread in threads:
        thread.join(30)
    print(f"{kind}: fresh table pages while 8 live SQL pages ran to the time limit: median {statistics.median(latencies):.3f} s, "
          f"max {max(latencies):.3f} s over {len(latencies)}; /readyz {sorted(set(readiness))}; live SQL pages {sorted(statuses)}")
    assert max(latencies) < 1, latencies
    assert set(readiness) == {200}, readiness
    # Each stopped at the time limit, or refused at once past the query lane's queue: never a 500.
    assert len(statuses) == 8 and all(status in (400, 503) for status in statuses), statuses


SLOW_CANNED = {"queries": {
    "slow_count": {"sql": "with recursive c(x) as (select 1 union all select x + 1 from c where x < 300000) "
                          "select count(*) as n, :tag as tag, (select count(*) from orders) as orders from c"},
    "tagged": {"sql": "select count(*) as n, :tag as tag from orders"},
}}


@pytest.fixture
def canned(tmp_path):
    """(base URL, database path, server arguments' directory) of a SQLite server with SLOW_CANNED."""
    database = tmp_path / "shop.sqlite"
    make_orders(database)
    with sqlite3.connect(database) as db:
        db.execute("PRAGMA journal_mode = WAL")
    (tmp_path / "site.json").write_text(json.dumps(SLOW_CANNED))
    return tmp_path, database


def insert(database):
    subprocess.run(["sqlite3", str(database), "insert into orders (customer, status, total) values ('Ada Lovelace', 'paid', 1)"], check=True)


SLOW_SQL = ("with recursive c(x) as (select 1 union all select x + 1 from c where x < {rows}) "
            "select count(*) as n, {tag} as tag, (select count(*) from orders) as orders from c")


@pytest.mark.parametrize("what, count, page", [
    # The 24 watched canned-query variants (one write stalled pages 3.7 s).
    ("slow canned variants", 24, lambda n: f"/pages/queries~2Fslow_count?tag={n}"),
    # Its 8 watched slow live SQL pages (with a write a second, pages stalled ~9.5 s at a time).
    ("slow live SQL pages", 8, lambda n: "/pages/-~2Fsql?" + urllib.parse.urlencode({"sql": SLOW_SQL.format(rows=600000, tag=n)})),
])
def test_watched_slow_live_queries_and_a_write_a_second_leave_table_pages_fast(canned, what, count, page):
    directory, database = canned
    process, base = start_server(directory, "--database", str(database), "--config", str(directory / "site.json"), "--sql-live-queries", str(count))
    streams = []
    try:
        # Clients (loopback addresses of their own) each watching two.
        for client in range(count // 2):
            pages = [("page", page(2 * client + n)) for n in range(2)]
            streams.append(Stream(base, "/-/events?" + urllib.parse.urlencode(pages + [("format", "json")]), source=f"127.0.0.{client + 2}"))
            assert streams[-1].status == 200
        stop = threading.Event()

        def write_every_second():
            while not stop.wait(1):
                insert(database)
        writer = threading.Thread(target=write_every_second, daemon=True)
        writer.start()
        try:
            latencies, readiness = fresh_page_latencies(base, 5)
        finally:
            stop.set()
            writer.join()
        print(f"fresh table pages while {count} watched {what} re-ran after a write a second: "
              f"median {statistics.median(latencies):.3f} s, max {max(latencies):.3f} s over {len(latencies)}; /readyz {sorted(set(readiness))}")
        assert max(latencies) < 1, latencies
        assert set(readiness) == {200}, readiness
    finally:
        for stream in streams:
            stream.close()
        stop_server(process)


def test_one_client_watches_at_most_its_bound_of_live_queries(canned):
    directory, database = canned
    process, base = start_server(directory, "--database", str(database), "--config", str(directory / "site.json"))
    streams = []
    try:
        for tag in ("a", "b", "d", "e"):
            streams.append(Stream(base, f"/pages/queries~2Ftagged/events?tag={tag}"))
            assert streams[-1].status == 200
        # Another stream of a variant it watches costs nothing more.
        streams.append(Stream(base, "/pages/queries~2Ftagged/events?tag=a"))
        assert streams[-1].status == 200
        refused = Stream(base, "/pages/queries~2Ftagged/events?tag=c")
        assert refused.status == 429
        refused.close()
        # Closing one watch frees its place.
        for _ in range(2):
            streams.pop(0).close()
        deadline = time.monotonic() + 5
        while True:
            again = Stream(base, "/pages/queries~2Ftagged/events?tag=c")
            again.close()
            if again.status == 200:
                break
            assert time.monotonic() < deadline, "a closed watch kept its place"
            # The server learns that a watcher left when it next writes to it: a change makes it write.
            insert(database)
            time.sleep(0.3)
    finally:
        for stream in streams:
            stream.close()
        stop_server(process)


def assert_every_page_hears_something(stream, count, database, timeout=10):
    """After a write, each of the stream's `count` pages gets an event: a patch, a `reset` or a `refused`."""
    insert(database)
    heard = {}
    deadline = time.monotonic() + timeout
    while len(heard) < count and time.monotonic() < deadline:
        event = stream.next_event(max(0.05, deadline - time.monotonic()))
        if event is None:
            break
        heard.setdefault(event["page"], event["event"] or "patch")
    silent = sorted(set(range(count)) - set(heard))
    assert not silent, f"{len(silent)} of {count} pages got nothing: {silent}"
    return heard


def test_a_shared_stream_of_40_variants_of_one_table_page_loses_none(canned):
    directory, database = canned
    process, base = start_server(directory, "--database", str(database))
    try:
        # Each variant holds the new row (a filter it passes), so each changes with the write.
        pages = [("page", f"/pages/orders?customer=Ada%20Lovelace&total__lte={100 + n}") for n in range(40)]
        stream = Stream(base, "/-/events?" + urllib.parse.urlencode(pages + [("format", "json")]))
        assert stream.status == 200
        heard = assert_every_page_hears_something(stream, 40, database)
        assert set(heard.values()) == {"patch"}, heard
        stream.close()
    finally:
        stop_server(process)


def test_a_shared_stream_of_20_canned_query_variants_refuses_what_it_cannot_follow(canned):
    directory, database = canned
    process, base = start_server(directory, "--database", str(database), "--config", str(directory / "site.json"))
    try:
        pages = [("page", f"/pages/queries~2Ftagged?tag={n}") for n in range(20)]
        stream = Stream(base, "/-/events?" + urllib.parse.urlencode(pages + [("format", "json")]))
        assert stream.status == 200
        heard = assert_every_page_hears_something(stream, 20, database)
        # The client's four watches are followed; every other page is told why it is not.
        assert sorted(heard.values()).count("patch") == 4, heard
        assert sorted(heard.values()).count("refused") == 16, heard
        stream.close()
    finally:
        stop_server(process)
