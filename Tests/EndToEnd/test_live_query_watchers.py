"""Live queries re-run only while someone watches them: an ad-hoc query kept among the
`--sql-live-queries` but watched by nobody is not re-run on a change (the server's
`tablepages_live_rereads_total` stays flat), yet whoever comes back sees the result as it is now:
a reader of the page at once, and a watcher that returns with the event id of an older render
gets the change as a patch."""
import json
import re
import subprocess
import time
import urllib.parse
import urllib.request

import pytest

from conftest import start_server, stop_server
from test_database_live import Events
from test_journeys_database_tools import make_orders
from test_journeys_tabs import live_subscribers
from test_sql_page import get

SQL = "select status, count(*) as n from orders group by status order by status"


@pytest.fixture(scope="module")
def shop(tmp_path_factory):
    directory = tmp_path_factory.mktemp("live-query-watchers")
    database = directory / "shop.sqlite"
    make_orders(database)
    process, base = start_server(directory, "--database", str(database))
    yield base, lambda sql: subprocess.run(["sqlite3", str(database), sql], check=True, capture_output=True, text=True).stdout
    stop_server(process)


def rereads(base):
    text = urllib.request.urlopen(base + "/metrics", timeout=5).read().decode()
    found = re.search(r"^tablepages_live_rereads_total (\d+)", text, re.MULTILINE)
    return int(found.group(1)) if found else 0


def live_path(sql):
    return "/pages/-~2Fsql", urllib.parse.urlencode({"sql": sql})


def paid_count(base, sql):
    path, query = live_path(sql)
    status, _, body = get(base, f"{path}.json?{query}")
    assert status == 200, body
    page = json.loads(body)
    row = next(row for row in page["sections"][0]["rows"] if row["fields"]["status"] == "paid")
    return page["version"], row["id"], row["fields"]["n"]


def counts(run):
    return {line.split("|")[0]: int(line.split("|")[1]) for line in run("select status, count(*) from orders group by status").splitlines() if line}


def test_an_unwatched_query_is_not_rerun_and_a_returning_reader_sees_it_current(shop):
    base, run = shop
    version, _, paid = paid_count(base, SQL)
    assert paid == counts(run)["paid"]
    before = rereads(base)
    for _ in range(4):
        run("insert into orders (customer, status, total) values ('Ada Lovelace', 'paid', 1)")
        time.sleep(0.4)
    # Longer than the change poll and the throttle: a re-run would have happened by now.
    time.sleep(0.5)
    assert rereads(base) == before, "a query nobody watches was re-run"
    later, _, shown = paid_count(base, SQL)
    assert shown == counts(run)["paid"] == paid + 4, "a reader after the changes sees the query's result as it is now"
    assert later != version
    assert rereads(base) == before + 1, "the one re-run is the reader's"


def test_a_watcher_returning_with_an_old_version_gets_the_change(shop):
    base, run = shop
    sql = SQL + " -- returning watcher"
    version, row, paid = paid_count(base, sql)
    watcher = Events(f"{base}{live_path(sql)[0]}/events?{live_path(sql)[1]}", last_event_id=version)
    watcher.close()
    # The server notices the closed stream when it next writes to it: a change it re-runs makes it write.
    deadline = time.monotonic() + 15
    while live_subscribers(base) != 0:
        assert time.monotonic() < deadline, "the closed stream stayed subscribed"
        run("insert into orders (customer, status, total) values ('Ada Lovelace', 'pending', 1)")
        time.sleep(0.5)
    before = rereads(base)
    run("insert into orders (customer, status, total) values ('Ada Lovelace', 'paid', 1)")
    time.sleep(1)
    assert rereads(base) == before, "a query whose watcher left was re-run"
    watcher = Events(f"{base}{live_path(sql)[0]}/events?{live_path(sql)[1]}", last_event_id=version)
    try:
        events = [watcher.next(timeout=5)]
        while True:
            try:
                events.append(watcher.next(timeout=1))
            except Exception:
                break
        assert all(event.get("event") != "reset" for event in events), events
        replaced = [op for event in events for op in event["patch"]["ops"] if op["op"] == "replace" and op.get("row") == row]
        assert replaced and f">{counts(run)['paid']}<" in replaced[-1]["html"], events
        assert counts(run)["paid"] == paid + 1
    finally:
        watcher.close()


def test_a_watched_query_is_still_rerun_within_a_second(shop):
    base, run = shop
    sql = SQL + " -- watched"
    _, row, _ = paid_count(base, sql)
    path, query = live_path(sql)
    watcher = Events(f"{base}{path}/events?{query}")
    try:
        started = time.monotonic()
        run("insert into orders (customer, status, total) values ('Ada Lovelace', 'paid', 1)")
        event = watcher.next(timeout=5)
        assert event["at"] - started < 1.0
        assert [(op["op"], op["row"]) for op in event["patch"]["ops"]] == [("replace", row)]
        assert f">{counts(run)['paid']}<" in event["patch"]["ops"][0]["html"]
    finally:
        watcher.close()
