#!/usr/bin/env python3
"""The write path's figures over HTTP, against the `tablepages` binary (issue 31): what a person
editing in the browser and everyone watching get. Not a test: it asserts nothing, it prints.

- A pasted batch of 1,000 rows through the browser's route, as the page script sends it: the paste
  form's preview (`_preview=1`), then its write. Time to written, and time until another viewer's
  page (headless Chromium) shows all 1,000. The peer: Datasette 1.0a41's insert API
  (`POST /db/table/-/insert` with 1,000 `rows`, `max_insert_rows` raised to 1,000), in the same run.
- Edit -> EVERY viewer's patch, p50/p99, with 1, 10 and 50 viewers (live event streams): on SQLite
  (one instance), and on PostgreSQL with two instances, the edits sent to A, the viewers
  alternating between B and A (a single viewer watches B), each instance's samples also apart.
- Edits per second one instance sustains over HTTP: checked edits (`_version`) through the
  browser's update route by 4 clients at once, for 5 s.

    python3 Benchmarks/writes_http.py             # SERVER_BIN: another binary (default: the debug build)
    VIEWERS=1,10 EDITS=50 python3 Benchmarks/writes_http.py

Every edit is a token's (Bearer): the browser's routes take a token as they take a signed-in
browser, without the CSRF token a browser needs.
"""
import http.client
import json
import os
import re
import selectors
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Tests", "EndToEnd"))
from conftest import new_browser, start_datasette  # noqa: E402  (the e2e tests' Chromium and Datasette)

BINARY = os.environ.get("SERVER_BIN", os.path.join(ROOT, ".build", "debug", "tablepages"))
VIEWERS = [int(count) for count in os.environ.get("VIEWERS", "1,10,50").split(",")]
EDITS = int(os.environ.get("EDITS", "100"))
BATCH = 1000
DATASETTE_PYTHON = os.path.expanduser(os.environ.get("DATASETTE_WRITE_VENV", "~/.cache/tablepages/datasette-1.0a41") + "/bin/python")
SCHEMA = "CREATE TABLE item (id INTEGER PRIMARY KEY, title TEXT NOT NULL, n INTEGER NOT NULL DEFAULT 0)"


def load():
    return " ".join(open("/proc/loadavg").read().split()[:3])


def percentile(samples, fraction):
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


class Server:
    """`tablepages serve` in `directory` on a port it picks, until `stop()`."""

    def __init__(self, directory, name, *arguments):
        self.log_path = os.path.join(directory, name + ".log")
        log = open(self.log_path, "w")
        self.process = subprocess.Popen(
            [BINARY, "serve", "--host", "127.0.0.1", "--port", "0", "--public-directory", os.path.join(ROOT, "Public"),
             "--log-level", "notice", "--max-streams-per-client", "0", *arguments],
            cwd=directory, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while True:
            found = re.search(r"listening on http://[^\s]*:(\d+)", open(self.log_path).read())
            if found:
                self.port = int(found.group(1))
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{self.port}/readyz", timeout=1)
                    return
                except OSError:
                    pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.process.kill()
                raise RuntimeError("the server did not start: " + open(self.log_path).read()[-2000:])
            time.sleep(0.05)

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=15)


class Client:
    """One keep-alive connection, sending forms as the page script does (JSON answers)."""

    def __init__(self, port, token):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.headers = {"Authorization": "Bearer " + token, "Accept": "application/json",
                        "Content-Type": "application/x-www-form-urlencoded"}

    def post(self, path, fields):
        self.connection.request("POST", path, urllib.parse.urlencode(fields), self.headers)
        response = self.connection.getresponse()
        return response.status, response.read()


class Viewers:
    """`count` live event streams of `path`, spread over `ports`, read in one thread by a selector."""

    def __init__(self, ports, count, path="/pages/item/events?format=json"):
        self.selector = selectors.DefaultSelector()
        self.buffers = {}
        # The port of each stream, in the order of the buffers.
        self.ports = []
        for index in range(count):
            # Alternating, starting with the last port: one viewer watches the other instance.
            port = ports[(len(ports) - 1 - index) % len(ports)]
            self.ports.append(port)
            sock = socket.create_connection(("127.0.0.1", port))
            sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: text/event-stream\r\n\r\n".encode())
            sock.setblocking(False)
            self.selector.register(sock, selectors.EVENT_READ)
            self.buffers[sock] = b""
        self.wait_all(b"retry:", 30)

    def clear(self):
        for sock in self.buffers:
            self.buffers[sock] = b""

    def wait_all(self, marker, timeout):
        """The time.monotonic() at which each stream had `marker` (None: not within `timeout`)."""
        seen = {}
        deadline = time.monotonic() + timeout
        for sock, text in self.buffers.items():
            if marker in text:
                seen[sock] = time.monotonic()
        while len(seen) < len(self.buffers) and time.monotonic() < deadline:
            for key, _ in self.selector.select(timeout=max(0, deadline - time.monotonic())):
                sock = key.fileobj
                chunk = sock.recv(65536)
                if not chunk:
                    self.selector.unregister(sock)
                    continue
                # Kept short: only the marker matters, and it may straddle two reads.
                self.buffers[sock] = (self.buffers[sock] + chunk)[-65536:]
                if sock not in seen and marker in self.buffers[sock]:
                    seen[sock] = time.monotonic()
        return [seen.get(sock) for sock in self.buffers]

    def close(self):
        for sock in list(self.buffers):
            sock.close()


def token(directory):
    done = subprocess.run([BINARY, "token", "create", "--name", "bench", "--write"], cwd=directory,
                          capture_output=True, text=True, timeout=60, check=True)
    return done.stdout.strip().splitlines()[-1]


def edit_to_patch(edit_port, view_ports, token_text, viewers):
    """Per (edit, viewer): seconds from sending the edit to that viewer's stream having it; all of
    them, and those of the viewers on each port."""
    streams = Viewers(view_ports, viewers)
    client = Client(edit_port, token_text)
    samples, missed = [], 0
    by_port = {port: [] for port in view_ports}
    try:
        for step in range(EDITS):
            marker = f"edit-{viewers}-{step}-mark"
            streams.clear()
            start = time.monotonic()
            status, _ = client.post(f"/pages/item/rows/{step % 50 + 1}/-/update", {"v.title": marker})
            if status != 200:
                raise RuntimeError(f"edit answered {status}")
            for port, seen in zip(streams.ports, streams.wait_all(marker.encode(), 10)):
                if seen is None:
                    missed += 1
                else:
                    samples.append(seen - start)
                    by_port[port].append(seen - start)
    finally:
        streams.close()
    return samples, missed, by_port


def edits_per_second(port, token_text, clients=4, seconds=5.0):
    """Checked edits (each with the version its last answer gave) by `clients` at once."""
    counts = [0] * clients
    refused = [0] * clients
    stop = time.monotonic() + seconds

    def run(index):
        client = Client(port, token_text)
        row = 100 + index
        version = None
        while time.monotonic() < stop:
            fields = {"v.n": str(counts[index])}
            if version:
                fields["_version"] = version
            status, body = client.post(f"/pages/item/rows/{row}/-/update", fields)
            if status == 200:
                counts[index] += 1
                version = json.loads(body)["version"]
            else:
                refused[index] += 1
                version = None

    threads = [threading.Thread(target=run, args=(index,)) for index in range(clients)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(counts) / (time.monotonic() - started), sum(refused)


def paste_batch(port, token_text, viewer_url, round_number):
    """The paste form's preview then its write of 1,000 rows; then until a viewer's page shows them."""
    text = "title\tn\n" + "".join(f"pasted {round_number}-{index}\t{index}\n" for index in range(BATCH))
    browser = new_browser()
    try:
        browser.get(viewer_url)
        deadline = time.monotonic() + 30
        while not browser.execute_script("return document.querySelector('.tp-live')?.dataset.state === 'live'"):
            if time.monotonic() > deadline:
                raise RuntimeError("the viewer's page did not go live")
            time.sleep(0.05)
        before = browser.execute_script("return document.querySelectorAll('.tk-row[data-kind=\"record\"]').length")
        count = "Number((document.querySelector('.tk-db-count')?.textContent ?? '').replace(/\\D/g, '') || -1)"
        total = browser.execute_script("return " + count)
        # The page's own clock notes when its count reaches the new total: no polling delay.
        browser.execute_script("""
            const target = arguments[0];
            window.__shownAt = null;
            const check = () => {
              if (window.__shownAt === null && """ + count + """ >= target) window.__shownAt = Date.now();
            };
            new MutationObserver(check).observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true});
        """, total + BATCH)
        client = Client(port, token_text)
        start_wall = time.time()
        start = time.monotonic()
        status, body = client.post("/pages/item/-/insert", {"_preview": "1", "_paste": text})
        previewed = time.monotonic() - start
        if status != 200 or len(json.loads(body)["rows"]) != BATCH:
            raise RuntimeError(f"the preview answered {status}: {body[:300]!r}")
        status, body = client.post("/pages/item/-/insert", {"_paste": text})
        written = time.monotonic() - start
        if status != 201:
            raise RuntimeError(f"the write answered {status}: {body[:300]!r}")
        deadline = time.monotonic() + 30
        shown_at = None
        while shown_at is None and time.monotonic() < deadline:
            shown_at = browser.execute_script("return window.__shownAt")
            time.sleep(0.01)
        shown = (shown_at / 1000 - start_wall) if shown_at else None
        return previewed, written, shown, before, total
    finally:
        browser.quit()


def datasette_batch(directory, round_number):
    """Datasette 1.0a41's insert API, 1,000 rows in one request (its `max_insert_rows` raised)."""
    if not os.path.exists(DATASETTE_PYTHON):
        return None
    path = os.path.join(directory, f"peer-{round_number}.db")
    with sqlite3.connect(path) as db:
        db.execute(SCHEMA)
    secret = "bench-secret"
    made = subprocess.run([DATASETTE_PYTHON, "-m", "datasette", "create-token", "root", "--secret", secret],
                          capture_output=True, text=True, timeout=60, check=True).stdout.strip()
    process, base = start_datasette(path, "--secret", secret, "--root", "--setting", "max_insert_rows", str(BATCH),
                                    python=DATASETTE_PYTHON, immutable=False)
    try:
        body = json.dumps({"rows": [{"title": f"pasted {round_number}-{index}", "n": index} for index in range(BATCH)]}).encode()
        connection = http.client.HTTPConnection("127.0.0.1", int(base.rsplit(":", 1)[1]), timeout=30)
        start = time.monotonic()
        connection.request("POST", f"/peer-{round_number}/item/-/insert", body,
                           {"Authorization": "Bearer " + made, "Content-Type": "application/json"})
        response = connection.getresponse()
        answer = response.read()
        took = time.monotonic() - start
        if response.status != 201:
            raise RuntimeError(f"Datasette answered {response.status}: {answer[:300]!r}")
        return took
    finally:
        process.terminate()
        process.wait(timeout=10)


def sqlite_figures(directory, round_number):
    path = os.path.join(directory, "shop.sqlite")
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA journal_mode = WAL")
        db.execute(SCHEMA)
        db.executemany("INSERT INTO item (id, title) VALUES (?, 'item')", [(index,) for index in range(1, 1001)])
    secret = token(directory)
    server = Server(directory, "sqlite", "--database", path, "--writable")
    try:
        print(f"== SQLite, round {round_number}: load average {load()}")
        previewed, written, shown, before, total = paste_batch(server.port, secret, f"http://127.0.0.1:{server.port}/pages/item", round_number)
        peer = datasette_batch(directory, round_number)
        ratio = f"; Datasette 1.0a41's insert API: {peer * 1000:.0f} ms, ratio to our write's request {(written - previewed) / peer:.2f}, to preview and write {written / peer:.2f}" if peer else ""
        print(f"bench: paste of {BATCH} rows (browser route): preview {previewed * 1000:.0f} ms, written {written * 1000:.0f} ms "
              f"(the write's request {(written - previewed) * 1000:.0f} ms), "
              f"another viewer's page shows all {shown * 1000:.0f} ms after the preview was sent"
              f" (its count {total} -> {total + BATCH}, {before} rows rendered before){ratio}" if shown else
              f"bench: paste of {BATCH} rows: written {written * 1000:.0f} ms; the viewer's page did not show them within 30 s{ratio}")
        for viewers in VIEWERS:
            samples, missed, _ = edit_to_patch(server.port, [server.port], secret, viewers)
            print(f"bench: edit -> every viewer's patch, {viewers} viewer(s), {EDITS} edits: p50 {percentile(samples, 0.5) * 1000:.1f} ms, "
                  f"p99 {percentile(samples, 0.99) * 1000:.1f} ms, max {max(samples) * 1000:.1f} ms ({len(samples)} patches, {missed} missed); load {load()}")
        rate, refused = edits_per_second(server.port, secret)
        print(f"bench: checked edits over HTTP, 4 clients, 5 s: {rate:.0f} per second ({refused} refused); load {load()}")
    finally:
        server.stop()


def postgres_figures(directory, round_number):
    cluster = tempfile.mkdtemp(prefix="tp-pg-")
    os.chmod(cluster, 0o755)
    servers = []
    try:
        url = subprocess.run([os.path.join(ROOT, "scripts", "postgres-cluster"), "start", cluster], capture_output=True, text=True,
                             check=True, timeout=120).stdout.strip().splitlines()[-1]
        psql = sorted(os.listdir("/usr/lib/postgresql"))[-1]
        subprocess.run([f"/usr/lib/postgresql/{psql}/bin/psql", url, "-q", "-c",
                        SCHEMA.replace("INTEGER PRIMARY KEY", "bigserial PRIMARY KEY") + ";"
                        "INSERT INTO item (id, title) SELECT g, 'item' FROM generate_series(1, 1000) AS g;"
                        "SELECT setval(pg_get_serial_sequence('item', 'id'), 1000);"],
                       check=True, capture_output=True, timeout=60)
        secret = token(directory)
        servers = [Server(directory, f"pg-{name}", "--database", url, "--writable", "--watch") for name in ("a", "b")]
        ports = [server.port for server in servers]
        print(f"== PostgreSQL, two instances, round {round_number}: load average {load()}")
        previewed, written, shown, before, total = paste_batch(ports[0], secret, f"http://127.0.0.1:{ports[1]}/pages/item", round_number)
        print(f"bench: paste of {BATCH} rows (browser route, instance A): preview {previewed * 1000:.0f} ms, written {written * 1000:.0f} ms "
              f"(the write's request {(written - previewed) * 1000:.0f} ms), "
              f"a viewer's page on instance B shows all {shown * 1000:.0f} ms after the preview was sent" if shown else
              f"bench: paste of {BATCH} rows: written {written * 1000:.0f} ms; the viewer on B did not show them within 30 s")
        for viewers in VIEWERS:
            samples, missed, by_port = edit_to_patch(ports[0], ports, secret, viewers)
            split = "; ".join(f"on {name}: p50 {percentile(by_port[port], 0.5) * 1000:.1f} ms, p99 {percentile(by_port[port], 0.99) * 1000:.1f} ms"
                              for name, port in zip("AB", ports) if by_port[port])
            print(f"bench: edit (A) -> every viewer's patch, {viewers} viewer(s) on A and B, {EDITS} edits: p50 {percentile(samples, 0.5) * 1000:.1f} ms, "
                  f"p99 {percentile(samples, 0.99) * 1000:.1f} ms, max {max(samples) * 1000:.1f} ms ({len(samples)} patches, {missed} missed; {split}); load {load()}")
        rate, refused = edits_per_second(ports[0], secret)
        print(f"bench: checked edits over HTTP to instance A, 4 clients, 5 s: {rate:.0f} per second ({refused} refused); load {load()}")
    finally:
        for server in servers:
            server.stop()
        subprocess.run([os.path.join(ROOT, "scripts", "postgres-cluster"), "stop", cluster], capture_output=True, timeout=60)
        shutil.rmtree(cluster, ignore_errors=True)


def main():
    rounds = int(os.environ.get("ROUNDS", "2"))
    print(f"binary {BINARY}; {os.cpu_count()} cores; load average {load()}")
    for round_number in range(1, rounds + 1):
        for figures in (sqlite_figures, postgres_figures):
            directory = tempfile.mkdtemp(prefix="tp-writes-")
            try:
                figures(directory, round_number)
            finally:
                shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main()
