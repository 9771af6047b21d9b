"""A write the database refuses fails the request: while a `sqlite3` shell holds `BEGIN IMMEDIATE`
on the server's database, toggling, renaming, moving and deleting a to-do answer 5xx (a JSON error
for scripts, an error page for forms), no subscriber is sent a patch, and the data is unchanged;
once the shell lets go, the same actions succeed."""
import http.client
import json
import os
import shutil
import socket
import subprocess
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

import pytest
from conftest import wait_until

JSON = {"Content-Type": "application/json", "Accept": "application/json"}
FORM = {"Content-Type": "application/x-www-form-urlencoded", "Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}

# (name, method, path, body, headers): each to-do action once as a script sends it, once as an HTML
# form posts it (a form deletes with POST and `_method=DELETE`).
ACTIONS = [
    ("toggle json", "POST", "/pages/todo/rows/todo-3/select", "", JSON),
    ("rename json", "POST", "/pages/todo/rows/todo-3/actions/rename", json.dumps({"title": "Renamed by a script"}), JSON),
    ("move json", "POST", "/pages/todo/rows/todo-3/move", json.dumps({"section": "todos", "before": "todo-1"}), JSON),
    ("delete json", "DELETE", "/pages/todo/rows/todo-3", "", {"Accept": "application/json"}),
    ("toggle form", "POST", "/pages/todo/rows/todo-4/select", "", FORM),
    ("rename form", "POST", "/pages/todo/rows/todo-4/actions/rename", "title=Renamed+by+a+form", FORM),
    ("move form", "POST", "/pages/todo/rows/todo-4/move", "section=todos&before=todo-1", FORM),
    ("delete form", "POST", "/pages/todo/rows/todo-4", "_method=DELETE", FORM),
]


def send(base, method, path, body, headers, timeout=60):
    """One request without following redirects; returns (status, headers as a dict, text)."""
    connection = http.client.HTTPConnection(urlsplit(base).netloc, timeout=timeout)
    try:
        connection.request(method, path, body=body.encode(), headers=headers)
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read().decode()
    finally:
        connection.close()


def page(base):
    status, _, text = send(base, "GET", "/pages/todo.json", "", {"Accept": "application/json"})
    assert status == 200
    return json.loads(text)


class Subscriber:
    """Reads `/pages/todo/events?format=json` on a thread of its own and keeps every event."""

    def __init__(self, base):
        self.connection = http.client.HTTPConnection(urlsplit(base).netloc, timeout=120)
        self.connection.request("GET", "/pages/todo/events?format=json", headers={"Accept": "text/event-stream"})
        self.response = self.connection.getresponse()
        assert self.response.status == 200
        self.events = []
        self.lock = threading.Lock()
        self.open = threading.Event()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        assert self.open.wait(5), "the event stream did not start"

    def _read(self):
        block = []
        try:
            while True:
                line = self.response.readline().decode()
                if not line:
                    return
                if line.startswith("retry:"):
                    self.open.set()
                if line.strip():
                    block.append(line.strip())
                elif block:
                    if any(field.startswith("event:") for field in block):
                        with self.lock:
                            self.events.append(block)
                    block = []
        except OSError:
            return

    def received(self):
        with self.lock:
            return list(self.events)

    def close(self):
        # Shutting the socket down ends the reader's blocking read; then the connection can go.
        self.connection.sock.shutdown(socket.SHUT_RDWR)
        self.reader.join(5)
        self.connection.close()


class Lock:
    """A `sqlite3` shell holding `BEGIN IMMEDIATE` on a database until released."""

    def __init__(self, database):
        self.shell = subprocess.Popen(["sqlite3", database], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.shell.stdin.write("BEGIN IMMEDIATE;\nSELECT 'locked';\n")
        self.shell.stdin.flush()
        assert self.shell.stdout.readline().strip() == "locked", "the shell did not get the write lock"

    def release(self):
        self.shell.stdin.write("ROLLBACK;\n.quit\n")
        self.shell.stdin.flush()
        assert self.shell.wait(timeout=10) == 0


@pytest.mark.skipif(shutil.which("sqlite3") is None, reason="needs the sqlite3 shell")
def test_refused_writes_fail_publish_nothing_and_succeed_once_the_lock_is_released(server, tmp_path):
    database = os.path.join(tmp_path, "tablepages.sqlite")
    before = page(server)
    subscriber = Subscriber(server)
    try:
        lock = Lock(database)
        started = time.monotonic()
        try:
            # Every write waits for the lock (the store's busy timeout) before it fails; sent together,
            # they overlap instead of adding up on this side.
            with ThreadPoolExecutor(max_workers=len(ACTIONS)) as pool:
                answers = list(pool.map(lambda action: send(server, *action[1:]), ACTIONS))
            # The page still reads while the lock is held.
            during = page(server)
        finally:
            lock.release()
        held = time.monotonic() - started

        for (name, *_rest, headers), (status, response_headers, text) in zip(ACTIONS, answers):
            assert status == 503, f"{name}: {status} {text[:300]}"
            assert "location" not in response_headers, f"{name} redirected as if it had worked"
            assert response_headers.get("retry-after") == "1", name
            if headers is FORM:
                assert response_headers["content-type"].startswith("text/html"), name
                assert "<h1>503 Service Unavailable</h1>" in text, name
                assert "Could not " in text and "Nothing was changed" in text, name
            else:
                error = json.loads(text)["error"]
                assert error["status"] == 503, name
                assert error["message"].startswith("Could not "), name
                assert "tablepages.sqlite" not in error["message"] and "UPDATE" not in error["message"], name

        assert during == before, "the page changed although every write failed"
        assert page(server) == before
        assert subscriber.received() == [], "a subscriber was sent a patch for a change that did not happen"

        log = open(os.path.join(tmp_path, "server.log")).read()
        assert log.count("page todo: ") == len(ACTIONS), "each failure is logged once, naming the page"
        for action, row in [("select", "todo-3"), ("rename", "todo-3"), ("move", "todo-3"), ("delete", "todo-3"),
                            ("select", "todo-4"), ("rename", "todo-4"), ("move", "todo-4"), ("delete", "todo-4")]:
            assert f"{action} row \u201c{row}\u201d failed" in log

        # Released, the same actions succeed, and subscribers see each one, starting right after
        # the version the page had before.
        for name, method, path, body, headers in ACTIONS:
            status, response_headers, text = send(server, method, path, body, headers)
            if headers is FORM:
                assert status == 303 and response_headers["location"] == "/pages/todo", f"{name}: {status} {text[:300]}"
            else:
                assert status == 200 and json.loads(text)["ok"] is True, f"{name}: {status} {text[:300]}"
        assert wait_until(lambda: len(subscriber.received()) >= len(ACTIONS), 5), subscriber.received()
        first = subscriber.received()[0]
        assert f"id: {before['version'] + 1}" in first, first
        after = page(server)
        ids = [row["id"] for section in after["sections"] for row in section["rows"]]
        assert "todo-3" not in ids and "todo-4" not in ids
        # The lock is held no longer than the store's waits need (8 writes × 5 s, one after another).
        assert held < 60, f"the lock was held {held:.0f} s"
    finally:
        subscriber.close()
