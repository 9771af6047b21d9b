"""The shared event stream `/-/events` (one connection for every page a browser's tabs show),
read as curl would: each page replayed exactly from its own last event id after a reconnect, a
`reset` or a refusal ending only that page's part, the same access rules as a page's own stream, and
a clear 4xx, never a 500, for what cannot be followed."""
import http.client
import json
import random
import select
import socket
import subprocess
import time
import urllib.parse

import pytest
from conftest import BINARY, start_server, stop_server, wait_until


def call(base, method, path, body=None, headers=None):
    """One request; returns (status, parsed JSON or text)."""
    parts = urllib.parse.urlsplit(base)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=5)
    all_headers = {"Accept": "application/json", **({"Content-Type": "application/json"} if body is not None else {}), **(headers or {})}
    connection.request(method, path, body=body, headers=all_headers)
    response = connection.getresponse()
    text = response.read().decode()
    connection.close()
    try:
        return response.status, json.loads(text)
    except ValueError:
        return response.status, text


def version(base, page):
    status, body = call(base, "GET", f"/pages/{page}.json")
    assert status == 200
    return body["version"]


def query(*pages, format="json"):
    """`/-/events?page=…&page=…` for (last id or None, page URL) pairs."""
    items = [("page", url if last is None else f"{last}:{url}") for last, url in pages]
    return "/-/events?" + urllib.parse.urlencode(items + [("format", format)])


class Stream:
    """An open `/-/events` stream on a raw socket, read event by event. It asks in HTTP/1.0, so the
    body comes unchunked, and reads with its own buffer: a timed-out read of a socket file cannot
    be resumed."""

    def __init__(self, base, path, headers=None, source=None):
        """`source`: the loopback address to connect from (another client), e.g. `127.0.0.2`."""
        parts = urllib.parse.urlsplit(base)
        self.socket = socket.create_connection((parts.hostname, parts.port), timeout=5, source_address=(source, 0) if source else None)
        lines = [f"GET {path} HTTP/1.0", "Host: 127.0.0.1", "Accept: text/event-stream"] + [f"{k}: {v}" for k, v in (headers or {}).items()]
        self.socket.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        self.buffer = b""
        self.pending = {"data": []}
        self.closed = False
        head = b""
        while b"\r\n\r\n" not in self.buffer:
            chunk = self.socket.recv(65536)
            assert chunk, f"no response head: {self.buffer!r}"
            self.buffer += chunk
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        self.status = int(head.split()[1])

    def readline(self, deadline):
        """A line without its end, or None at the deadline or the end of the stream."""
        while b"\n" not in self.buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or self.closed:
                return None
            ready, _, _ = select.select([self.socket], [], [], remaining)
            if not ready:
                return None
            chunk = self.socket.recv(65536)
            if not chunk:
                self.closed = True
                return None
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line.decode()

    def next_event(self, timeout):
        """The next event as a dict (`page`: its position, `event`, `id`, `body`: its JSON), or None
        when none comes within `timeout` seconds or the stream ends. An event cut by the timeout is
        kept, and finished by the next call."""
        deadline = time.monotonic() + timeout
        fields = self.pending
        while True:
            line = self.readline(deadline)
            if line is None:
                return None
            if line == "":
                self.pending = {"data": []}
                if fields["data"]:
                    page, body = fields["data"][0], "\n".join(fields["data"][1:])
                    return {"page": int(page), "event": fields.get("event"), "id": fields.get("id"), "body": json.loads(body)}
                fields = self.pending
                continue
            name, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if name == "data":
                fields["data"].append(value)
            elif name in ("event", "id"):
                fields[name] = value

    def events(self, count, timeout=3):
        """The next `count` events, then checks that no other follows within half a second."""
        got = []
        deadline = time.monotonic() + timeout
        while len(got) < count:
            event = self.next_event(max(0.05, deadline - time.monotonic()))
            assert event is not None, f"only {len(got)} of {count} events arrived: {got}"
            got.append(event)
        extra = self.next_event(0.5)
        assert extra is None, f"an event more than expected: {extra}"
        return got

    def ended(self, timeout=3):
        """Whether the server ends the stream within `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while self.readline(deadline) is not None or not self.closed:
            if time.monotonic() >= deadline:
                return False
        return True

    def close(self):
        self.socket.close()


def tick(base, page, row, headers=None):
    status, body = call(base, "POST", f"/pages/{page}/rows/{row}/select", "{}", headers)
    assert status == 200, body
    return body["version"]


def add(base, page, title, headers=None):
    status, body = call(base, "POST", f"/pages/{page}/sections/todos/rows", json.dumps({"title": title}), headers)
    assert status == 201, body
    return body["version"]


def test_each_page_is_replayed_exactly_from_its_own_id_after_a_reconnect(server):
    checklist, todo = version(server, "checklist"), version(server, "todo")
    stream = Stream(server, query((checklist, "/pages/checklist"), (todo, "/pages/todo")))
    assert stream.status == 200
    first = tick(server, "checklist", "item-1")
    [event] = stream.events(1)
    assert (event["page"], event["event"], event["id"], event["body"]["version"]) == (0, "patch", str(first), first)
    stream.close()

    # Missed while away: two patches of the checklist, one of the to-dos.
    missed_checklist = [tick(server, "checklist", "item-2"), tick(server, "checklist", "item-3")]
    missed_todo = [add(server, "todo", "Replayed to-do")]
    stream = Stream(server, query((first, "/pages/checklist"), (todo, "/pages/todo")))
    events = stream.events(3)
    assert [int(e["id"]) for e in events if e["page"] == 0] == missed_checklist
    assert [int(e["id"]) for e in events if e["page"] == 1] == missed_todo
    assert all(e["event"] == "patch" and e["body"]["version"] == int(e["id"]) for e in events)
    assert "Replayed to-do" in json.dumps([e["body"] for e in events if e["page"] == 1])
    stream.close()

    # One page's id is stale: that page alone is reset, the other still replayed and then live.
    stream = Stream(server, query((12345, "/pages/checklist"), (todo, "/pages/todo")))
    events = stream.events(2)
    reset = next(e for e in events if e["page"] == 0)
    assert reset["event"] == "reset" and reset["body"]["version"] == missed_checklist[-1]
    assert [int(e["id"]) for e in events if e["page"] == 1] == missed_todo
    live = add(server, "todo", "After the other page's reset")
    [event] = stream.events(1)
    assert (event["page"], int(event["id"])) == (1, live)
    # The reset page's part has ended: its next patch does not come on this stream.
    tick(server, "checklist", "item-4")
    assert stream.next_event(0.5) is None
    stream.close()


def test_two_tabs_on_one_page_at_different_versions_each_get_their_own_replay(server):
    older = version(server, "checklist")
    newer = tick(server, "checklist", "item-1")
    stream = Stream(server, query((older, "/pages/checklist"), (newer, "/pages/checklist")))
    [replayed] = stream.events(1)
    assert (replayed["page"], int(replayed["id"])) == (0, newer)
    latest = tick(server, "checklist", "item-2")
    events = stream.events(2)
    assert sorted(e["page"] for e in events) == [0, 1] and {int(e["id"]) for e in events} == {latest}
    stream.close()


def tablepages(directory, *arguments):
    return subprocess.run([BINARY, *arguments], cwd=directory, check=True, capture_output=True, text=True).stdout.strip().splitlines()


def test_access_rules_are_those_of_each_pages_own_stream(tmp_path):
    process, base = start_server(tmp_path, "--log-level", "info", anonymous_writes=False)
    try:
        # Anonymous: the per-viewer page is refused with 401, alone as the answer, beside another page as an event.
        status, body = call(base, "GET", query((None, "/pages/mine")))
        assert status == 401 and "Sign in" in body["error"]["message"]
        stream = Stream(base, query((None, "/pages/todo"), (None, "/pages/mine")))
        assert stream.status == 200
        [refused] = stream.events(1)
        assert (refused["page"], refused["event"], refused["body"]["error"]["status"]) == (1, "refused", 401)
        stream.close()

        first = tablepages(tmp_path, "token", "create", "--name", "first", "--write")[-1]
        second = tablepages(tmp_path, "token", "create", "--name", "second", "--write")[-1]
        as_first, as_second = {"Authorization": "Bearer " + first}, {"Authorization": "Bearer " + second}
        # The server picks each new token up on its own (the two `token create` runs are two writes
        # of the credentials store), so each is waited for: the second may arrive a poll later.
        for headers in (as_first, as_second):
            assert wait_until(lambda: call(base, "GET", "/pages/mine.json", headers=headers)[0] == 200, 5), \
                "the server did not pick up the new tokens"
        stream = Stream(base, query((None, "/pages/mine"), (None, "/pages/todo"), format="html"), as_first)
        assert stream.status == 200
        time.sleep(0.2)
        # Another actor's list is another variant: nothing of it reaches this stream.
        add(base, "mine", "Second's own secret", as_second)
        assert stream.next_event(0.5) is None
        mine = add(base, "mine", "First's own", as_first)
        [event] = stream.events(1)
        assert (event["page"], int(event["id"])) == (0, mine)
        # A writer's HTML patches carry the row's controls, as on the page's own stream.
        assert "First's own" in json.dumps(event["body"]) and "tk-delete" in json.dumps(event["body"])
        # Revoked: the server ends the stream.
        tablepages(tmp_path, "token", "revoke", "first")
        assert stream.ended(3), "the stream of a revoked token stayed open"
        stream.close()
    finally:
        stop_server(process)


@pytest.mark.parametrize("path, status", [
    ("/-/events", 400),
    (query((None, "/pages/nope")), 404),
    ("/-/events?page=todo", 400),
    ("/-/events?page=/pages/", 400),
    ("/-/events?page=/pages/todo/rows/todo-1", 400),
    ("/-/events?page=/pages/%25ZZ", 400),
    ("/-/events?page=" + "9" * 80 + ":/pages/todo", 400),
    ("/-/events?page=/etc/passwd", 400),
    (query((None, "/pages/todo"), format="xml"), 400),
    ("/-/events?" + "&".join(["page=/pages/todo"] * 65), 400),
])
def test_what_cannot_be_followed_gets_a_clear_4xx(server, path, status):
    got, body = call(server, "GET", path)
    assert got == status, body
    assert body["error"]["message"] and body["error"]["status"] == status


def test_hostile_page_values_never_get_a_500(server):
    pieces = ["/pages/", "todo", "checklist", ":", "?", "&", "=", "%", "%2F", "%00", "..", "/", "-1", "42", "\u2028", "é", " ", "+", "#", "mine", "layout=list"]
    generator = random.Random(20)
    for _ in range(300):
        value = "".join(generator.choice(pieces) for _ in range(generator.randint(0, 7)))
        stream = Stream(server, "/-/events?" + urllib.parse.urlencode([("page", value), ("format", "json")]))
        assert stream.status < 500, value
        stream.close()
