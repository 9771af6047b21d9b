"""Issue 31's property test, over HTTP against the real server: several clients edit one table at
once — cells through the browser's forms (each checked against the `_version` it read, some from a
stale read), inserts, pasted rows, deletes, refused values, inserts (with `replace` or `ignore`),
upserts, updates and deletes through Datasette's write API, and undos of the client's own last
change, each client with a token of its own — while viewers follow, by each page's own stream and by the shared `/-/events` that
the browser's script follows, the table page, a filtered and sorted variant of it, a window of its
first three rows by a sort, a live query that reads it, and a table whose foreign-key labels come
from it. Then:

- every viewer's copy is exactly what a fresh read of its page gives, and what the database holds
  (the window's copy, kept by the script's rules for a page loaded in part, holds the table's first
  rows in order, and its count and header are a fresh read's);
- the audit trail, replayed in its order from the starting rows, ends at the database, and each of
  its entries found the row as the previous one left it;
- every acknowledged write (2xx) is in the trail (so in the database, or overwritten by a later
  acknowledged write in the trail's order), a checked one made on the very row the client saw;
- every refused write (400/404/409) left no trace, and a 409 names the row as it is, which is not
  the one the client saw;
- an undo answers as the client's own acknowledged writes say (404 with none left, 409 when it
  names a row its last one did not touch), and an acknowledged one is in the trail as one write
  that undid the rows of that last one, by that client; no other undo is in the trail.

On SQLite (one server) and on PostgreSQL (two instances on one database, clients and viewers on
both; Datasette's URLs are a SQLite file's, so there the API's writes are the forms' unchecked
ones). Row pages are not live (no event stream), so they are checked by a fresh read only."""
import html
import json
import queue
import re
import sqlite3
import subprocess
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest
from hypothesis import HealthCheck, Phase, given, settings, strategies as st

from conftest import BINARY, psql, reader_url, start_server, stop_server
from test_database_live import Events
from test_postgres_examples import apply_patch
from test_shared_events import Stream

COLUMNS = ["id", "name", "qty"]
START = [(1, "apple", 3), (2, "pear", 600), (3, "plum", 0), (4, "fig", 720), (5, "kiwi", 9), (6, "lime", 650)]
# Items 1 and 2 are ordered: deleting either is refused by the foreign key.
ORDERS = [(1, 1, "first"), (2, 2, "second"), (3, 4, "third")]
HIGH = 500
VARIANT = f"qty__gte={HIGH}&_sort_desc=qty"
# A window of the largest three: rows move in and out of it, and its count and next link change.
WINDOW = "_sort_desc=qty&_size=3"
QUERY = {"queries": {"stock": {"sql": "select id, name, qty from items where qty > 0 order by id"}}}
STATUSES = {200, 201, 400, 404, 409}


def row_version(row):
    """`RowVersion`'s token (Sources/TablePagesDatabase/Editing/RowVersion.swift): a 64-bit FNV-1a
    hash of the row's values in column order, each with its kind, and each part ended by its length."""
    mask, value = (1 << 64) - 1, 0xcbf29ce484222325

    def mix(byte):
        nonlocal value
        value = ((value ^ byte) * 0x100000001b3) & mask

    def mix_all(data):
        for byte in data:
            mix(byte)
        for shift in range(0, 64, 8):
            mix((len(data) >> shift) & 0xFF)

    for column in COLUMNS:
        mix_all(column.encode())
        cell = row[column]
        if cell is None:
            mix(1)
        elif isinstance(cell, int):
            mix(2)
            mix_all(str(cell).encode())
        else:
            mix(4)
            mix_all(cell.encode())
    return f"{value:016x}"


def typed(row):
    """A row as the edit routes answer it (every value as the form sends it: text) with its types."""
    if row is None:
        return None
    return {"id": int(row["id"]), "name": row["name"], "qty": None if row["qty"] is None else int(row["qty"])}


def request(method, url, body=None, headers=None):
    """(status, parsed JSON body or None)."""
    data = body.encode() if isinstance(body, str) else body
    call = urllib.request.Request(url, data=data, method=method, headers={"Accept": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(call, timeout=30) as response:
            status, text = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, text = error.code, error.read()
    try:
        return status, json.loads(text)
    except ValueError:
        return status, None


def form(url, fields, token=None):
    headers = {"Content-Type": "application/x-www-form-urlencoded"} | ({"Authorization": "Bearer " + token} if token else {})
    return request("POST", url, urllib.parse.urlencode(fields), headers)


def get_json(url):
    status, body = request("GET", url)
    assert status == 200, (url, status, body)
    return body


def get_html(url):
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.read().decode()


LABEL = re.compile(r'<a href="/pages/items/rows/[^"]*" title="Show this row of items"><bdi>([^<]*)</bdi></a>')
ROW_HTML = re.compile(r'<div id="row-([^"]+)" class="tk-row"')


def labels_in(text):
    """Each row's foreign-key label in an HTML page or row fragment: {row id: label}."""
    labels = {}
    starts = [(match.start(), match.group(1)) for match in ROW_HTML.finditer(text)] + [(len(text), None)]
    for (start, row), (end, _) in zip(starts, starts[1:]):
        found = LABEL.search(text, start, end)
        labels[row] = html.unescape(found.group(1)) if found else None
    return labels


class PageCopy:
    """A client's copy of one page, kept as the browser's script keeps it: read once, then changed
    by each patch by row ids. With `html`, the rows' foreign-key labels are kept as well, from the
    patches' HTML."""

    def __init__(self, what, base, path, query="", html=False):
        self.what, self.base, self.path, self.query, self.html = what, base, path, query, html
        self.url = path + ("?" + query if query else "")
        self.document = self.fresh()
        self.labels = labels_in(get_html(base + self.url)) if html else None

    def fresh(self):
        return get_json(f"{self.base}{self.path}.json" + ("?" + self.query if self.query else ""))

    def apply(self, patch):
        # Replayed from the version read: a patch the copy already has would be applied twice.
        assert patch["version"] > self.document["version"], f"{self.url}: an old patch {patch['version']}"
        apply_patch(self.document, patch)
        if self.html:
            for op in patch["ops"]:
                if op["op"] == "delete":
                    self.labels.pop(op["row"], None)
                elif "html" in op and "row" in op:
                    self.labels.update(labels_in(op["html"]))

    def reset(self, event):
        """A `reset` from the server. None is due here: every change can be a patch, every stream
        follows on from a version the server sent, and no reader falls 256 KB behind."""
        raise AssertionError(f"{self.url}: a reset ({event}) for the copy at version {self.document['version']}")

    def rows(self):
        return [row for section in self.document["sections"] for row in section["rows"]]


class WindowCopy(PageCopy):
    """A copy of a page loaded only in part (its section ends with a next link), kept by the rules
    table-pages.js keeps one by: a row is placed only beside a loaded one, else left to the
    section's count; a loaded row that moves beside no loaded one leaves; a row that moves into the
    loaded part makes the script read the page again."""

    def __init__(self, *arguments, **options):
        super().__init__(*arguments, **options)
        self.partial = self.document["sections"][0]["next"] is not None
        self.read_again = False

    def target(self, op, partial):
        ids = [row["id"] for row in self.document["sections"][0]["rows"]]
        if "after" in op:
            if op["after"] is None:
                return 0
            if op["after"] in ids:
                return ids.index(op["after"]) + 1
        elif op.get("before") is not None and op["before"] in ids:
            return ids.index(op["before"])
        return None if partial else len(ids)

    def apply(self, patch):
        if patch["version"] <= self.document["version"]:
            # Only a page read again can be ahead of its stream.
            assert self.read_again, f"{self.url}: an old patch {patch['version']}"
            return
        section = self.document["sections"][0]
        rows = section["rows"]
        for op in patch["ops"]:
            kind, ids = op["op"], [row["id"] for row in rows]
            if kind == "insert" and op["row"] not in ids:
                at = self.target(op, self.partial)
                if at is not None:
                    rows.insert(at, op["data"])
            elif kind == "delete":
                rows[:] = [row for row in rows if row["id"] != op["row"]]
            elif kind == "replace":
                rows[:] = [op["data"] if row["id"] == op["row"] else row for row in rows]
            elif kind == "move" and op["row"] in ids:
                moved = rows.pop(ids.index(op["row"]))
                at = self.target(op, self.partial)
                if at is not None:
                    rows.insert(at, moved)
            elif kind == "move" and self.partial:
                at = self.target(op, True)
                if at is not None and not (op.get("after") is not None and ids and op["after"] == ids[-1]):
                    self.read_page_again()
                    return
            elif kind == "section-next":
                section["rowCount"] = op["rowCount"]
                self.partial = op["rowCount"] > len(rows)
            elif kind == "replace-header":
                self.document["headerView"] = op["data"]
            else:
                assert kind in ("insert", "move"), f"{self.url}: unexpected {op}"
        self.document["version"] = patch["version"]

    def read_page_again(self):
        """Reads the page again, as the script does when a row moves into the loaded part; the
        stream goes on, and its patches up to the version read are the page's already."""
        self.document, self.read_again = self.fresh(), True
        self.partial = self.document["sections"][0]["next"] is not None


class Viewer:
    """Copies of pages followed by a stream, from the versions read, so that none is missed."""

    copies: list

    def apply_waiting(self, timeout):
        """Applies the patches that arrive within `timeout` seconds."""
        raise NotImplementedError

    def settled(self, timeout=20):
        """Applies patches until every copy is at the version a fresh read gives; returns the fresh reads."""
        deadline = time.monotonic() + timeout
        while True:
            self.apply_waiting(0.2)
            fresh = [copy.fresh() for copy in self.copies]
            if all(read["version"] == copy.document["version"] for read, copy in zip(fresh, self.copies)):
                return fresh
            assert time.monotonic() < deadline, f"{[copy.url for copy in self.copies]} stuck at {[copy.document['version'] for copy in self.copies]}"


class PageViewer(Viewer):
    """One page followed by its own event stream (`/pages/{page}/events`)."""

    def __init__(self, copy):
        self.copies = [copy]
        self.connect()

    def connect(self):
        copy = self.copies[0]
        query = "&".join(part for part in [copy.query, "" if copy.html else "format=json"] if part)
        self.events = Events(f"{copy.base}{copy.path}/events" + ("?" + query if query else ""), last_event_id=copy.document["version"])

    def apply_waiting(self, timeout):
        deadline = time.monotonic() + timeout
        while True:
            try:
                event = self.events.next(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                return
            if event.get("event") == "reset":
                self.copies[0].reset(event)
            assert event.get("event", "patch") == "patch", f"{self.copies[0].url}: got {event.get('event')}"
            self.copies[0].apply(event["patch"])

    def reconnect(self):
        """Drops the stream, as a browser that loses its connection, and follows again from the copy's version."""
        self.events.close()
        self.apply_waiting(0)
        self.connect()

    def close(self):
        self.events.close()


class SharedViewer(Viewer):
    """A browser's tabs: every page over the one shared stream (`/-/events`) that
    table-pages-live.js follows, in HTML as the script asks for it."""

    def __init__(self, copies):
        self.copies = copies
        self.connect()

    def connect(self):
        pages = [("page", f"{copy.document['version']}:{copy.url}") for copy in self.copies]
        self.stream = Stream(self.copies[0].base, "/-/events?" + urllib.parse.urlencode(pages + [("format", "html")]))
        assert self.stream.status == 200

    def apply_waiting(self, timeout):
        deadline = time.monotonic() + timeout
        while (event := self.stream.next_event(max(0.0, deadline - time.monotonic()))) is not None:
            copy = self.copies[event["page"]]
            if event["event"] == "reset":
                copy.reset(event)
            assert event["event"] == "patch", f"{copy.url}: got {event['event']}"
            copy.apply(event["body"])

    def reconnect(self):
        """Drops the stream after the events already read, and follows again from the copies' versions."""
        self.apply_waiting(0)
        self.stream.close()
        self.connect()

    def close(self):
        self.stream.close()


class Site:
    """The served database and its instances (one on SQLite, two on PostgreSQL)."""

    def __init__(self, bases, run_sql, token, prefix, directory):
        self.bases, self.run_sql, self.token, self.prefix, self.directory = bases, run_sql, token, prefix, directory
        self.examples = 0

    def client_tokens(self, count):
        """A token for each of `count` clients, new for each example: an undo then finds only that example's changes."""
        self.examples += 1
        names = [f"client{number}x{self.examples}" for number in range(count)]
        return [(name, make_token(self.directory, name)) for name in names]

    def rows(self):
        lines = self.run_sql("SELECT id, name, qty FROM items ORDER BY id")
        return {row[0]: {"id": row[0], "name": row[1], "qty": row[2]} for row in lines}

    def reset(self):
        values = ", ".join(f"({i}, '{n}', {q})" for i, n, q in START)
        orders = ", ".join(f"({i}, {item}, '{note}')" for i, item, note in ORDERS)
        self.run_sql(f"DELETE FROM orders; DELETE FROM items; INSERT INTO items VALUES {values}; INSERT INTO orders VALUES {orders}", write=True)
        expected = [{"id": i, "name": n, "qty": q} for i, n, q in START]
        for base in self.bases:
            deadline = time.monotonic() + 20
            while [row["fields"] for row in get_json(base + "/pages/items.json")["sections"][0]["rows"]] != expected:
                assert time.monotonic() < deadline, "the reset did not reach the page"
                time.sleep(0.1)

    def audit(self, after):
        """The trail's entries for `items` with ids above `after`, oldest first."""
        entries, url = [], self.bases[0] + "/-/audit.json"
        while url:
            body = get_json_with(url, {"Authorization": "Bearer " + self.token})
            entries += [entry for entry in body["entries"] if entry["id"] > after]
            if not body["entries"] or body["entries"][-1]["id"] <= after or not body["next"]:
                break
            url = self.bases[0] + body["next"]
        return sorted((entry for entry in entries if entry["table"] == "items"), key=lambda entry: entry["id"])

    def last_audit_id(self):
        entries = get_json_with(self.bases[0] + "/-/audit.json", {"Authorization": "Bearer " + self.token})["entries"]
        return entries[0]["id"] if entries else 0


def get_json_with(url, headers):
    status, body = request("GET", url, headers=headers)
    assert status == 200, (url, status, body)
    return body


def make_token(directory, name="prop"):
    output = subprocess.run([BINARY, "token", "create", "--name", name, "--write"], cwd=directory, capture_output=True, text=True, timeout=30, check=True).stdout
    return output.strip().splitlines()[-1]


def datasette_prefix(directory):
    """The database's segment of Datasette's URLs, which only a SQLite file has."""
    found = re.search(r"Datasette's JSON API at /([^/\s]+)/\{table\}", (directory / "server.log").read_text())
    assert found, "the server did not say where Datasette's API is"
    return found.group(1)


@pytest.fixture(scope="module")
def sqlite_site(tmp_path_factory):
    directory = tmp_path_factory.mktemp("concurrent-sqlite")
    path = directory / "shop.sqlite"
    with sqlite3.connect(path) as db:
        db.executescript(SCHEMA.replace("SERIAL", "INTEGER"))
        db.execute("PRAGMA journal_mode = WAL")
    (directory / "site.json").write_text(json.dumps(QUERY))
    token = make_token(directory)

    def run_sql(sql, write=False):
        if write:
            subprocess.run(["sqlite3", str(path), sql], check=True, timeout=30)
            return []
        with sqlite3.connect(path) as db:
            return db.execute(sql).fetchall()

    process, base = start_server(directory, "--database", str(path), "--writable", "--config", str(directory / "site.json"))
    yield Site([base], run_sql, token, datasette_prefix(directory), directory)
    stop_server(process)


@pytest.fixture(scope="module")
def postgres_site(postgres_cluster, tmp_path_factory):
    from test_postgres_tables import drop_database, fresh_database
    name = "pg_concurrent_editing"
    url = fresh_database(postgres_cluster, name)
    psql(url, SCHEMA.replace("SERIAL", "serial") + "; SELECT setval('items_id_seq', 100)")
    directory = tmp_path_factory.mktemp("concurrent-postgres")
    (directory / "site.json").write_text(json.dumps(QUERY))
    token = make_token(directory)

    def run_sql(sql, write=False):
        if write:
            psql(url, sql)
            return []
        # As JSON: psql's lines cannot tell a value's own line breaks and bars from its own.
        return [tuple(row.values()) for row in json.loads(psql(url, f"SELECT coalesce(json_agg(row_to_json(t)), '[]') FROM ({sql}) t"))]

    # Two instances in one folder: one credentials file, so the token writes through either.
    arguments = ["--database", url, "--writable", "--watch", "--config", str(directory / "site.json"), "--sql-url", reader_url(url)]
    first, first_base = start_server(directory, *arguments)
    second, second_base = start_server(directory, *arguments)
    # Datasette's URLs are a SQLite file's: here the API's writes are the forms' unchecked ones.
    yield Site([first_base, second_base], run_sql, token, None, directory)
    stop_server(first)
    stop_server(second)
    drop_database(postgres_cluster, name)


SCHEMA = """
    CREATE TABLE items (id SERIAL PRIMARY KEY, name TEXT NOT NULL, qty INTEGER NOT NULL CHECK (qty >= 0));
    CREATE TABLE orders (id INTEGER PRIMARY KEY, item INTEGER NOT NULL REFERENCES items (id), note TEXT)
"""

KINDS = ["cell", "stale-cell", "insert", "paste", "delete", "checked-delete", "api-update", "api-delete", "api-insert", "api-upsert",
         "refused-value", "undo", "undo-row"]
# Text that markup, URLs, JSON, forms or bidirectional text could mangle (U+0000 is refused, 400).
HOSTILE = ["", "<b>&amp;</b>", "\"'", "\u2028x", "e\u0301", "\u0639\u0631\u0628\u064a", " a  b ", "%20+&=", "\\", "\x00", "\U0001F600"]
ACTION = st.tuples(st.sampled_from(KINDS), st.integers(1, 9), st.sampled_from(["name", "qty"]), st.booleans(), st.sampled_from(HOSTILE))
CLIENTS = st.lists(st.lists(ACTION, min_size=1, max_size=6), min_size=2, max_size=4)
# When the first instance's viewers lose their streams and follow again (Last-Event-ID), seconds
# after the clients start; None: never.
RECONNECT = st.sampled_from([None, 0.0, 0.05, 0.3])


class Client:
    """One client's actions, run on a thread of its own against one instance; each write's outcome
    is kept."""

    def __init__(self, number, base, site, actions, token):
        self.number, self.base, self.site, self.actions = number, base, site, actions
        # Its own token: its own actor, whose last change its undos undo.
        self.actor, self.token = token
        self.outcomes = []
        # The keys of each of this client's writes not undone, oldest first: what an undo undoes.
        self.mine = []

    def seen(self, row):
        """The row as a fresh read of its page shows it, or None."""
        status, body = request("GET", f"{self.base}/pages/items/rows/{row}.json")
        return body["fields"] if status == 200 else None

    def run(self, start):
        # What this client saw first: the versions its stale edits are made on.
        first_read = {row["id"]: row["fields"] for row in get_json(f"{self.base}/pages/items.json")["sections"][0]["rows"]}
        start.wait()
        for index, (kind, row, column, high, hostile) in enumerate(self.actions):
            # Unique values: a write is told apart from every other in the database and the trail.
            name = f"c{self.number}w{index}{hostile}"
            qty = (HIGH if high else 10) + self.number * 40 + index
            if self.site.prefix is None and kind in ("api-insert", "api-upsert"):
                # Datasette's URLs are a SQLite file's: on PostgreSQL these are the forms' writes.
                kind = "insert" if kind == "api-insert" else "api-update"
            outcome = {"kind": kind, "row": row, "name": name, "qty": qty, "column": column, "actor": self.actor}
            self.act(outcome, kind, row, column, high, name, qty, first_read)
            self.outcomes.append(outcome)
            if 200 <= outcome["status"] < 300:
                if kind in ("undo", "undo-row"):
                    self.mine.pop()
                elif outcome.get("written", True):
                    self.mine.append(outcome["keys"])

    def act(self, outcome, kind, row, column, high, name, qty, first_read):
        """Makes one write and keeps what it was told in `outcome` (with the keys it wrote, when acknowledged)."""
        pages, token = f"{self.base}/pages/items", self.token
        api = {"Content-Type": "application/json", "Authorization": "Bearer " + token}
        outcome["keys"] = [row]
        if kind in ("cell", "stale-cell", "refused-value"):
            seen = first_read.get(str(row)) if kind == "stale-cell" else self.seen(row)
            value = {"name": name, "qty": -1 if kind == "refused-value" else qty}
            if kind == "refused-value":
                # A value the CHECK refuses, beside a name that must then appear nowhere.
                column = outcome["column"] = "qty"
            fields = [("v." + column, str(value[column])), ("_version", row_version(seen) if seen else "0" * 16)]
            if kind == "refused-value":
                fields.append(("v.name", name))
            outcome.update(seen=seen, version=fields[1][1], value=value[column])
            outcome["status"], outcome["body"] = form(f"{pages}/rows/{row}/-/update", fields, token)
        elif kind == "insert":
            outcome["status"], outcome["body"] = form(f"{pages}/-/insert", [("v.name", name), ("v.qty", str(qty))], token)
            outcome["keys"] = [int(key) for key in (outcome["body"] or {}).get("ids", [])]
        elif kind == "paste":
            # Two rows copied from a spreadsheet, written in one transaction.
            outcome["pasted"] = [(name + "/1", qty), (name + "/2", qty + 2000)]
            text = "name\tqty\n" + "".join(f"{pasted}\t{number}\n" for pasted, number in outcome["pasted"])
            outcome["status"], outcome["body"] = form(f"{pages}/-/insert", [("_paste", text)], token)
            outcome["keys"] = [int(key) for key in (outcome["body"] or {}).get("ids", [])]
        elif kind in ("delete", "checked-delete"):
            seen = self.seen(row) if kind == "checked-delete" else None
            fields = [("_version", row_version(seen) if seen else "0" * 16)] if kind == "checked-delete" else []
            outcome.update(seen=seen, version=fields[0][1] if fields else None)
            outcome["status"], outcome["body"] = form(f"{pages}/rows/{row}/-/delete", fields, token)
        elif kind in ("api-update", "api-delete") and self.site.prefix is None:
            outcome["value"] = name if column == "name" else qty
            path = f"{pages}/rows/{row}/-/" + ("update" if kind == "api-update" else "delete")
            outcome["status"], outcome["body"] = form(path, [("v." + column, str(outcome["value"]))] if kind == "api-update" else [], token)
        elif kind == "api-update":
            outcome["value"] = name if column == "name" else qty
            outcome["status"], outcome["body"] = request(
                "POST", f"{self.base}/{self.site.prefix}/items/{row}/-/update", json.dumps({"update": {column: outcome["value"]}}), api)
        elif kind == "api-delete":
            outcome["status"], outcome["body"] = request("POST", f"{self.base}/{self.site.prefix}/items/{row}/-/delete", None, api)
        elif kind == "api-insert":
            # With a key (`high`), clashing with a row there or not: replaced (by `name`) or ignored.
            outcome["conflict"] = ("replace" if column == "name" else "ignore") if high else None
            new = ({"id": row} if high else {}) | {"name": name, "qty": qty}
            options = {outcome["conflict"]: True} if outcome["conflict"] else {}
            outcome["status"], outcome["body"] = request(
                "POST", f"{self.base}/{self.site.prefix}/items/-/insert", json.dumps({"row": new, "return": True} | options), api)
            returned = (outcome["body"] or {}).get("rows") or [{}]
            # An ignored row comes back as the row it clashed with.
            outcome["written"] = returned[0].get("name") == name
            outcome["keys"] = [returned[0].get("id")]
        elif kind == "api-upsert":
            # The whole row (`high`: inserted when it is not there) or one column (refused then: NOT NULL).
            outcome["value"] = name if column == "name" else qty
            new = {"id": row} | ({"name": name, "qty": qty} if high else {column: outcome["value"]})
            outcome["whole"] = high
            outcome["status"], outcome["body"] = request(
                "POST", f"{self.base}/{self.site.prefix}/items/-/upsert", json.dumps({"rows": [new], "return": True}), api)
        else:
            # Undo this client's last change (`undo-row`: naming its row, or with `high`, a row it may not be).
            assert kind in ("undo", "undo-row"), kind
            last = self.mine[-1] if self.mine else None
            named = None
            if kind == "undo-row":
                named = last[0] if last and not high else row
            outcome.update(last=last, named=named)
            outcome["status"], outcome["body"] = form(f"{pages}/-/undo", [("_row", str(named))] if named is not None else [], token)


def check_writes(outcomes, entries, start_rows, database):
    """The trail against the database and against what each client was told."""
    # Replayed in order, each entry found the row as the one before left it, and the end is the database.
    state = {key: dict(row) for key, row in start_rows.items()}
    for entry in entries:
        key = entry["key"][0]
        if entry["action"] == "insert":
            assert key not in state, f"an insert of a row that was there: {entry}"
            state[key] = entry["new"]
        else:
            assert state.get(key) == entry["old"], f"the trail's old row is not the row as it was: {entry} against {state.get(key)}"
            if entry["action"] == "delete":
                del state[key]
            else:
                assert entry["action"] == "update", entry
                state[key] = entry["new"]
    assert state == database, "the trail, replayed, does not end at the database"

    acknowledged = [o for o in outcomes if 200 <= o["status"] < 300]
    refused = [o for o in outcomes if o["status"] in (400, 404, 409)]
    # An undo's entries are matched to the undo alone: one can set a value a write set before.
    undone = [entry for entry in entries if entry["undoes"] is not None]
    unmatched = [entry for entry in entries if entry["undoes"] is None]
    for outcome in outcomes:
        if outcome["kind"] not in ("undo", "undo-row"):
            continue
        last, named = outcome["last"], outcome["named"]
        if last is None:
            assert outcome["status"] == 404, f"an undo with nothing to undo: {outcome}"
        elif named is not None and named not in last:
            assert outcome["status"] == 409, f"an undo naming a row the last change did not touch: {outcome}"
        else:
            # 409: the row moved on since; 400: the database refused it (a foreign key).
            assert outcome["status"] in (200, 400, 409), outcome
            if outcome["status"] == 409:
                # Only another client can have moved the row on: this one's last change is that one.
                assert any(e["key"][0] in last and e["actor"] != outcome["actor"] for e in entries), \
                    f"an undo refused as moved on, when no one else changed its rows: {outcome}"
        if outcome["status"] == 200:
            assert sorted(outcome["body"]["ids"]) == sorted(str(key) for key in last), outcome
            match = [entry for entry in undone if entry["actor"] == outcome["actor"] and entry["key"][0] in last]
            assert len(match) == len(last), f"an acknowledged undo is not in the trail: {outcome} {match}"
            assert len({entry["write_id"] for entry in match}) == 1, match
            for entry in match:
                undone.remove(entry)
    assert undone == [], f"undos in the trail that no client was told of: {undone}"
    # Datasette's deletes answer without the row: matched last, to the deletes of their key left.
    for outcome in sorted(acknowledged, key=lambda outcome: outcome["kind"] == "api-delete"):
        kind = outcome["kind"]
        if kind in ("undo", "undo-row"):
            continue
        # The entry that set the row's name (a later write of its other column keeps it).
        sets_name = [e for e in unmatched if (e["new"] or {}).get("name") == outcome["name"] != (e["old"] or {}).get("name")]
        if kind == "api-insert":
            match = sets_name
            if not outcome["written"]:
                assert outcome["conflict"] == "ignore" and match == [], f"a row not written by an insert: {outcome} {match}"
                continue
            assert len(match) == 1 and match[0]["key"][0] == outcome["keys"][0], (outcome, match)
            # A clash is replaced only when asked: an update of the row with the key.
            assert match[0]["action"] == "insert" or (match[0]["action"] == "update" and outcome["conflict"] == "replace"), (outcome, match)
            unmatched.remove(match[0])
            continue
        if kind == "api-upsert" and outcome["whole"]:
            match = [e for e in sets_name if e["key"][0] == outcome["row"]]
            assert len(match) == 1, f"an acknowledged upsert is not in the trail: {outcome}"
            unmatched.remove(match[0])
            continue
        if kind == "paste":
            assert len(outcome["body"]["ids"]) == 2, outcome
            for (name, qty), new_id in zip(outcome["pasted"], outcome["body"]["ids"]):
                [match] = [e for e in unmatched if e["action"] == "insert" and e["new"]["name"] == name]
                assert (str(match["key"][0]), match["new"]["qty"]) == (new_id, qty), (outcome, match)
                unmatched.remove(match)
            continue
        if kind == "insert":
            [new_id] = outcome["body"]["ids"]
            match = [e for e in unmatched if e["action"] == "insert" and e["new"]["name"] == outcome["name"]]
            assert len(match) == 1 and str(match[0]["key"][0]) == new_id, (outcome, match)
        elif kind in ("delete", "checked-delete", "api-delete"):
            # The forms answer with the row deleted (a key can come back: SQLite reuses the largest).
            deleted = typed((outcome["body"] or {}).get("deleted"))
            match = [e for e in unmatched if e["action"] == "delete" and e["key"][0] == outcome["row"] and deleted in (None, e["old"])][:1]
            assert match, f"an acknowledged delete is not in the trail: {outcome}"
        else:
            column, value = outcome["column"], outcome["value"]
            # The entry that set the value (later ones of the row's other column keep it).
            match = [e for e in unmatched if e["action"] == "update" and e["key"][0] == outcome["row"] and e["new"][column] == value and e["old"][column] != value]
            assert len(match) == 1, f"an acknowledged update is not in the trail: {outcome}"
            if "version" in outcome:
                # A checked edit was made on the very row its client saw.
                assert row_version(match[0]["old"]) == outcome["version"], (outcome, match[0])
                assert outcome["body"]["version"] == row_version(typed(outcome["body"]["row"]))
        if kind in ("checked-delete",):
            assert row_version(match[0]["old"]) == outcome["version"], (outcome, match[0])
        unmatched.remove(match[0])
    assert unmatched == [], f"writes in the trail that no client was told of: {unmatched}"

    everything = json.dumps([entries, database])
    for outcome in refused:
        kind = outcome["kind"]
        for name, _ in outcome.get("pasted", []):
            assert not re.search(re.escape(f'"name": {json.dumps(name)}'), everything), f"a refused paste left a trace: {outcome}"
        if kind in ("cell", "stale-cell", "refused-value", "api-update", "insert", "api-insert", "api-upsert"):
            by_name = kind in ("insert", "refused-value", "api-insert") or outcome["column"] == "name" or outcome.get("whole")
            unique = re.escape(f'"name": {json.dumps(outcome["name"])}') if by_name else f'"qty": {outcome["qty"]}[,}}]'
            assert not re.search(unique, everything), f"a refused write left a trace: {outcome}"
        if outcome["status"] == 409 and kind not in ("undo", "undo-row"):
            current = typed(outcome["body"]["current"])
            if current is not None:
                assert outcome["body"]["version"] == row_version(current)
            if outcome.get("version") is not None:
                assert outcome["version"] != outcome["body"]["version"], f"a 409 for the row as the client saw it: {outcome}"
        if kind == "refused-value" and outcome["status"] == 400:
            # The column the database refused, named (qty's CHECK; or a name holding U+0000).
            assert re.match(r"(qty|name): ", outcome["body"]["error"]["message"]), outcome


def check_viewers(site, viewers, database):
    """Each viewer's copy is what a fresh read gives, and what the database holds."""
    items = [database[key] for key in sorted(database)]
    expected = {
        "table": items,
        "variant": sorted((row for row in items if row["qty"] >= HIGH), key=lambda row: -row["qty"]),
        "window": sorted(items, key=lambda row: -row["qty"]),
        "query": sorted(({"id": row["id"], "name": row["name"], "qty": row["qty"]} for row in items if row["qty"] > 0), key=lambda row: row["id"]),
    }
    names = {row["id"]: row["name"] for row in items}
    for viewer in viewers:
        for copy, fresh in zip(viewer.copies, viewer.settled()):
            where = f"{type(viewer).__name__} of {copy.base}{copy.url}"
            if copy.what == "window":
                # What is loaded is the table's first rows, in order, never a misplaced or a stale one.
                shown = [row["fields"] for row in copy.rows()]
                assert shown == expected["window"][:len(shown)], f"{where}: {shown} is not the start of {expected['window']}"
                assert copy.document["sections"][0]["rowCount"] == len(items) == fresh["sections"][0]["rowCount"], f"{where}: the count is not the table's"
                assert copy.document["headerView"] == fresh["headerView"], f"{where}: the header differs from a fresh read"
                continue
            assert json.dumps(copy.document, sort_keys=True, indent=1).splitlines() == json.dumps(fresh, sort_keys=True, indent=1).splitlines(), \
                f"{where}: the followed copy differs from a fresh read"
            if copy.what == "orders":
                assert copy.labels == labels_in(get_html(copy.base + copy.url)), f"{where}: the followed labels differ"
                assert copy.labels == {str(i): names[item] for i, item, _ in ORDERS}, f"{where}: the labels are not the items' names"
            else:
                assert [row["fields"] for row in copy.rows()] == expected[copy.what], f"{where}: not what the database holds"
    for base in site.bases:
        for key, row in database.items():
            assert get_json(f"{base}/pages/items/rows/{key}.json")["fields"] == row


PAGES = [("table", "/pages/items", ""), ("variant", "/pages/items", VARIANT), ("window", "/pages/items", WINDOW), ("query", "/pages/queries~2Fstock", ""), ("orders", "/pages/orders", "")]


def viewers_of(base):
    """On one instance: each page followed by its own stream (the orders' in HTML, for their
    labels), and all of them over one shared stream, as a browser with a tab for each."""
    def copy(what, path, query, html):
        return (WindowCopy if what == "window" else PageCopy)(what, base, path, query, html=html)
    own = [PageViewer(copy(what, path, query, what == "orders")) for what, path, query in PAGES]
    return own + [SharedViewer([copy(what, path, query, True) for what, path, query in PAGES])]


def edit_concurrently(site, clients, reconnect_after):
    site.reset()
    after = site.last_audit_id()
    start_rows = site.rows()
    viewers = [viewer for base in site.bases for viewer in viewers_of(base)]
    viewers_of_first = viewers[:len(PAGES) + 1]
    try:
        tokens = site.client_tokens(len(clients))
        runners = [Client(number, site.bases[number % len(site.bases)], site, actions, tokens[number]) for number, actions in enumerate(clients)]
        start = threading.Barrier(len(runners))
        threads = [threading.Thread(target=runner.run, args=(start,)) for runner in runners]
        for thread in threads:
            thread.start()
        if reconnect_after is not None:
            time.sleep(reconnect_after)
            for viewer in viewers_of_first:
                viewer.reconnect()
        for thread in threads:
            thread.join(timeout=60)
        outcomes = [outcome for runner in runners for outcome in runner.outcomes]
        assert len(outcomes) == sum(len(actions) for actions in clients), "a client did not finish"
        unexpected = [outcome for outcome in outcomes if outcome["status"] not in STATUSES]
        assert unexpected == [], f"answers other than 2xx, 400, 404 and 409: {unexpected}"
        database = site.rows()
        check_writes(outcomes, site.audit(after), start_rows, database)
        check_viewers(site, viewers, database)
    finally:
        for viewer in viewers:
            viewer.close()


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck), database=None,
          phases=[Phase.explicit, Phase.generate])
@given(CLIENTS, RECONNECT)
def test_concurrent_edits_on_sqlite_reach_every_viewer_and_the_trail_keeps_each_acknowledged_one(sqlite_site, clients, reconnect_after):
    edit_concurrently(sqlite_site, clients, reconnect_after)


@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck), database=None,
          phases=[Phase.explicit, Phase.generate])
@given(CLIENTS, RECONNECT)
def test_concurrent_edits_through_two_postgresql_instances_reach_every_viewer_of_both(postgres_site, clients, reconnect_after):
    edit_concurrently(postgres_site, clients, reconnect_after)
