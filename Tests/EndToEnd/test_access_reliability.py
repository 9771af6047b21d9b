"""Access control under the audit's reliability findings, against the real binary: a token revoked
and created again under its old name is a new actor (its old stream closes, the old holder's
private rows stay theirs); heads a proxy could read differently (Host missing, repeated or spaced,
ambiguous framing) get 400; wrong sign-in tokens are limited per address with 429 and Retry-After."""
import json
import os
import re
import select
import signal
import socket
import time
import urllib.parse

from conftest import sign_in, sign_in_url, start_server, stop_server, wait_until
from test_access_identity import request, tablepages


def raw_exchange(base, data, timeout=10.0):
    """Sends `data` on a new connection and returns every byte the server sent until it closed the
    connection; fails when it is still open after `timeout` seconds."""
    parts = urllib.parse.urlsplit(base)
    with socket.create_connection((parts.hostname, parts.port), timeout=timeout) as connection:
        connection.sendall(data)
        return read_until_closed(connection, timeout)


def read_until_closed(connection, timeout, ending=None):
    """Reads until the server closes `connection`, or sends `ending` last."""
    received = b""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        assert left > 0, f"the server kept the connection open for {timeout} s: {received[-500:]!r}"
        readable, _, _ = select.select([connection], [], [], left)
        if readable:
            chunk = connection.recv(65536)
            if not chunk:
                return received
            received += chunk
            if ending is not None and (b"\r\n" + received).endswith(ending):
                return received


def open_raw_stream(base, path, token):
    """An event stream opened on a raw socket with `token`, once its first line arrived."""
    parts = urllib.parse.urlsplit(base)
    connection = socket.create_connection((parts.hostname, parts.port), timeout=10)
    connection.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\nAuthorization: Bearer {token}\r\n\r\n".encode())
    received = b""
    deadline = time.monotonic() + 10
    while b"retry:" not in received:
        assert time.monotonic() < deadline, received
        chunk = connection.recv(65536)
        assert chunk, received
        received += chunk
    assert received.startswith(b"HTTP/1.1 200"), received
    return connection


def add_mine(base, token, title):
    return request("POST", base + "/pages/mine/sections/todos/rows", json.dumps({"title": title}), headers={"Authorization": "Bearer " + token})[0]


def test_a_token_created_again_under_a_revoked_ones_name_is_a_new_actor(tmp_path):
    process, base = start_server(tmp_path, "--log-level", "info", anonymous_writes=False)
    try:
        old = tablepages(tmp_path, "token", "create", "--name", "rot", "--write")[-1]
        assert wait_until(lambda: add_mine(base, old, "Old holder's secret") == 201, 3.0)
        stream = open_raw_stream(base, "/pages/mine/events", old)
        # Revoked and made again while the server is stopped: it cannot re-read the credentials in
        # between, so it sees the same name with a new token at once (what a late refresh saw).
        os.kill(process.pid, signal.SIGSTOP)
        try:
            tablepages(tmp_path, "token", "revoke", "rot")
            new = tablepages(tmp_path, "token", "create", "--name", "rot", "--write")[-1]
        finally:
            os.kill(process.pid, signal.SIGCONT)
        assert wait_until(lambda: request("GET", base + "/pages/mine.json", headers={"Authorization": "Bearer " + new})[0] == 200, 3.0)
        # The old holder's stream is ended by the server (its last, empty chunk arrives), within a refresh.
        seen = read_until_closed(stream, 5.0, ending=b"\r\n0\r\n\r\n")
        stream.close()
        assert add_mine(base, new, "New holder's secret") == 201
        assert b"New holder's secret" not in seen
        status, _, mine = request("GET", base + "/pages/mine.json", headers={"Authorization": "Bearer " + new})
        assert status == 200 and "New holder's secret" in mine and "Old holder's secret" not in mine
        assert request("GET", base + "/pages/mine.json", headers={"Authorization": "Bearer " + old})[0] == 401
        # The log names both by the token's name and tells them apart by its fingerprint.
        log = open(os.path.join(tmp_path, "server.log")).read()
        actors = set(re.findall(r"actor=(token:rot:[0-9a-f]{16})", log))
        assert len(actors) == 2, actors
    finally:
        stop_server(process)


BAD_HEADS = [
    b"GET /healthz HTTP/1.1\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost : evil.example\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: evil.example\r\nHost: 127.0.0.1\r\n\r\n",
    b"POST /pages/todo/rows/todo-3/select HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
    b"GET /pages/todo.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    b"POST /pages/todo/rows/todo-3/select HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nContent-Length: 48\r\n\r\n"
    b"GET /pages/todo.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
]


def test_ambiguous_heads_get_400_and_the_connection_closes(tmp_path):
    process, base = start_server(tmp_path)
    try:
        for head in BAD_HEADS:
            answer = raw_exchange(base, head)
            assert re.findall(rb"HTTP/1\.[01] (\d{3})", answer) == [b"400"], (head, answer)
        # Nothing was written by the smuggled or refused requests.
        status, _, todo = request("GET", base + "/pages/todo.json")
        assert status == 200
        rows = [row for section in json.loads(todo)["sections"] for row in section["rows"]]
        assert all(row.get("subtitle") != "done" for row in rows if row["id"] == "todo-3")
        # A well-formed head, and HTTP/1.0 without Host, are answered as before.
        assert re.match(rb"HTTP/1\.[01] 200", raw_exchange(base, b"GET /healthz HTTP/1.0\r\n\r\n"))
        assert raw_exchange(base, b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").startswith(b"HTTP/1.1 200")
    finally:
        stop_server(process)


def test_a_burst_of_wrong_sign_in_tokens_gets_429_and_the_right_one_works_after_the_wait(tmp_path):
    process, base = start_server(tmp_path, anonymous_writes=False)
    try:
        link = sign_in_url(tmp_path)
        wrong = link[:-2] + ("AA" if not link.endswith("AA") else "BB")
        statuses = [sign_in(wrong)[0] for _ in range(10)]
        assert statuses == [403] * 10
        limited = request("GET", wrong)
        assert limited[0] == 429
        retry_after = int(limited[1]["Retry-After"])
        assert 1 <= retry_after <= 2
        # Refused before the token is looked at: the right one is refused too, with no cookie.
        assert sign_in(link) == (429, None)
        time.sleep(retry_after)
        status, cookie = sign_in(link)
        assert status == 303 and cookie.startswith("tablepages_session=")
        log = open(os.path.join(tmp_path, "server.log")).read()
        assert "too many wrong sign-in tokens from 127.0.0.1" in log
    finally:
        stop_server(process)
