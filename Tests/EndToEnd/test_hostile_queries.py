"""Expensive and blocking database work: a time limit per query, a cap on concurrent database work
with a bounded queue, /readyz that sees stalls (while /healthz stays 200), and variant checks that
never block."""
import json
import subprocess
import threading
import time
import urllib.error
import urllib.request

import pytest

from conftest import start_server, stop_server

ROWS = 1_000_000
# Unindexed: grouping or sorting by these scans and sorts the whole table for every section.
SLOW_VARIANTS = [
    "/pages/big.json?group=value&sort=label",
    "/pages/big.json?group=category&sort=-value",
    "/pages/big.json?group=category&sort=value",
    "/pages/big.json?group=label&sort=value",
]


@pytest.fixture(scope="module")
def big_database(tmp_path_factory):
    """A 1,000,000-row table without indexes, and a small one, made with the sqlite3 shell."""
    path = tmp_path_factory.mktemp("hostile") / "big.sqlite"
    subprocess.run(["sqlite3", str(path), f"""
        PRAGMA journal_mode = WAL;
        CREATE TABLE big (id INTEGER PRIMARY KEY, category TEXT, value INTEGER, label TEXT);
        WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT {ROWS})
        INSERT INTO big SELECT x, 'cat' || (x % 1000), (x * 7919) % 1000003, hex(x * 31) FROM c;
        CREATE TABLE small (id INTEGER PRIMARY KEY, name TEXT);
        INSERT INTO small (name) VALUES ('one'), ('two'), ('three');
    """], check=True)
    return path


def get(url, timeout=30):
    """(status, headers, body text, seconds) of a GET, whatever the status."""
    start = time.monotonic()
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, dict(response.headers), response.read().decode(), time.monotonic() - start
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode(), time.monotonic() - start


def in_background(urls):
    """GETs each URL on a thread of its own; returns the threads and the list their answers go to."""
    answers = []
    threads = [threading.Thread(target=lambda url=url: answers.append(get(url))) for url in urls]
    for thread in threads:
        thread.start()
    return threads, answers


def test_a_query_past_the_time_limit_is_a_clear_503_soon_after_it_while_others_are_answered(tmp_path, big_database):
    process, base = start_server(tmp_path, "--database", str(big_database), "--query-time-limit", "300")
    try:
        status, _, _, _ = get(base + "/pages/big.json?limit=5")
        assert status == 200, "the default page of the big table reads within the limit"
        # Three slow queries on three of the four database lanes.
        threads, answers = in_background([base + variant for variant in SLOW_VARIANTS[:3]])
        time.sleep(0.1)
        # Meanwhile every other kind of request is answered promptly: routes that need no lane,
        # and new and existing pages on the free lane.
        for path in ["/healthz", "/", "/pages/small.json", "/pages/small.json?sort=-name", "/pages/big.json?limit=5"]:
            status, _, body, seconds = get(base + path)
            assert status == 200, (path, body)
            assert seconds < 1.0, (path, seconds)
        for thread in threads:
            thread.join(timeout=30)
        assert len(answers) == 3
        print("slow answers after", [round(answer[3], 3) for answer in answers])
        for status, _, body, seconds in answers:
            assert status == 503, body
            message = json.loads(body)["error"]["message"]
            assert "longer than the server's limit of 300 ms" in message
            assert "--query-time-limit" in message
            # The limit plus one uninterruptible step (SQLite sorts in one virtual-machine step).
            assert seconds < 2.5, seconds
        assert process.poll() is None
    finally:
        stop_server(process)


def test_readyz_reports_stalled_lanes_and_busy_lanes_refuse_with_retry_after(tmp_path, big_database):
    process, base = start_server(
        tmp_path, "--database", str(big_database), "--query-time-limit", "3000",
        "--database-concurrency", "1", "--database-queue-limit", "1", "--stall-timeout", "1",
    )
    try:
        status, _, body, _ = get(base + "/healthz")
        assert (status, json.loads(body)) == (200, {"status": "ok"})
        status, _, body, _ = get(base + "/readyz")
        assert (status, json.loads(body)) == (200, {"status": "ready"})
        # One slow query runs on the only lane and one waits: about six seconds of work.
        threads, answers = in_background([base + SLOW_VARIANTS[0]])
        time.sleep(0.3)
        more, more_answers = in_background([base + SLOW_VARIANTS[1]])
        time.sleep(0.3)
        # The queue is full: a third request is refused at once, with a hint to retry.
        status, headers, body, seconds = get(base + SLOW_VARIANTS[2])
        assert status == 503, body
        assert headers.get("Retry-After") == "1"
        assert "busy" in json.loads(body)["error"]["message"]
        assert seconds < 1.0
        # /readyz sends a probe that waits behind the slow queries, and soon says the lane is stalled;
        # until then it says the database did not answer within its 500 ms. /healthz (liveness)
        # stays 200 throughout: a slow database is no reason to restart.
        deadline = time.monotonic() + 4
        while True:
            status, _, body, seconds = get(base + "/readyz")
            assert seconds < 1.5, "readyz waits at most its timeout"
            assert status == 503, body
            health, _, _, health_seconds = get(base + "/healthz")
            assert health == 200 and health_seconds < 1.0, "healthz itself must never wait"
            if json.loads(body)["status"] == "stalled" or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        report = json.loads(body)
        assert report["status"] == "stalled", report
        assert any(item.startswith("database lane 1") for item in report["stalled"]), report
        for thread in threads + more:
            thread.join(timeout=30)
        assert [answer[0] for answer in answers + more_answers] == [503, 503], "both ran into the time limit"
        # The lane is free again: ready within a few seconds.
        deadline = time.monotonic() + 5
        while get(base + "/readyz")[0] != 200 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert get(base + "/readyz")[0] == 200
        assert get(base + "/pages/small.json")[0] == 200
    finally:
        stop_server(process)


def test_a_product_id_is_checked_without_the_database_on_the_event_thread(server):
    # Well formed but naming nothing: 404, found by the factory on a database lane.
    status, _, body, _ = get(server + "/pages/product.json?id=999999")
    assert status == 404, body
    assert "id must name a product" in json.loads(body)["error"]["message"]
    # Malformed: 400 straight from the variant check.
    status, _, body, _ = get(server + "/pages/product.json?id=abc")
    assert status == 400, body
    # No id: the first product.
    status, _, body, _ = get(server + "/pages/product.json")
    assert status == 200, body
    status, _, _, _ = get(server + "/pages/product.json?id=1")
    assert status == 200
