"""Hostile data against the real server: values no page expects, written straight into every text
column of the examples' database, must render on every page as HTML and JSON without ending the
process; titles of a megabyte posted by a client must not grow its memory with them."""
import json
import socket
import sqlite3
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest

from conftest import start_server, stop_server, wait_until

# What a careless import or a hostile writer leaves in a database.
HOSTILE_VALUES = {
    "empty": "",
    "only quotes": '"' * 64,
    "markup": "<script>alert(1)</script><img src=x onerror=alert(1)>&amp;'\"",
    "100 KB": ("<&\"' é\u2028 " * 10_000)[:100_000],
    "control characters": "a\x01b\rc\x7fd\r\ne\x00f\u2029",
    "1 MB of one grapheme": "a" + "\u0301" * 500_000,
}

# Tables the example pages show; grdb_migrations is the store's own bookkeeping.
SKIPPED_TABLES = {"grdb_migrations"}
# Columns that say whose a row is, not what it shows: a hostile owner would move every to-do off
# the shared list onto one viewer's private one, and the shared page this test watches would empty.
SKIPPED_COLUMNS = {("todo", "owner")}

# A 1,048,001-byte title: "a" and 524,000 two-byte combining accents, in a body just under the
# 1 MiB body limit.
HEAVY_TITLE = "a" + "\u0301" * 524_000
INSERTS = 200
# Measured (debug build): VmRSS grew from 34.4 MB to 57.9 MB over 500 inserts (then cut to 399
# bytes; now refused); the growth is the allocator holding freed megabyte bodies. Kept whole, the
# 200 titles of a megabyte would be 200 MB.
RSS_GROWTH_BOUND_MB = 100


def request(base, path, accept_json=False, body=None, method="GET"):
    """Returns (status, body bytes); HTTP errors are answers too."""
    headers = {"Accept": "application/json"} if accept_json else {}
    if body is not None:
        headers["Content-Type"] = "application/json"
    req = urllib.request.Request(base + path, data=body, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=60) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def text_columns(database):
    """{table: [text column, …]} for every table of the examples' database."""
    with sqlite3.connect(database) as db:
        tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
        columns = {}
        for table in tables:
            if table in SKIPPED_TABLES:
                continue
            names = [row[1] for row in db.execute(f'PRAGMA table_info("{table}")')
                     if "TEXT" in (row[2] or "").upper() and (table, row[1]) not in SKIPPED_COLUMNS]
            if names:
                columns[table] = names
        return columns


# Values at least this long go into one row of each table, not all: every column of every page
# still renders one, and the pages stay a few megabytes (in every row, the products page was 12 MB
# of HTML with the 100 KB value and 90 MB with the megabyte one, which a debug build took over a
# minute to write; large pages have tests of their own in test_hostile_variants and the exports).
ONE_ROW_FROM = 50_000


def write_everywhere(database, columns, value):
    """Sets every text column of every row of every table to `value` (of one row, the first by
    rowid, for a value of ONE_ROW_FROM characters or more), in one transaction."""
    rows = "" if len(value) < ONE_ROW_FROM else " WHERE rowid = (SELECT min(rowid) FROM \"{table}\")"
    with sqlite3.connect(database, timeout=30) as db:
        for table, names in columns.items():
            assignments = ", ".join(f'"{name}" = :value' for name in names)
            db.execute(f'UPDATE "{table}" SET {assignments}' + rows.format(table=table), {"value": value})


def page_urls(base):
    """Every page listed at /.json with each of its variants, the product detail, and the first
    row of each section of each, as (path, query) pairs."""
    status, body = request(base, "/.json")
    assert status == 200
    urls = []
    for page in json.loads(body)["pages"]:
        path = page["url"]
        urls.append((path, ""))
        for name, values in page.get("variants", {}).items():
            urls.extend((path, urllib.parse.urlencode({name: value})) for value in values)
    urls.append(("/pages/product", "id=1"))
    return urls


def check_page(base, path, query, value_name):
    """GETs a page as HTML and JSON, and its first rows on their own URLs."""
    suffix = "?" + query if query else ""
    status, html = request(base, path + suffix)
    assert status == 200, f"{path}{suffix} answered {status} with {value_name!r}: {html[:300]!r}"
    assert b"<script>alert" not in html and b"<img src=x" not in html, f"{path}{suffix} let markup through"
    status, body = request(base, path + ".json" + suffix)
    assert status == 200, f"{path}.json{suffix} answered {status} with {value_name!r}: {body[:300]!r}"
    page = json.loads(body)
    for section in page.get("sections", []):
        for row in section.get("rows", [])[:1]:
            row_path = f"{path}/rows/{urllib.parse.quote(row['id'], safe='')}{suffix}"
            status, row_html = request(base, row_path)
            assert status in (200, 404), f"{row_path} answered {status} with {value_name!r}"
            assert b"<script>alert" not in row_html
            status, row_json = request(base, row_path, accept_json=True)
            assert status in (200, 404), f"{row_path} (JSON) answered {status} with {value_name!r}"
            json.loads(row_json)


def todo_version(base):
    status, body = request(base, "/pages/todo.json")
    assert status == 200
    return json.loads(body)["version"]


def declared_post_status(base, path, length):
    """The status the server answers a POST head declaring a `length`-byte JSON body, sent alone:
    a body over the limit is refused before it is read (sending it would meet a closed socket)."""
    host, port = urllib.parse.urlsplit(base).netloc.split(":")
    with socket.create_connection((host, int(port)), timeout=10) as connection:
        connection.sendall(f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
                           f"Accept: application/json\r\nContent-Length: {length}\r\n\r\n".encode())
        status_line = connection.makefile("rb").readline().decode()
    return int(status_line.split()[1])


def resident_megabytes(process):
    with open(f"/proc/{process.pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


@pytest.fixture()
def examples(tmp_path):
    """The example server in a scratch directory: (process, base URL, database path)."""
    process, base = start_server(tmp_path)
    yield process, base, str(tmp_path / "tablepages.sqlite")
    stop_server(process)


def test_hostile_values_in_every_text_column_render_on_every_page(examples):
    process, base, database = examples
    columns = text_columns(database)
    assert {"destination", "product", "todo", "review"} <= set(columns), columns
    urls = page_urls(base)
    for name, value in HOSTILE_VALUES.items():
        before = todo_version(base)
        write_everywhere(database, columns, value)
        # The store notices commits by other processes within about 100 ms; the to-do page shows it.
        assert wait_until(lambda: todo_version(base) != before, 60.0), f"the change to {name!r} was not noticed"
        started = time.monotonic()
        for path, query in urls:
            check_page(base, path, query, name)
            assert process.poll() is None, f"the server died rendering {path} with {name!r}"
        print(f"\n{name}: every page in {time.monotonic() - started:.1f} s")
    status, body = request(base, "/healthz")
    assert status == 200, body


def test_megabyte_titles_are_refused_saying_the_limit_and_memory_stays_bounded(examples):
    process, base, _ = examples
    status, body = request(base, "/pages/todo.json")
    assert status == 200
    sections = json.loads(body)["sections"]
    # The section of deletable to-dos is the one new to-dos are inserted into.
    section = next(s["id"] for s in sections if any(row.get("editingStyle") == "delete" for row in s["rows"]))
    path = f"/pages/todo/sections/{urllib.parse.quote(section, safe='')}/rows"

    # Over the 1 MiB body limit: refused from its Content-Length, before the body is read.
    too_big = json.dumps({"title": "a" + "\u0301" * 525_000}, ensure_ascii=False).encode()
    assert declared_post_status(base, path, len(too_big)) == 413

    body = json.dumps({"title": HEAVY_TITLE}, ensure_ascii=False).encode()
    assert len(body) < 1 << 20
    start_rss = resident_megabytes(process)
    started = time.monotonic()
    for number in range(INSERTS):
        status, answer = request(base, path, accept_json=True, body=body, method="POST")
        # Refused, saying the limit in the characters a browser counts (UTF-16 code units), not cut.
        assert status == 400, f"insert {number} answered {status}: {answer[:300]!r}"
        assert b"at most 400 characters; this one has 524001." in answer, answer[:300]
    elapsed = time.monotonic() - started
    end_rss = resident_megabytes(process)
    print(f"\n{INSERTS} refused inserts of {len(body):,}-byte bodies in {elapsed:.1f} s; "
          f"VmRSS {start_rss:.1f} MB -> {end_rss:.1f} MB")
    assert end_rss - start_rss < RSS_GROWTH_BOUND_MB, f"VmRSS grew from {start_rss:.1f} MB to {end_rss:.1f} MB"

    # A hostile title at the limit is kept whole, and shown escaped.
    at_limit = "<script>x</script>a" + "\u0301" * (400 - 19)
    status, answer = request(base, path, accept_json=True, body=json.dumps({"title": at_limit}).encode(), method="POST")
    assert status == 201, answer[:300]
    status, body = request(base, "/pages/todo.json?limit=1000")
    assert status == 200
    titles = [row.get("title", "") for s in json.loads(body)["sections"] for row in s["rows"]]
    assert at_limit in titles and not any(title.startswith("a\u0301") for title in titles)
    status, page = request(base, "/pages/todo?limit=1000")
    text = page.decode()
    assert status == 200 and "&lt;script&gt;x&lt;/script&gt;a\u0301" in text and "<script>x</script>" not in text
    assert process.poll() is None
