"""Datasette's JSON write API, compared with Datasette 1.0a41 itself: one SQLite file, copied,
served writable by TablePages (`--writable`, an access token made by `tablepages token create`)
and by Datasette 1.0a41 (a token made by `datasette create-token`), and sent the same requests
in the same order — inserts, upserts, updates, deletes, creates, bad values, missing rows, no
token, a read-only token. Each answer must be the same (status, and the JSON document with the
servers' own address written as BASE) and, at the end, so must every table's rows and its
CREATE TABLE text. `dclient insert … --create`, with `--replace` and `--alter`, is run against
both too.

Datasette 1.0a41 is installed from PyPI into a virtual environment of its own, kept between runs
in ~/.cache/tablepages/datasette-1.0a41 (DATASETTE_WRITE_VENV names another): the reads are compared
with 0.65.5 (`make test-deps`), which stays the one on the test interpreter."""
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import urllib.error
import urllib.request

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import BINARY, start_datasette, start_server, stop_server

VERSION = "1.0a41"
VENV = os.environ.get("DATASETTE_WRITE_VENV", os.path.expanduser(f"~/.cache/tablepages/datasette-{VERSION}"))
SECRET = "write-api-comparison"

SCHEMA = """
create table dogs (id integer primary key, name text not null, age integer check (age >= 0));
insert into dogs values (1, 'Cleo', 5), (2, 'Pancakes', 3);
create table pairs (a text, b integer, v text, primary key (a, b));
insert into pairs values ('x', 1, 'one');
create table loose (name text, n integer);
insert into loose values ('first', 1);
create table "odd name" (id integer primary key, "some, col" text);
create view dog_names as select name from dogs;
"""

W, R, NONE = "write", "read", None

# (path, body, token): sent in this order to both servers. `body` is JSON, or bytes sent as they are.
STEPS = [
    ("/d/dogs/-/insert", {"row": {"name": "Rex", "age": 2}}, W),
    ("/d/dogs/-/insert", {"rows": [{"name": "A"}, {"name": "B", "age": 1}]}, W),
    ("/d/dogs/-/insert", {"rows": [{"name": "C"}], "return": True}, W),
    ("/d/dogs/-/insert", {"rows": [{"id": 1, "name": "Dup"}]}, W),
    ("/d/dogs/-/insert", {"rows": [{"id": 1, "name": "Dup"}], "ignore": True, "return": True}, W),
    ("/d/dogs/-/insert", {"rows": [{"id": 1, "name": "Cleo2"}], "replace": True}, W),
    ("/d/dogs/-/insert", {"rows": [{"name": None}]}, W),
    ("/d/dogs/-/insert", {"rows": [{"name": "ok"}, {"name": "neg", "age": -1}]}, W),
    ("/d/dogs/-/insert", {"rows": [{"name": "x", "colour": "red"}]}, W),
    ("/d/dogs/-/insert", {"rows": [{"name": "x", "colour": "red"}], "alter": True, "return": True}, W),
    ("/d/dogs/-/insert", {"rows": [{"name": "x"}], "bogus": 1, "other": 2}, W),
    ("/d/dogs/-/insert", {"rows": {}}, W),
    ("/d/dogs/-/insert", {"rows": [1]}, W),
    ("/d/dogs/-/insert", {"row": [1]}, W),
    ("/d/dogs/-/insert", {"row": {}, "rows": []}, W),
    ("/d/dogs/-/insert", {}, W),
    ("/d/dogs/-/insert", [1], W),
    ("/d/dogs/-/insert", b"{not json", W),
    ("/d/dogs/-/insert", b'{"rows": [{"name": "a"}]\n x', W),
    ("/d/dogs/-/insert", {"rows": [{"name": "x"}], "ignore": True, "replace": True}, W),
    ("/d/dogs/-/insert", {"rows": [{"name": f"n{n}"} for n in range(101)]}, W),
    ("/d/dogs/-/insert", {"rows": [{"name": "hostile \u0001 <b>&amp;</b> \u202e 🐕", "age": 9}], "return": True}, W),
    ("/d/dogs/-/insert", {"rows": [{"name": "list", "colour": ["a", {"b": 1.5}]}], "return": True}, W),
    ("/d/dogs/-/insert", {"rows": [{"name": "bool", "age": True}], "return": True}, W),
    ("/d/nope/-/insert", {"rows": [{"name": "x"}]}, W),
    ("/d/dog_names/-/insert", {"rows": [{"name": "x"}]}, W),
    ("/d/dogs/-/insert", {"rows": [{"name": "x"}]}, NONE),
    ("/d/dogs/-/insert", {"rows": [{"name": "x"}]}, R),
    ("/d/dogs/-/upsert", {"rows": [{"id": 2, "age": 4}, {"id": 50, "name": "New"}], "return": True}, W),
    ("/d/dogs/-/upsert", {"rows": [{"id": 2, "name": "Pancakes", "age": 4}, {"id": 50, "name": "New"}], "return": True}, W),
    ("/d/dogs/-/upsert", {"rows": [{"name": "nokey"}, {"id": None, "name": "nullkey"}]}, W),
    ("/d/dogs/-/upsert", {"rows": [{"id": 3, "name": "y"}], "ignore": True}, W),
    ("/d/dogs/-/upsert", {"rows": [{"id": 3, "name": "y"}]}, R),
    ("/d/pairs/-/upsert", {"rows": [{"a": "x", "b": 1, "v": "uno"}, {"a": "y", "b": 2, "v": "dos"}], "return": True}, W),
    ("/d/loose/-/insert", {"rows": [{"name": "second", "n": 2}], "return": True}, W),
    ("/d/loose/-/upsert", {"rows": [{"rowid": 1, "n": 10}], "return": True}, W),
    ("/d/odd~20name/-/insert", {"row": {"some, col": "v"}}, W),
    ("/d/dogs/1/-/update", {"update": {"age": 6}}, W),
    ("/d/dogs/1/-/update", {"update": {"age": 7}, "return": True}, W),
    ("/d/dogs/1/-/update", {"update": {"name": None}}, W),
    ("/d/dogs/1/-/update", {"update": {"age": -3}}, W),
    ("/d/dogs/1/-/update", {"update": {"nope": 1}}, W),
    ("/d/dogs/1/-/update", {"update": {"size": "big"}, "alter": True, "return": True}, W),
    ("/d/dogs/1/-/update", {"age": 7}, W),
    ("/d/dogs/1/-/update", {"update": {"age": 7}, "x": 1}, W),
    ("/d/dogs/999/-/update", {"update": {"age": 7}}, W),
    ("/d/nope/1/-/update", {"update": {"age": 7}}, W),
    ("/d/dogs/1/-/update", {"update": {"age": 7}}, NONE),
    ("/d/dogs/1/-/update", {"update": {"age": 7}}, R),
    ("/d/pairs/x,1/-/update", {"update": {"v": "one!"}, "return": True}, W),
    ("/d/pairs/x,9/-/update", {"update": {"v": "none"}}, W),
    ("/d/loose/2/-/update", {"update": {"n": 20}, "return": True}, W),
    ("/d/odd~20name/1/-/update", {"update": {"some, col": "w"}, "return": True}, W),
    ("/d/dogs/2/-/delete", None, W),
    ("/d/dogs/2/-/delete", None, W),
    ("/d/dogs/1/-/delete", None, NONE),
    ("/d/dogs/1/-/delete", None, R),
    ("/d/pairs/y,2/-/delete", None, W),
    ("/d/loose/1/-/delete", None, W),
    ("/d/-/create", {"table": "cats", "columns": [{"name": "id", "type": "integer"}, {"name": "name", "type": "text", "not_null": True}], "pk": "id"}, W),
    ("/d/-/create", {"table": "cats", "columns": [{"name": "id", "type": "integer"}], "pk": "id"}, W),
    ("/d/cats/-/insert", {"rows": [{"id": 1, "name": "Tom"}], "return": True}, W),
    ("/d/-/create", {"table": "birds", "rows": [{"id": 1, "name": "Tweety", "weight": 0.5, "ok": True, "tags": ["a"]}], "pk": "id"}, W),
    ("/d/-/create", {"table": "birds", "rows": [{"id": 1, "name": "Tweety2"}], "pk": "id", "replace": True}, W),
    ("/d/-/create", {"table": "birds", "rows": [{"id": 1, "name": "Tweety3"}], "pk": "id", "ignore": True}, W),
    ("/d/-/create", {"table": "birds", "rows": [{"id": 2, "name": "Zazu", "colour": "blue"}], "pk": "id"}, W),
    ("/d/-/create", {"table": "birds", "rows": [{"id": 2, "name": "Zazu", "colour": "blue"}], "pk": "id", "alter": True}, W),
    ("/d/-/create", {"table": "birds", "rows": [{"id": 3}], "pk": "other"}, W),
    ("/d/birds/2/-/update", {"update": {"colour": "green"}, "return": True}, W),
    ("/d/-/create", {"table": "nopk", "rows": [{"a": 1, "b": "x"}, {"a": 2.5, "b": None, "c": True}]}, W),
    ("/d/-/create", {"table": "multi", "rows": [{"a": 1, "b": "x", "c": 1}], "pks": ["a", "b"]}, W),
    ("/d/-/create", {"table": "blobs", "rows": [{"id": 1, "data": {"$base64": True, "encoded": "AAEC"}}], "pk": "id"}, W),
    ("/d/-/create", {"rows": [{"a": 1}]}, W),
    ("/d/-/create", {"table": "t2"}, W),
    ("/d/-/create", {"table": "t3", "columns": [{"name": "a", "type": "date"}]}, W),
    ("/d/-/create", {"table": "t3", "columns": [{"name": "a"}], "rows": [{"a": 1}]}, W),
    ("/d/-/create", {"table": "t3", "columns": [{"name": "a"}, {"name": "a"}]}, W),
    ("/d/-/create", {"table": "t4", "columns": [{"name": "a"}], "extra": 1}, W),
    ("/d/-/create", {"table": "t5", "columns": [{"name": "a", "type": "float"}, {"name": "b", "type": "blob"}]}, W),
    ("/d/-/create", {"table": "t6", "rows": [{"a": 1}], "ignore": True}, W),
    ("/d/-/create", {"table": "t6", "columns": [{"name": "a"}]}, NONE),
    ("/d/-/create", {"table": "t6", "columns": [{"name": "a"}]}, R),
    ("/d/-/create", {"table": "sqlite_x", "columns": [{"name": "a"}]}, W),
    ("/d/-/create", [], W),
    # A column's options: literal defaults (quoted by SQLite), default expressions and foreign keys,
    # with sqlite-utils' text in sqlite_master, and each way of getting them wrong.
    ("/d/-/create", {"table": "owners", "columns": [
        {"name": "id", "type": "integer"}, {"name": "name", "default": "it's"}, {"name": "n", "type": "integer", "default": 3, "not_null": True},
        {"name": "w", "type": "float", "default": 0.1}, {"name": "flag", "type": "integer", "default": True}, {"name": "nothing", "default": None}], "pk": "id"}, W),
    ("/d/owners/-/insert", {"row": {"id": 1}, "return": True}, W),
    ("/d/-/create", {"table": "walks", "columns": [
        {"name": "id", "type": "integer"}, {"name": "dog", "type": "integer", "fk_table": "dogs"},
        {"name": "owner", "type": "integer", "fk_table": "owners", "fk_column": "ID"}, {"name": "at", "default_expr": "current_timestamp"},
        {"name": "day", "default_expr": "current_date"}, {"name": "time", "default_expr": "current_time"},
        {"name": "s", "type": "integer", "default_expr": "current_unixtime"}, {"name": "ms", "type": "integer", "default_expr": "current_unixtime_ms"},
        {"name": "prev", "type": "integer", "fk_table": "walks", "fk_column": "id"}, {"name": "odd", "fk_table": "odd name"}], "pk": "id"}, W),
    ("/d/-/create", {"table": "by_rowid", "columns": [{"name": "a", "fk_table": "loose", "fk_column": "rowid"}, {"name": "b", "fk_table": ""}]}, W),
    ("/d/-/create", {"table": "bad1", "columns": [{"name": "a", "fk_table": "loose"}]}, W),
    ("/d/-/create", {"table": "bad2", "columns": [{"name": "a", "fk_table": "pairs"}]}, W),
    ("/d/-/create", {"table": "bad3", "columns": [{"name": "a", "fk_table": "nosuch"}]}, W),
    ("/d/-/create", {"table": "bad4", "columns": [{"name": "a", "fk_table": "dogs", "fk_column": "nope"}]}, W),
    ("/d/-/create", {"table": "bad5", "columns": [{"name": "a", "fk_column": "id"}]}, W),
    ("/d/-/create", {"table": "bad6", "columns": [{"name": "a", "default": 1, "default_expr": "current_date"}]}, W),
    ("/d/-/create", {"table": "bad7", "columns": [{"name": "a", "default_expr": "now"}, {"name": "b", "default_expr": None}]}, W),
    ("/d/-/create", {"table": "bad8", "columns": [{"name": "a", "default": [1]}]}, W),
    ("/d/-/create", {"table": "bad9", "columns": [{"name": "a", "fk_table": 1, "not_null": "maybe", "extra": 1}]}, W),
    ("/d/-/create", {"table": "bad10", "columns": [{"name": "a", "default": {"k": 1}, "fk_table": "dogs", "fk_column": "nope"}]}, W),
]

# Where the two differ on purpose (docs/operations.md, "Datasette's write API"): step → why.
DIFFERENT = {
    # Datasette's pydantic model reports an unknown key as its own words plus a link to pydantic's
    # docs; TablePages says "Invalid keys: extra", as Datasette's /-/update does.
}

# Differences still to close: the test fails when one of them no longer differs, so the list only shrinks.
NOT_YET = {
}


def _datasette_python():
    python = os.path.join(VENV, "bin", "python")
    check = [python, "-c", f"import datasette, dclient; assert datasette.__version__ == '{VERSION}'"]
    if not os.path.exists(python) or subprocess.run(check, capture_output=True).returncode != 0:
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True, timeout=300)
        subprocess.run([python, "-m", "pip", "install", "-q", f"datasette=={VERSION}", "dclient==0.4"], check=True, timeout=600)
    return python


def _write_database(path):
    db = sqlite3.connect(path)
    db.executescript(SCHEMA)
    db.commit()
    db.close()


class Server:
    """A server of one copy of the file: its base URL, its tokens and the file."""

    def __init__(self, base, tokens, path, process, stop):
        self.base, self.tokens, self.path, self.process, self._stop = base, tokens, path, process, stop

    def post(self, path, body, token):
        data = body if isinstance(body, bytes) else (b"" if body is None else json.dumps(body).encode())
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = "Bearer " + self.tokens[token]
        request = urllib.request.Request(self.base + path, data=data, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            text = error.read()
            try:
                return error.code, json.loads(text)
            except ValueError:
                return error.code, text.decode(errors="replace")

    def stop(self):
        self._stop(self.process)


def _start_tablepages(directory):
    path = os.path.join(directory, "d.db")
    _write_database(path)

    def token(*arguments):
        done = subprocess.run([BINARY, "token", "create", *arguments], cwd=directory, capture_output=True, text=True, timeout=30, check=True)
        return done.stdout.strip().splitlines()[-1]

    tokens = {W: token("--name", "writer", "--write"), R: token("--name", "reader")}
    process, base = start_server(directory, "--database", path, "--writable", anonymous_writes=False)
    return Server(base, tokens, path, process, stop_server)


def _start_datasette(directory, python):
    path = os.path.join(directory, "d.db")
    _write_database(path)

    def token(*arguments):
        done = subprocess.run([python, "-m", "datasette", "create-token", "root", "--secret", SECRET, *arguments],
                              capture_output=True, text=True, timeout=60, check=True)
        return done.stdout.strip()

    tokens = {W: token(), R: token("-a", "view-instance", "-a", "view-database", "-a", "view-table")}
    process, base = start_datasette(path, "--secret", SECRET, "--root", python=python, immutable=False)

    def stop(process):
        process.terminate()
        process.wait(timeout=10)
    return Server(base, tokens, path, process, stop)


@pytest.fixture(scope="module")
def datasette_python():
    return _datasette_python()


@pytest.fixture()
def servers(tmp_path, datasette_python):
    (tmp_path / "ours").mkdir()
    (tmp_path / "theirs").mkdir()
    ours = _start_tablepages(str(tmp_path / "ours"))
    try:
        theirs = _start_datasette(str(tmp_path / "theirs"), datasette_python)
    except Exception:
        ours.stop()
        raise
    yield ours, theirs
    theirs.stop()
    ours.stop()


def comparable(answer, server):
    """The answer with the server's own address written as BASE."""
    status, document = answer
    return status, json.loads(json.dumps(document).replace(server.base, "BASE"))


def contents(path):
    """Every table's CREATE TABLE text and rows (rowid order), of the file at `path`."""
    db = sqlite3.connect(path)
    tables = [name for (name,) in db.execute("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name")]
    found = {}
    for name in tables:
        sql = db.execute("select sql from sqlite_master where name = ?", (name,)).fetchone()[0]
        found[name] = (sql, db.execute(f'select * from "{name.replace(chr(34), chr(34) * 2)}" order by rowid').fetchall())
    db.close()
    return found


def compare(steps, ours, theirs):
    """Sends each step to both servers; returns the steps whose answers differ."""
    differences = {}
    for index, (path, body, token) in enumerate(steps):
        mine = comparable(ours.post(path, body, token), ours)
        datasettes = comparable(theirs.post(path, body, token), theirs)
        if mine != datasettes:
            differences[index] = (path, body, token, mine, datasettes)
    return differences


def test_writes_answer_as_datasette_1_0a41_answers_them(servers):
    ours, theirs = servers
    differences = compare(STEPS, ours, theirs)
    unexpected = {index: found for index, found in differences.items() if index not in DIFFERENT and index not in NOT_YET}
    assert not unexpected, "\n".join(f"step {index} {path} {body!r} ({token}):\n  TablePages {mine}\n  Datasette  {datasettes}"
                                     for index, (path, body, token, mine, datasettes) in unexpected.items())
    closed = sorted(set(NOT_YET) - set(differences))
    assert not closed, f"steps {closed} now answer alike: take them off NOT_YET"
    assert contents(ours.path) == contents(theirs.path)


def test_text_with_nul_is_refused_naming_the_column(servers):
    """Datasette stores a text holding U+0000; TablePages cannot store it as text (it would be cut
    at it), so it refuses the write in Datasette's error shape, naming the column, and writes nothing."""
    ours, _ = servers
    before = contents(ours.path)
    message = ('Text in column "name" holds the character U+0000 (NUL), which cannot be stored as text; '
               'send it as bytes: {"$base64": true, "encoded": …}')
    for path, body in [("/d/dogs/-/insert", {"rows": [{"name": "ok"}, {"name": "a\u0000b", "age": 9}]}),
                       ("/d/dogs/-/upsert", {"rows": [{"id": 1, "name": "\u0000"}]}),
                       ("/d/dogs/1/-/update", {"update": {"name": "x\u0000"}}),
                       ("/d/-/create", {"table": "nul", "rows": [{"id": 1, "name": "\u0000"}], "pk": "id"})]:
        status, answer = ours.post(path, body, W)
        # The route's own error shape (the steps above compare it with Datasette's for its other refusals).
        assert status == 400 and answer["ok"] is False and answer["errors"] == [message], (path, answer)
        assert set(answer) <= {"ok", "errors", "error", "status"} and answer.get("error", message) == message and answer.get("status", 400) == 400
    assert contents(ours.path) == before


# Any text but U+0000 (refused: test_text_with_nul_is_refused_naming_the_column).
TEXT = st.text(st.characters(blacklist_characters="\x00", blacklist_categories=("Cs",)), max_size=20)


def test_random_rows_are_answered_and_stored_alike(servers):
    """Hypothesis: rows of any text, numbers, booleans, nulls and lists, inserted (with a new column
    where a row names one) and upserted, get the same answers from both and leave the same rows."""
    ours, theirs = servers
    values = st.one_of(st.none(), st.booleans(), st.integers(-2**63, 2**63 - 1), st.floats(allow_nan=False, allow_infinity=False),
                       TEXT, st.lists(st.integers(-5, 5), max_size=3))
    row = st.fixed_dictionaries({"name": TEXT}, optional={"age": st.integers(0, 10**6), "extra": values})

    @settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(st.lists(row, max_size=5), st.booleans(), st.sampled_from(["insert", "upsert"]))
    def check(rows, returning, action):
        if action == "upsert":
            if not rows:
                return  # Datasette 1.0a41 answers an empty returning upsert with a 500 (its SQL ends in "where")
            rows = [{"id": index % 3 + 1, **row} for index, row in enumerate(rows)]
        body = {"rows": rows, "alter": True, "return": returning}
        path = f"/d/dogs/-/{action}"
        assert comparable(ours.post(path, body, W), ours) == comparable(theirs.post(path, body, W), theirs), body

    check()
    assert contents(ours.path) == contents(theirs.path)


# The requests Datasette's documentation of its write API shows (docs/json_api.rst, "The JSON write
# API"): a row, rows, upsert, update, delete and create, with its placeholder names and values.
DOCUMENTED = [
    ("/d/-/create", {"table": "name_of_new_table", "columns": [{"name": "id", "type": "integer"}, {"name": "title", "type": "text"}], "pk": "id"}, W),
    ("/d/name_of_new_table/-/insert", {"row": {"title": "value1"}}, W),
    ("/d/name_of_new_table/-/insert", {"rows": [{"title": "value1"}, {"title": "value3"}]}, W),
    ("/d/name_of_new_table/-/insert", {"rows": [{"title": "value1"}, {"title": "value3"}], "return": True}, W),
    ("/d/name_of_new_table/-/upsert", {"rows": [{"id": 1, "title": "Updated title for 1"}, {"id": 2, "title": "Updated title for 2"}]}, W),
    ("/d/name_of_new_table/1/-/update", {"update": {"title": "New title"}}, W),
    ("/d/name_of_new_table/1/-/update", {"update": {"title": "New title", "description": "New description"}, "alter": True, "return": True}, W),
    ("/d/name_of_new_table/2/-/delete", None, W),
    ("/d/-/create", {"table": "creatures", "rows": [{"id": 1, "name": "Tarantula"}, {"id": 2, "name": "Kākāpō"}], "pk": "id"}, W),
    ("/d/-/create", {"table": "creatures", "rows": [{"id": 1, "name": "Tarantula"}, {"id": 3, "name": "Lobster"}], "pk": "id", "ignore": True}, W),
    ("/d/-/create", {"table": "creatures", "rows": [{"id": 1, "name": "Spider"}], "pk": "id", "replace": True}, W),
]


def test_datasettes_documented_examples_run_unchanged(servers):
    ours, theirs = servers
    differences = compare(DOCUMENTED, ours, theirs)
    assert not differences, differences
    assert contents(ours.path) == contents(theirs.path)


def test_dclient_insert_creates_replaces_and_alters_alike(servers, datasette_python, tmp_path):
    """dclient 0.4's `insert --create` (then `--replace`, then `--alter`), against both: the same rows."""
    ours, theirs = servers
    files = {
        "first.csv": "id,name,score\n1,Ann,3.5\n2,Bo,4\n" + "".join(f"{n},p{n},{n}\n" for n in range(3, 260)),
        "second.csv": "id,name,score\n2,Bea,5\n300,New,1\n",
        "third.csv": "id,name,score,city\n301,Cy,2,Oslo\n",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    runs = [("first.csv", "--create"), ("second.csv", "--create", "--replace"), ("third.csv", "--alter")]
    for server in (ours, theirs):
        for name, *options in runs:
            done = subprocess.run([datasette_python, "-m", "dclient", "insert", server.base + "/d", "people", str(tmp_path / name),
                                   "--pk", "id", "--token", server.tokens[W], "--silent", *options],
                                  capture_output=True, text=True, timeout=120, env={**os.environ, "HOME": str(tmp_path)})
            assert done.returncode == 0, (server.base, name, done.stderr)
    assert contents(ours.path)["people"] == contents(theirs.path)["people"]
    assert len(contents(ours.path)["people"][1]) == 261


def test_without_writable_every_write_is_refused_and_nothing_changes(tmp_path):
    path = str(tmp_path / "d.db")
    _write_database(path)
    token = subprocess.run([BINARY, "token", "create", "--name", "writer", "--write"], cwd=tmp_path, capture_output=True, text=True, check=True).stdout.strip().splitlines()[-1]
    process, base = start_server(tmp_path, "--database", path, anonymous_writes=False)
    try:
        server = Server(base, {W: token}, path, process, stop_server)
        before = contents(path)
        for path_, body in [("/d/dogs/-/insert", {"row": {"name": "x"}}), ("/d/dogs/1/-/delete", None), ("/d/-/create", {"table": "t", "columns": [{"name": "a"}]})]:
            status, document = server.post(path_, body, W)
            assert status == 403 and "--writable" in document["error"], (path_, status, document)
        assert contents(path) == before
    finally:
        stop_server(process)


def test_a_token_for_some_pages_writes_only_those_and_never_the_schema(tmp_path):
    path = str(tmp_path / "d.db")
    _write_database(path)
    token = subprocess.run([BINARY, "token", "create", "--name", "dogs-only", "--write", "--pages", "dogs"], cwd=tmp_path,
                           capture_output=True, text=True, check=True).stdout.strip().splitlines()[-1]
    process, base = start_server(tmp_path, "--database", path, "--writable", anonymous_writes=False)
    try:
        server = Server(base, {W: token}, path, process, stop_server)
        assert server.post("/d/dogs/-/insert", {"row": {"name": "Fido"}}, W)[0] == 201
        assert server.post("/d/loose/-/insert", {"row": {"name": "no"}}, W)[0] == 403
        assert server.post("/d/dogs/-/insert", {"row": {"name": "x", "new": 1}, "alter": True}, W) == \
            (403, {"ok": False, "error": "Permission denied for alter-table", "errors": ["Permission denied for alter-table"], "status": 403})
        assert server.post("/d/-/create", {"table": "t", "columns": [{"name": "a"}]}, W)[0] == 403
        assert [row[1] for row in contents(path)["dogs"][1]] == ["Cleo", "Pancakes", "Fido"]
        assert "t" not in contents(path) and "loose" in contents(path)
    finally:
        stop_server(process)


def test_every_row_write_is_kept_in_the_audit_trail_as_the_apis(tmp_path):
    """Every row the API writes goes through the table's writer: /-/audit.json lists each, by
    the token's name, through the `api` channel, with its action and values: inserts, upserts,
    a replace (and the row it removed for clashing on a UNIQUE column), a create's rows,
    updates and deletes."""
    path = str(tmp_path / "d.db")
    _write_database(path)
    token = subprocess.run([BINARY, "token", "create", "--name", "scripted", "--write"], cwd=tmp_path,
                           capture_output=True, text=True, check=True).stdout.strip().splitlines()[-1]
    process, base = start_server(tmp_path, "--database", path, "--writable", anonymous_writes=False)
    try:
        server = Server(base, {W: token}, path, process, stop_server)
        assert server.post("/d/dogs/-/insert", {"rows": [{"name": "Rex", "age": 2}]}, W) == (201, {"ok": True})
        assert server.post("/d/dogs/-/upsert", {"rows": [{"id": 2, "name": "Pancakes", "age": 4}]}, W) == (200, {"ok": True})
        assert server.post("/d/dogs/-/insert", {"rows": [{"id": 3, "name": "Rex"}], "ignore": True}, W) == (201, {"ok": True})
        assert server.post("/d/-/create", {"table": "tags", "rows": [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}], "pk": "id"}, W)[0] == 201
        # A unique name: replacing row 1 with row 2's name removes row 2 too.
        sqlite3.connect(path).execute("create unique index tags_name on tags (name)").connection.commit()
        assert server.post("/d/tags/-/insert", {"rows": [{"id": 1, "name": "b"}], "replace": True}, W) == (201, {"ok": True})
        assert server.post("/d/dogs/1/-/update", {"update": {"age": 6}}, W) == (200, {"ok": True})
        assert server.post("/d/dogs/2/-/delete", None, W) == (200, {"ok": True})
        request = urllib.request.Request(base + "/-/audit.json", headers={"Authorization": "Bearer " + token})
        with urllib.request.urlopen(request, timeout=30) as response:
            entries = json.loads(response.read())["entries"]
        assert all((entry["actor"], entry["channel"]) == ("scripted", "api") for entry in entries), entries
        kept = [(entry["table"], entry["action"], entry["key"]) for entry in reversed(entries)]
        assert kept == [
            ("dogs", "insert", [3]), ("dogs", "update", [2]),  # the ignored row is not a change
            ("tags", "insert", [1]), ("tags", "insert", [2]),
            ("tags", "delete", [2]), ("tags", "update", [1]),
            ("dogs", "update", [1]), ("dogs", "delete", [2]),
        ], kept
        assert entries[-2]["new"] == {"id": 2, "name": "Pancakes", "age": 4} and entries[-2]["old"]["age"] == 3, entries[-2]
    finally:
        stop_server(process)


def test_an_api_insert_and_upsert_are_undone_by_their_token_over_http(tmp_path):
    """The token that inserted undoes its insert (`POST /pages/{table}/-/undo`), and its upsert;
    an upsert whose row another token changed since is a 409 that writes nothing."""
    path = str(tmp_path / "d.db")
    _write_database(path)

    def token(name):
        return subprocess.run([BINARY, "token", "create", "--name", name, "--write"], cwd=tmp_path,
                              capture_output=True, text=True, check=True).stdout.strip().splitlines()[-1]
    scripted, other = token("scripted"), token("other")
    process, base = start_server(tmp_path, "--database", path, "--writable", anonymous_writes=False)
    try:
        server = Server(base, {"scripted": scripted, "other": other}, path, process, stop_server)

        def undo(who):
            request = urllib.request.Request(base + "/pages/dogs/-/undo", data=b"", method="POST", headers={
                "Authorization": "Bearer " + server.tokens[who], "Accept": "application/json",
                "Content-Type": "application/x-www-form-urlencoded"})
            try:
                with urllib.request.urlopen(request, timeout=30) as response:
                    return response.status
            except urllib.error.HTTPError as error:
                return error.code

        def dogs():
            return contents(path)["dogs"][1]

        before = dogs()
        assert server.post("/d/dogs/-/insert", {"rows": [{"name": "Rex", "age": 2}, {"name": "Fido"}]}, "scripted")[0] == 201
        assert len(dogs()) == 4
        assert undo("scripted") == 200
        assert dogs() == before, "both rows of the insert are gone"
        assert server.post("/d/dogs/-/upsert", {"rows": [{"id": 1, "name": "Cleo", "age": 9}]}, "scripted")[0] == 200
        assert undo("scripted") == 200
        assert dogs() == before, "the upsert's row is as it was"
        assert server.post("/d/dogs/-/upsert", {"rows": [{"id": 1, "name": "Cleo", "age": 9}]}, "scripted")[0] == 200
        assert server.post("/d/dogs/1/-/update", {"update": {"age": 10}}, "other") == (200, {"ok": True})
        assert undo("scripted") == 409
        assert dogs()[0][2] == 10, "nothing undone"
    finally:
        stop_server(process)
