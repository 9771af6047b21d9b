"""Issue 31's property test, over HTTP against the real server: several clients edit one table at
once — cells through the browser's forms (each checked against the `_version` it read, some from a
stale read), inserts, pasted rows, deletes, refused values, and updates and deletes through
Datasette's write API with a token — while viewers follow, by each page's own stream and by the shared `/-/events` that
the browser's script follows, the table page, a filtered and sorted variant of it, a live query
that reads it, and a table whose foreign-key labels come from it. Then:

- every viewer's copy is exactly what a fresh read of its page gives, and what the database holds;
- the audit trail, replayed in its order from the starting rows, ends at the database, and each of
  its entries found the row as the previous one left it;
- every acknowledged write (2xx) is in the trail (so in the database, or overwritten by a later
  acknowledged write in the trail's order), a checked one made on the very row the client saw;
- every refused write (400/404/409) left no trace, and a 409 names the row as it is, which is not
  the one the client saw.

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


def form(url, fields):
    return request("POST", url, urllib.parse.urlencode(fields), {"Content-Type": "application/x-www-form-urlencoded"})


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

    def rows(self):
        return [row for section in self.document["sections"] for row in section["rows"]]


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

    def __init__(self, bases, run_sql, token, prefix):
        self.bases, self.run_sql, self.token, self.prefix = bases, run_sql, token, prefix

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


def make_token(directory):
    output = subprocess.run([BINARY, "token", "create", "--name", "prop", "--write"], cwd=directory, capture_output=True, text=True, timeout=30, check=True).stdout
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
    yield Site([base], run_sql, token, datasette_prefix(directory))
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
    yield Site([first_base, second_base], run_sql, token, None)
    stop_server(first)
    stop_server(second)
    drop_database(postgres_cluster, name)


SCHEMA = """
    CREATE TABLE items (id SERIAL PRIMARY KEY, name TEXT NOT NULL, qty INTEGER NOT NULL CHECK (qty >= 0));
    CREATE TABLE orders (id INTEGER PRIMARY KEY, item INTEGER NOT NULL REFERENCES items (id), note TEXT)
"""

KINDS = ["cell", "stale-cell", "insert", "paste", "delete", "checked-delete", "api-update", "api-delete", "refused-value"]
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

    def __init__(self, number, base, site, actions):
        self.number, self.base, self.site, self.actions = number, base, site, actions
        self.outcomes = []

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
            outcome = {"kind": kind, "row": row, "name": name, "qty": qty, "column": column}
            pages = f"{self.base}/pages/items"
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
                outcome["status"], outcome["body"] = form(f"{pages}/rows/{row}/-/update", fields)
            elif kind == "insert":
                outcome["status"], outcome["body"] = form(f"{pages}/-/insert", [("v.name", name), ("v.qty", str(qty))])
            elif kind == "paste":
                # Two rows copied from a spreadsheet, written in one transaction.
                outcome["pasted"] = [(name + "/1", qty), (name + "/2", qty + 2000)]
                text = "name\tqty\n" + "".join(f"{pasted}\t{number}\n" for pasted, number in outcome["pasted"])
                outcome["status"], outcome["body"] = form(f"{pages}/-/insert", [("_paste", text)])
            elif kind in ("delete", "checked-delete"):
                seen = self.seen(row) if kind == "checked-delete" else None
                fields = [("_version", row_version(seen) if seen else "0" * 16)] if kind == "checked-delete" else []
                outcome.update(seen=seen, version=fields[0][1] if fields else None)
                outcome["status"], outcome["body"] = form(f"{pages}/rows/{row}/-/delete", fields)
            elif kind in ("api-update", "api-delete") and self.site.prefix is None:
                outcome["value"] = name if column == "name" else qty
                path = f"{pages}/rows/{row}/-/" + ("update" if kind == "api-update" else "delete")
                outcome["status"], outcome["body"] = form(path, [("v." + column, str(outcome["value"]))] if kind == "api-update" else [])
            elif kind == "api-update":
                outcome["value"] = name if column == "name" else qty
                outcome["status"], outcome["body"] = request(
                    "POST", f"{self.base}/{self.site.prefix}/items/{row}/-/update", json.dumps({"update": {column: outcome["value"]}}),
                    {"Content-Type": "application/json", "Authorization": "Bearer " + self.site.token})
            elif kind == "api-delete":
                outcome["status"], outcome["body"] = request(
                    "POST", f"{self.base}/{self.site.prefix}/items/{row}/-/delete", None, {"Authorization": "Bearer " + self.site.token})
            self.outcomes.append(outcome)


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
    rows_written = sum(len(o.get("pasted", [None])) for o in acknowledged)
    assert len(entries) == rows_written, f"{rows_written} rows' writes acknowledged, {len(entries)} in the trail"
    unmatched = list(entries)
    # Datasette's deletes answer without the row: matched last, to the deletes of their key left.
    for outcome in sorted(acknowledged, key=lambda outcome: outcome["kind"] == "api-delete"):
        kind = outcome["kind"]
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

    everything = json.dumps([entries, database])
    for outcome in refused:
        kind = outcome["kind"]
        for name, _ in outcome.get("pasted", []):
            assert not re.search(re.escape(f'"name": {json.dumps(name)}'), everything), f"a refused paste left a trace: {outcome}"
        if kind in ("cell", "stale-cell", "refused-value", "api-update", "insert"):
            by_name = kind in ("insert", "refused-value") or outcome["column"] == "name"
            unique = re.escape(f'"name": {json.dumps(outcome["name"])}') if by_name else f'"qty": {outcome["qty"]}[,}}]'
            assert not re.search(unique, everything), f"a refused write left a trace: {outcome}"
        if outcome["status"] == 409:
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
        "query": sorted(({"id": row["id"], "name": row["name"], "qty": row["qty"]} for row in items if row["qty"] > 0), key=lambda row: row["id"]),
    }
    names = {row["id"]: row["name"] for row in items}
    for viewer in viewers:
        for copy, fresh in zip(viewer.copies, viewer.settled()):
            where = f"{type(viewer).__name__} of {copy.base}{copy.url}"
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


PAGES = [("table", "/pages/items", ""), ("variant", "/pages/items", VARIANT), ("query", "/pages/queries~2Fstock", ""), ("orders", "/pages/orders", "")]


def viewers_of(base):
    """On one instance: each page followed by its own stream (the orders' in HTML, for their
    labels), and all of them over one shared stream, as a browser with a tab for each."""
    own = [PageViewer(PageCopy(what, base, path, query, html=what == "orders")) for what, path, query in PAGES]
    return own + [SharedViewer([PageCopy(what, base, path, query, html=True) for what, path, query in PAGES])]


def edit_concurrently(site, clients, reconnect_after):
    site.reset()
    after = site.last_audit_id()
    start_rows = site.rows()
    viewers = [viewer for base in site.bases for viewer in viewers_of(base)]
    viewers_of_first = viewers[:len(PAGES) + 1]
    try:
        runners = [Client(number, site.bases[number % len(site.bases)], site, actions) for number, actions in enumerate(clients)]
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
