"""Expensive and blocking database work: a time limit per query, a cap on concurrent database work
with a bounded queue, /readyz that sees stalls (while /healthz stays 200), and variant checks that
never block."""
import json
import os
import subprocess
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid

import pytest

from conftest import BINARY, start_server, stop_server

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


# TablePages' own file: the credentials file keeps the session secret, the tokens' hashes and (with
# --writable) the audit trail of every written value. Visitors' SQL reads the served file only.
CREDENTIALS_ATTACKS = [
    ("attach database 'tablepages-credentials.sqlite' as c", "ATTACH is refused"),
    ("attach 'file:tablepages-credentials.sqlite?mode=ro' as c", "ATTACH is refused"),
    ("select * from (select 1) where 0 union all select count(*) from pragma_database_list", "database_list is refused"),
    ("vacuum into 'stolen.sqlite'", "only select"),
    ("create temp table t as select * from item", "only select"),
    ("create temp view v as select * from item", "only select"),
    ("select load_extension('tablepages-credentials.sqlite')", "load_extension() is refused"),
    ("select readfile('tablepages-credentials.sqlite')", "readfile"),  # refused, or no such function
    ("select * from audit_log", "no such table"),
    ("select * from session_secret", "no such table"),
    ("select * from temp.audit_log", "no such table"),
    ("pragma writable_schema = 1", "changes a setting"),
]


@pytest.mark.parametrize("sql, says", CREDENTIALS_ATTACKS)
def test_visitors_sql_cannot_reach_the_credentials_file_or_its_audit_trail(writable_site, sql, says):
    base, directory, secrets = writable_site
    before = credentials_tables(directory)
    for path in ["/-/sql.json?", "/-/sql?", "/shop.json?"]:
        status, _, body, _ = get(base + path + urllib.parse.urlencode({"sql": sql}))
        assert status == 400 and says.lower() in body.lower(), (path, sql, status, body[:400])
        assert not any(secret in body for secret in secrets), (path, sql)
    assert not (directory / "stolen.sqlite").exists()
    assert credentials_tables(directory) == before


def credentials_tables(directory):
    import sqlite3
    with sqlite3.connect(directory / "tablepages-credentials.sqlite") as db:
        return sorted(row[0] for row in db.execute("select name from sqlite_master"))


@pytest.fixture(scope="module")
def writable_site(tmp_path_factory):
    """A --writable SQLite file with one write made by a token, so that the credentials file holds a
    token's hash and an audit entry naming the token and the value written."""
    import sqlite3
    directory = tmp_path_factory.mktemp("credentials")
    with sqlite3.connect(directory / "shop.sqlite") as db:
        db.execute("CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT)")
        db.execute("INSERT INTO item (name) VALUES ('first')")
    process, base = start_server(directory, "--database", "shop.sqlite", "--writable", anonymous_writes=False)
    try:
        name, marker = "auditor-" + uuid.uuid4().hex[:8], "written-" + uuid.uuid4().hex
        token = subprocess.run([BINARY, "token", "create", "--name", name, "--write"], cwd=directory,
                               capture_output=True, text=True, timeout=30, check=True).stdout.strip().splitlines()[-1]
        request = urllib.request.Request(base + "/pages/item/rows/1/-/update", data=urllib.parse.urlencode({"v.name": marker}).encode(),
                                         headers={"Authorization": "Bearer " + token, "Accept": "application/json"}, method="POST")
        with urllib.request.urlopen(request, timeout=30) as response:
            assert response.status == 200
        with sqlite3.connect(directory / "tablepages-credentials.sqlite") as db:
            trail = " ".join(str(value) for row in db.execute("select actor_name, new_values from audit_log") for value in row)
            secret = db.execute("select hex(bytes) from session_secret").fetchone()[0]
        assert name in trail and marker in trail
        # The write itself is in the served file: the marker may show there, the trail may not.
        yield base, directory, [name, secret, secret.lower(), token]
    finally:
        stop_server(process)


@pytest.mark.parametrize("served", ["tablepages-credentials.sqlite", "./link.sqlite", "{directory}/tablepages-credentials.sqlite"])
def test_the_credentials_file_is_never_served_as_the_database(tmp_path, served):
    """On the old code `serve --database tablepages-credentials.sqlite` served the session secret
    (with which anyone can sign a session cookie) as a table page, and the SQL page read it."""
    subprocess.run([BINARY, "token", "create", "--name", "someone"], cwd=tmp_path, capture_output=True, check=True, timeout=30)
    os.symlink("tablepages-credentials.sqlite", tmp_path / "link.sqlite")
    result = subprocess.run([BINARY, "serve", "--port", "0", "--database", served.format(directory=tmp_path)],
                            cwd=tmp_path, capture_output=True, text=True, timeout=30)
    assert result.returncode != 0, result.stdout[-400:]
    assert "is the credentials file (--credentials)" in result.stderr and "session secret" in result.stderr, result.stderr
