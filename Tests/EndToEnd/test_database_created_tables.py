"""A table created or altered while `tablepages serve --database shop.sqlite --writable` runs is
served at once, over HTTP: through Datasette's `/-/create` and `alter` (the page is there when the
write is answered) and by another process (`sqlite3`, within the store's poll). Its page, `.json`,
Datasette URLs (for a table another process made too, which they read and write), the index
(`/{database}.json` lists no tables here: only `?sql=` is served); writable by whom the access
rules say; an open stream of an altered table is told to fetch it again; a dropped table's page
and Datasette URL go. An empty file served writable still logs a sign-in link."""
import json
import sqlite3
import subprocess
import threading
import time
import urllib.error
import urllib.request

import pytest

from conftest import BINARY, post, start_server, stop_server, wait_until


@pytest.fixture()
def shop(tmp_path):
    """A one-table shop served writable; yields (base URL, path, a write token, a token for `items` alone)."""
    database = tmp_path / "shop.sqlite"
    with sqlite3.connect(database) as db:
        db.executescript("PRAGMA journal_mode = WAL; CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO items VALUES (1, 'Tea');")

    def token(*arguments):
        return subprocess.run([BINARY, "token", "create", *arguments], cwd=tmp_path, capture_output=True, text=True,
                              timeout=30, check=True).stdout.strip().splitlines()[-1]

    tokens = token("--name", "script", "--write"), token("--name", "items-only", "--write", "--pages", "items")
    process, base = start_server(tmp_path, "--database", str(database), "--writable", anonymous_writes=False)
    yield base, database, *tokens
    stop_server(process)


def get(url, token=None):
    """(status, text) of a GET preferring JSON."""
    headers = {"Accept": "application/json", **({"Authorization": "Bearer " + token} if token else {})}
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def write(base, token, path, body):
    try:
        return post(base + path, json.dumps(body), headers={"Authorization": "Bearer " + token})
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def test_a_created_table_is_served_when_the_create_is_answered(shop):
    base, _, token, items_only = shop
    assert get(base + "/pages/birds.json")[0] == 404
    status, _ = write(base, token, "/shop/-/create", {"table": "birds", "columns": [
        {"name": "id", "type": "integer"}, {"name": "name", "default": "unnamed"}, {"name": "item", "type": "integer", "fk_table": "items"}], "pk": "id"})
    assert status == 201
    # No wait: the page is registered before the answer.
    status, page = get(base + "/pages/birds.json")
    assert status == 200, page
    assert "birds" in get(base + "/")[1], "listed in the index"
    assert get(base + "/shop/birds.json")[0] == 200
    # Written by whom the rules say: the token for every page through the browser's form and the
    # API; the token for `items` alone neither.
    assert post(base + "/pages/birds/-/insert", "v.name=Zazu&v.item=1", content_type="application/x-www-form-urlencoded",
                headers={"Authorization": "Bearer " + token})[0] == 201
    assert write(base, items_only, "/shop/birds/-/insert", {"row": {"name": "no"}})[0] == 403
    try:
        post(base + "/pages/birds/-/insert", "v.name=no", content_type="application/x-www-form-urlencoded", headers={"Authorization": "Bearer " + items_only})
        assert False, "the items-only token wrote the new table"
    except urllib.error.HTTPError as error:
        assert error.code == 403
    rows = json.loads(get(base + "/shop/birds.json?_shape=array")[1])
    assert [(row["name"], row["item"]) for row in rows] == [("Zazu", 1)]


def test_an_altered_table_shows_its_new_column_and_its_followers_fetch_it_again(shop):
    base, _, token, _ = shop
    assert '"colour"' not in get(base + "/pages/items.json")[1]
    events = []
    stream = urllib.request.urlopen(urllib.request.Request(base + "/pages/items/events", headers={"Accept": "text/event-stream"}), timeout=10)

    def read():
        for line in stream:
            events.append(line.decode())

    threading.Thread(target=read, daemon=True).start()
    assert write(base, token, "/shop/items/-/insert", {"row": {"id": 2, "name": "Mug", "colour": "red"}, "alter": True})[0] == 201
    assert wait_until(lambda: any(line.startswith("event: reset") for line in events), 5), events
    page = json.loads(get(base + "/pages/items.json")[1])
    assert '"colour"' in json.dumps(page) and "red" in json.dumps(page)


def test_a_table_another_process_creates_is_served_within_a_second(shop):
    base, database, token, _ = shop
    with sqlite3.connect(database) as db:
        db.execute("CREATE TABLE walks (id INTEGER PRIMARY KEY, at TEXT)")
        db.execute("INSERT INTO walks VALUES (1, 'noon')")
    start = time.monotonic()
    assert wait_until(lambda: get(base + "/pages/walks.json")[0] == 200, 5)
    assert time.monotonic() - start < 1.0
    assert "noon" in get(base + "/pages/walks.json")[1]
    # Datasette's URLs follow the same reload: no restart needed to read or write it there.
    status, rows = get(base + "/shop/walks.json?_shape=array")
    assert status == 200 and "noon" in rows, rows
    assert write(base, token, "/shop/walks/-/insert", {"row": {"at": "dusk"}})[0] == 201
    with sqlite3.connect(database) as db:
        db.execute("DROP TABLE walks")
    assert wait_until(lambda: get(base + "/pages/walks.json")[0] == 404, 5), "a dropped table's page goes"
    assert get(base + "/shop/walks.json")[0] == 404


def test_an_empty_writable_file_logs_a_sign_in_link(tmp_path):
    """Tables created later are writable, so someone must be able to sign in to write them."""
    database = tmp_path / "empty.sqlite"
    sqlite3.connect(database).close()
    process, _ = start_server(tmp_path, "--database", str(database), "--writable", anonymous_writes=False)
    try:
        def log():
            return (tmp_path / "server.log").read_text()
        assert wait_until(lambda: "/-/signin?token=" in log(), 5), log()
        assert "every page is read-only" not in log()
    finally:
        stop_server(process)
