#!/usr/bin/env python3
"""Datasette's write API, TablePages against Datasette 1.0a41 in the same run (issue 31): how long
one request takes to insert, upsert and replace 100 rows, and to insert 1,000. Not a test: it
asserts nothing, it prints.

Both serve a copy of the same SQLite file (WAL; a table of 1,000 rows), each request on one
keep-alive connection, one after another; the median and the 90th percentile of ROUNDS requests
of each kind (a tenth as many of 1,000 rows):

- insert: 100 new rows (`{"rows": [...]}`), the key left to the database;
- upsert: 100 rows that exist (`/-/upsert`), each changing its title (TablePages reads each old row
  for the audit trail);
- replace: 100 rows that exist (`"replace": true`), each a new title;
- insert of 1,000: new rows, in one request (both allow 1,000: `max_insert_rows`);
- and TablePages alone: a paste of 1,000 rows (TSV) through a table page's insert form
  (`POST /pages/item/-/insert`, `_paste`, as the page script sends it after its preview), set beside
  Datasette's insert of 1,000.

    python3 Benchmarks/write_api.py              # SERVER_BIN: another binary (default: the debug build)
    ROUNDS=10 python3 Benchmarks/write_api.py
"""
import http.client
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from writes_http import DATASETTE_PYTHON, Client, Server, load, percentile, token  # noqa: E402
from conftest import start_datasette  # noqa: E402  (writes_http put Tests/EndToEnd on the path)

ROUNDS = int(os.environ.get("ROUNDS", "30"))
SCHEMA = "CREATE TABLE item (id INTEGER PRIMARY KEY, title TEXT NOT NULL, n INTEGER NOT NULL DEFAULT 0)"
SECRET = "bench-secret"


def database(path):
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA journal_mode = WAL")
        db.execute(SCHEMA)
        db.executemany("INSERT INTO item (id, title, n) VALUES (?, 'item', ?)", [(index, index) for index in range(1, 1001)])


def requests():
    """(kind, path, body) in the order sent: the same for both servers."""
    sent = []
    for round_number in range(ROUNDS):
        first = round_number % 10 * 100 + 1
        sent.append(("insert 100", "insert", {"rows": [{"title": f"new {round_number}-{index}", "n": index} for index in range(100)]}))
        sent.append(("upsert 100", "upsert", {"rows": [{"id": first + index, "title": f"upserted {round_number}", "n": index} for index in range(100)]}))
        sent.append(("replace 100", "insert", {"rows": [{"id": first + index, "title": f"replaced {round_number}"} for index in range(100)], "replace": True}))
        if round_number % 10 == 0:
            sent.append(("insert 1,000", "insert", {"rows": [{"title": f"batch {round_number}-{index}", "n": index} for index in range(1000)]}))
    return sent


def timings(port, bearer):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    found = {}
    for kind, action, body in requests():
        data = json.dumps(body).encode()
        start = time.monotonic()
        connection.request("POST", f"/bench/item/-/{action}", data, {"Authorization": "Bearer " + bearer, "Content-Type": "application/json"})
        response = connection.getresponse()
        answer = response.read()
        took = time.monotonic() - start
        if response.status not in (200, 201):
            raise RuntimeError(f"{kind} answered {response.status}: {answer[:300]!r}")
        found.setdefault(kind, []).append(took)
    connection.close()
    return found


def pastes(port, bearer):
    client = Client(port, bearer)
    found = []
    for round_number in range(max(1, ROUNDS // 10)):
        text = "title\tn\n" + "".join(f"pasted {round_number}-{index}\t{index}\n" for index in range(1000))
        start = time.monotonic()
        status, body = client.post("/pages/item/-/insert", {"_paste": text})
        found.append(time.monotonic() - start)
        if status != 201:
            raise RuntimeError(f"the paste answered {status}: {body[:300]!r}")
    return found


def ours(directory):
    path = os.path.join(directory, "bench.db")
    database(path)
    server = Server(directory, "tablepages", "--database", path, "--writable", "--datasette-max-insert-rows", "1000")
    try:
        bearer = token(directory)
        found = timings(server.port, bearer)
        found["paste 1,000"] = pastes(server.port, bearer)
        return found
    finally:
        server.stop()


def theirs(directory):
    os.makedirs(directory)
    path = os.path.join(directory, "bench.db")
    database(path)
    bearer = subprocess.run([DATASETTE_PYTHON, "-m", "datasette", "create-token", "root", "--secret", SECRET],
                            capture_output=True, text=True, timeout=60, check=True).stdout.strip()
    process, base = start_datasette(path, "--secret", SECRET, "--root", "--setting", "max_insert_rows", "1000",
                                    python=DATASETTE_PYTHON, immutable=False)
    try:
        return timings(int(base.rsplit(":", 1)[1]), bearer)
    finally:
        process.terminate()
        process.wait(timeout=10)


def main():
    with tempfile.TemporaryDirectory() as directory:
        print(f"== load average {load()}; {os.environ.get('SERVER_BIN', 'the debug build')}; {ROUNDS} rounds")
        mine = ours(directory)
        print(f"== load average {load()}")
        peer = theirs(os.path.join(directory, "peer"))
        print(f"== load average {load()}")
    for kind in mine:
        a, b = mine[kind], peer[kind if kind in peer else "insert 1,000"]
        print(f"bench: {kind:>12}: TablePages median {statistics.median(a) * 1000:.1f} ms, p90 {percentile(a, 0.9) * 1000:.1f} ms; "
              f"Datasette 1.0a41 median {statistics.median(b) * 1000:.1f} ms, p90 {percentile(b, 0.9) * 1000:.1f} ms; "
              f"ratio of medians {statistics.median(a) / statistics.median(b):.2f} ({len(a)} requests each)")


if __name__ == "__main__":
    main()
