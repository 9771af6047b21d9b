"""`serve --postgres` through PostgreSQL's faults: connections terminated under writers, the server
killed with -9 and restarted, a listening connection that stops delivering, and a connection lost
just before or just after a write's COMMIT. What must hold: no database lane wedges (pages and
`/readyz` come back within seconds), no acknowledged write is lost, a write answered "nothing was
changed" (503) changed nothing, and a write that did commit is not answered as failed."""
import json
import os
import select
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest

from conftest import BINARY, ROOT, PsqlSession, psql, start_server, stop_server
from test_postgres_examples import PAGES, subscribe, wait_for_row

CLUSTER = os.path.join(ROOT, "scripts", "postgres-cluster")
INSERT = "/pages/todo/sections/todos/rows"


def status_of(url, timeout=5):
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def readiness_answer(base):
    """`/readyz`'s status and body, as one string: a 503's body names what is not ready."""
    try:
        with urllib.request.urlopen(base + "/readyz", timeout=5) as response:
            return f"{response.status} {response.read().decode()}"
    except urllib.error.HTTPError as error:
        return f"{error.code} {error.read().decode()}"


def insert(base, title, timeout=30, headers=None):
    """POSTs a new to-do; returns (status, headers, body), or (None, …) when no answer came."""
    request = urllib.request.Request(base + INSERT, data=json.dumps({"title": title}).encode(), method="POST",
                                     headers={"Content-Type": "application/json", "Accept": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, dict(response.headers), response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode()
    except OSError as error:
        return None, {}, str(error)


def stored_titles(url):
    return psql(url, "SELECT title FROM todo").split("\n")


def wait_until(predicate, timeout, message):
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, message
        time.sleep(0.1)
    return time.monotonic()


@pytest.fixture()
def own_cluster():
    """A cluster of this test's own, which it may kill: (directory, port, URL of database `app`)."""
    directory = tempfile.mkdtemp(prefix="tablepages-faults-")
    url = subprocess.run([CLUSTER, "start", directory], check=True, capture_output=True, text=True).stdout.split()[-1]
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    psql(url, "CREATE DATABASE app")
    yield directory, port, url.rsplit("/", 1)[0] + "/app"
    subprocess.run([CLUSTER, "stop", directory], check=False)
    shutil.rmtree(directory, ignore_errors=True)


def kill_postgres(directory):
    """kill -9 of the postmaster and every process it started, at once."""
    with open(os.path.join(directory, "data", "postmaster.pid")) as text:
        postmaster = int(text.readline())
    children = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    if int(stat.read().rsplit(")", 1)[1].split()[1]) == postmaster:
                        children.append(int(entry))
            except (OSError, IndexError, ValueError):
                pass
    for pid in [postmaster, *children]:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    for pid in [postmaster, *children]:
        deadline = time.monotonic() + 10
        while os.path.exists(f"/proc/{pid}") and time.monotonic() < deadline:
            time.sleep(0.05)


def test_terminated_connections_and_a_killed_server_wedge_nothing_and_lose_no_acknowledged_write(own_cluster, tmp_path):
    directory, port, url = own_cluster
    process, base = start_server(tmp_path, "--postgres", url)
    answers = []  # (title, status, headers)
    unexpected = []  # (title, status, body) of answers a fault must not cause
    stop = threading.Event()

    def write(writer):
        number = 0
        while not stop.is_set():
            number += 1
            title = f"writer {writer} number {number}"
            status, headers, body = insert(base, title)
            answers.append((title, status, headers))
            if status not in (201, 503, 500):
                unexpected.append((title, status, body))
            time.sleep(0.02)

    def terminate_pool_connections():
        while not stop.is_set():
            try:
                psql(url, "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = 'tablepages'")
            except subprocess.CalledProcessError:
                pass
            time.sleep(1)

    writers = [threading.Thread(target=write, args=(n,)) for n in range(8)]
    terminator = threading.Thread(target=terminate_pool_connections)
    try:
        for thread in writers:
            thread.start()
        terminator.start()
        time.sleep(6)
        kill_postgres(directory)
        time.sleep(1)
        subprocess.run([CLUSTER, "start", directory, str(port)], check=True, capture_output=True)
        restarted = time.monotonic()
        time.sleep(3)
        stop.set()
        for thread in [*writers, terminator]:
            thread.join(timeout=60)
        assert not any(thread.is_alive() for thread in writers), "a writer's request never came back"

        ready = wait_until(lambda: status_of(base + "/readyz") == 200, 10, "/readyz did not come back within 10 s of the restart")
        assert ready - restarted < 13
        for path in PAGES:
            assert status_of(base + path, timeout=10) == 200, path
        assert status_of(base + "/healthz") == 200

        stored = stored_titles(url)
        acknowledged = [title for title, status, _ in answers if status == 201]
        refused = [title for title, status, headers in answers if status == 503]
        assert len(acknowledged) > 50, f"too few writes went through: {len(acknowledged)} of {len(answers)}"
        assert set(acknowledged) <= set(stored), f"lost: {set(acknowledged) - set(stored)}"
        # 503 says "nothing was changed; try again": it must be true, or a retry would add it twice.
        assert not set(refused) & set(stored), f"answered 503 but committed: {set(refused) & set(stored)}"
        assert all(stored.count(title) == 1 for title in acknowledged)
        assert not unexpected, f"answers other than 201, 503 and 500: {unexpected[:5]}"
    finally:
        stop.set()
        stop_server(process)


def test_a_listening_connection_that_stops_delivering_is_noticed_and_replaced(postgres_database, tmp_path):
    # One pooled connection, open before new connections are refused below: the instance can still
    # read the version clock through it, so what the test sees is the lag check's doing alone. (With
    # more, the pool may try to open a second one for a concurrent read, wait for it and fail, and
    # /readyz turns 503 for that reason instead: seen in CI.)
    process, base = start_server(tmp_path, "--postgres", postgres_database, "--postgres-connections", "1")
    name = postgres_database.rsplit("/", 1)[1]
    admin = postgres_database.rsplit("/", 1)[0] + "/postgres"
    other_client = PsqlSession(postgres_database)
    listener = None
    try:
        # Ready first: until its listening connection has read the clock, /readyz is 503 already.
        wait_until(lambda: status_of(base + "/readyz") == 200, 10, "/readyz never said ready after startup")
        events = subscribe(base)
        listener = int(psql(postgres_database, "SELECT pid FROM pg_stat_activity WHERE application_name = 'tablepages-listener'").strip())
        # The listening connection stays open but delivers nothing (its server process stopped);
        # new connections are refused for now, so that the instance's state can be looked at.
        os.kill(listener, signal.SIGSTOP)
        psql(admin, f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
        try:
            other_client.run("UPDATE todo SET isDone = NOT isDone WHERE id = 5;")
            stalled = time.monotonic()
            # Within the lag limit (5 s) and a check, the instance sees that the clock moved without
            # a notification, gives the connection up, and is not ready while it cannot listen again.
            noticed = wait_until(lambda: "has not delivered version" in open(tmp_path / "server.log").read(), 10,
                                 "the log never said the listener stalled")
            assert noticed - stalled < 8
            wait_until(lambda: "listening connection is down" in readiness_answer(base), 3,
                       "/readyz did not say the listening connection is down")
        finally:
            psql(admin, f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
        expected = psql(postgres_database, "SELECT CASE WHEN isDone THEN 'done' ELSE 'open' END FROM todo WHERE id = 5").strip()
        # Listening again, every page re-reads: the change reaches the subscriber.
        wait_for_row(events, "todo-5", lambda data: data.get("subtitle") == expected, timeout=15)
        wait_until(lambda: status_of(base + "/readyz") == 200, 10, "/readyz did not come back after the listener reconnected")
        # Changes keep arriving through the new listening connection.
        psql(postgres_database, "UPDATE todo SET title = 'after the stall' WHERE id = 6")
        wait_for_row(events, "todo-6", lambda data: data.get("title") == "after the stall", timeout=5)
        events.close()
    finally:
        other_client.close()
        if listener:
            os.kill(listener, signal.SIGCONT)
        stop_server(process)


class CuttingProxy:
    """A TCP proxy in front of PostgreSQL that, once armed, cuts the connection of the next write
    transaction (one that sent `trigger`, by default `INSERT INTO todo`) at its COMMIT: `before` drops the COMMIT, so the
    server never gets it; `after` passes it on and lets the server commit, but drops its answer."""

    def __init__(self, target_port, trigger=b"INSERT INTO todo"):
        self.target_port = target_port
        self.trigger = trigger
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.mode = None
        self.cuts = 0
        self.lock = threading.Lock()
        self.running = True
        threading.Thread(target=self._accept, daemon=True).start()

    def arm(self, mode):
        with self.lock:
            self.mode = mode

    def close(self):
        self.running = False
        self.listener.close()

    def _accept(self):
        while self.running:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(("127.0.0.1", self.target_port))
            threading.Thread(target=self._pump, args=(client, server), daemon=True).start()

    def _pump(self, client, server):
        wrote_todo = False
        sockets = [client, server]
        try:
            while True:
                readable, _, _ = select.select(sockets, [], [])
                for source in readable:
                    data = source.recv(65536)
                    if not data:
                        return
                    if source is client:
                        wrote_todo = wrote_todo or self.trigger in data
                        if wrote_todo and b"COMMIT" in data:
                            with self.lock:
                                mode, self.mode = self.mode, None
                            if mode == "before":
                                self.cuts += 1
                                return
                            if mode == "after":
                                server.sendall(data)
                                # Let the server commit (and answer into the void).
                                time.sleep(0.5)
                                self.cuts += 1
                                return
                            wrote_todo = False
                        server.sendall(data)
                    else:
                        client.sendall(data)
        except OSError:
            return
        finally:
            for end in sockets:
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                end.close()


@pytest.mark.parametrize("cut", ["before", "after"])
def test_a_connection_lost_at_commit_is_answered_by_what_the_database_did(postgres_cluster, postgres_database, tmp_path, cut):
    target_port = int(postgres_cluster.rsplit(":", 1)[1].split("/")[0])
    proxy = CuttingProxy(target_port)
    through_proxy = postgres_database.replace(f":{target_port}/", f":{proxy.port}/")
    process, base = start_server(tmp_path, "--postgres", through_proxy)
    try:
        assert insert(base, "a warm-up")[0] == 201
        proxy.arm(cut)
        status, headers, body = insert(base, f"cut {cut} commit")
        assert proxy.cuts == 1, "the proxy did not cut at COMMIT"
        stored = stored_titles(postgres_database).count(f"cut {cut} commit")
        if cut == "before":
            # Nothing was committed: 503, try again, and the retry is what adds it.
            assert (status, stored) == (503, 0), body
            assert headers.get("Retry-After") == "1"
            # Known by the write id's absence once the transaction was over (not by its
            # transaction id, which a restarted server may give to another).
            assert "was not committed: it is over and its write id is not recorded" in open(tmp_path / "server.log").read()
            assert insert(base, f"cut {cut} commit")[0] == 201
            assert stored_titles(postgres_database).count(f"cut {cut} commit") == 1
        else:
            # Committed: the client is told so, though the COMMIT's answer never came, because
            # its write id is in the database.
            assert (status, stored) == (201, 1), body
            assert "was committed after all: its write id is recorded" in open(tmp_path / "server.log").read()
        # Every acknowledged write recorded its id, in a bounded ring.
        assert 2 <= int(psql(postgres_database, "SELECT count(*) FROM tablepages_writes").strip()) <= 100_000
        # The page shows it, and the instance is ready: the cut connection was replaced.
        wait_until(lambda: status_of(base + "/readyz") == 200, 10, "/readyz did not come back")
        assert status_of(base + "/pages/todo.json") == 200
    finally:
        stop_server(process)
        proxy.close()


def test_an_insert_sent_again_with_its_idempotency_key_is_added_once(postgres_database, tmp_path):
    process, base = start_server(tmp_path, "--postgres", postgres_database)
    try:
        key = {"Idempotency-Key": "6f1d0c2e-milk"}
        first = insert(base, "milk, once", headers=key)
        again = insert(base, "milk, once", headers=key)
        assert first[0] == again[0] == 201
        assert again[1].get("Idempotent-Replayed") == "true"
        assert again[2] == first[2]
        assert stored_titles(postgres_database).count("milk, once") == 1
    finally:
        stop_server(process)


def test_a_nul_in_a_title_is_dropped_on_postgresql_as_on_sqlite(postgres_database, tmp_path):
    process, base = start_server(tmp_path, "--postgres", postgres_database)
    try:
        status, _, body = insert(base, "nul\u0000here")
        assert status == 201, body
        assert "nulhere" in stored_titles(postgres_database)
    finally:
        stop_server(process)


@pytest.mark.parametrize("cut", ["before", "after"])
def test_an_edit_of_a_served_table_whose_commit_goes_unanswered_is_answered_by_what_the_database_did(postgres_cluster, postgres_database, tmp_path, cut):
    """`serve --database postgresql://… --writable`: an edit's audit entries carry its write id, in
    its own transaction; when the connection is lost after COMMIT was sent, the instance asks the
    database for the id on another connection. On the old code both cuts answered 503 "cannot be
    reached", though after `after` the edit was in the table."""
    psql(postgres_database, "CREATE TABLE item (id integer PRIMARY KEY, name text NOT NULL); INSERT INTO item VALUES (1, 'first')")
    target_port = int(postgres_cluster.rsplit(":", 1)[1].split("/")[0])
    proxy = CuttingProxy(target_port, trigger=b'"item" SET ')
    through_proxy = postgres_database.replace(f":{target_port}/", f":{proxy.port}/")
    process, base = start_server(tmp_path, "--database", through_proxy, "--writable", anonymous_writes=False)
    try:
        token = subprocess.run([BINARY, "token", "create", "--name", "editor", "--write"],
                               cwd=tmp_path, capture_output=True, text=True, timeout=30, check=True).stdout.strip().splitlines()[-1]

        def edit(name):
            request = urllib.request.Request(base + "/pages/item/rows/1/-/update", data=urllib.parse.urlencode({"v.name": name}).encode(),
                                             headers={"Authorization": "Bearer " + token, "Accept": "application/json"}, method="POST")
            try:
                with urllib.request.urlopen(request, timeout=30) as response:
                    return response.status, response.read().decode()
            except urllib.error.HTTPError as error:
                return error.code, error.read().decode()

        assert edit("warm-up")[0] == 200
        proxy.arm(cut)
        status, body = edit(f"cut {cut}")
        assert proxy.cuts == 1, "the proxy did not cut at COMMIT"
        stored = psql(postgres_database, "SELECT name FROM item WHERE id = 1").strip()
        log = open(tmp_path / "server.log").read()
        if cut == "before":
            assert (status, stored) == (503, "warm-up"), body
            assert "it was not written; try again" in body, body
            assert "was not committed: it is over and its write id is not in the audit trail" in log, log[-2000:]
            assert edit(f"cut {cut}")[0] == 200
            assert psql(postgres_database, "SELECT name FROM item WHERE id = 1").strip() == f"cut {cut}"
        else:
            assert (status, stored) == (200, f"cut {cut}"), body
            assert "was committed after all: its write id is in the audit trail" in log, log[-2000:]
        # The trail has each written edit once, under its own write id.
        assert psql(postgres_database, "SELECT count(DISTINCT write_id) FROM tablepages.audit_log").strip() == "2"
        wait_until(lambda: status_of(base + "/readyz") == 200, 10, "/readyz did not come back")
    finally:
        stop_server(process)
        proxy.close()
