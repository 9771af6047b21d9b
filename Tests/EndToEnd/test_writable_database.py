"""`serve --database FILE --writable` (issue 31): the log says which tables can be edited and by
whom, the audit trail is kept in TablePages' own file, and its page answers only those who may
read it. Without `--writable` every page stays read-only, as the log says."""
import json
import os
import sqlite3
import subprocess
import urllib.error
import urllib.request

from conftest import BINARY, sign_in, start_server, stop_server, SignInLinks


def make_database(directory):
    path = os.path.join(directory, "shop.sqlite")
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
        db.execute("CREATE VIEW named AS SELECT name FROM item")
        db.execute("INSERT INTO item (name) VALUES ('first')")
    return path


def status_and_body(url, headers=None):
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=5) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def token(directory, *arguments):
    output = subprocess.run([BINARY, "token", "create", *arguments], cwd=directory, capture_output=True, text=True, timeout=30, check=True).stdout
    return output.strip().splitlines()[-1]


def test_without_writable_the_log_says_every_table_is_read_only(tmp_path):
    make_database(tmp_path)
    process, base = start_server(tmp_path, "--database", "shop.sqlite", anonymous_writes=False)
    try:
        log = (tmp_path / "server.log").read_text()
        assert "the tables of shop.sqlite are read-only (edit them with --writable)" in log
        assert "every page is read-only: no sign-in link" in log
        assert status_and_body(base + "/-/audit.json")[0] == 404, "no audit page without --writable"
    finally:
        stop_server(process)


def test_with_writable_the_log_names_the_editable_tables_and_the_audit_page_answers_only_those_allowed(tmp_path):
    path = make_database(tmp_path)
    process, base = start_server(tmp_path, "--database", "shop.sqlite", "--writable", "--audit-max-rows", "500", anonymous_writes=False)
    try:
        log = (tmp_path / "server.log").read_text()
        assert "editable by signed-in browsers and by tokens allowed to write them: item; read-only: named" in log
        assert "every write is kept in the audit trail (tablepages-credentials.sqlite, at most 500 rows), at /-/audit" in log
        assert "every page is read-only" not in log and "/-/signin?token=" in log, "a writable database's pages offer signing in"

        assert status_and_body(base + "/-/audit.json") == (401, {"ok": False, "error": "Sign in to read the audit trail.", "status": 401})
        reader = token(tmp_path, "--name", "reader")
        assert status_and_body(base + "/-/audit.json", {"Authorization": "Bearer " + reader})[0] == 403
        writer = token(tmp_path, "--name", "writer", "--write")
        assert status_and_body(base + "/-/audit.json", {"Authorization": "Bearer " + writer}) == (200, {"entries": [], "next": None})
        _, cookie = sign_in(SignInLinks(tmp_path).new())
        assert status_and_body(base + "/-/audit.json", {"Cookie": cookie})[0] == 200

        # The trail is in TablePages' own file, never in the served database.
        with sqlite3.connect(tmp_path / "tablepages-credentials.sqlite") as db:
            assert db.execute("SELECT count(*) FROM audit_log").fetchone() == (0,)
        with sqlite3.connect(path) as db:
            assert [row[0] for row in db.execute("SELECT name FROM sqlite_master ORDER BY name")] == ["item", "named"]
    finally:
        stop_server(process)


def test_help_lists_the_audit_bound():
    help_text = " ".join(subprocess.run([BINARY, "serve", "--help"], capture_output=True, text=True, timeout=30).stdout.split())
    assert "--audit-max-rows <rows> With --writable: the most writes kept in the audit trail" in help_text
    assert "(default: 100000)" in help_text
    assert "--max-pasted-rows <max-pasted-rows> With --writable: the most rows pasted from a spreadsheet" in help_text
    assert "--max-foreign-key-choices <max-foreign-key-choices> With --writable: the most rows of a referenced table" in help_text


def test_on_postgresql_the_audit_trail_keeps_its_bound_with_each_edit(postgres_database, tmp_path):
    """The newest entry, the drop of those beyond `--audit-max-rows` and the write's ticket are one
    statement on PostgreSQL: after five edits with a bound of 3, the three newest are kept."""
    from conftest import psql
    psql(postgres_database, "CREATE TABLE item (id integer PRIMARY KEY, name text NOT NULL); INSERT INTO item VALUES (1, 'first')")
    process, base = start_server(tmp_path, "--database", postgres_database, "--writable", "--audit-max-rows", "3", anonymous_writes=False)
    try:
        writer = token(tmp_path, "--name", "writer", "--write")
        for step in range(5):
            request = urllib.request.Request(base + "/pages/item/rows/1/-/update", data=f"v.name=step+{step}".encode(), method="POST",
                                             headers={"Authorization": "Bearer " + writer, "Accept": "application/json"})
            with urllib.request.urlopen(request, timeout=30) as response:
                assert response.status == 200
        kept = psql(postgres_database, "SELECT string_agg(new_values, '|' ORDER BY id) FROM tablepages.audit_log").strip()
        assert [("step " + str(step)) in part for part, step in zip(kept.split("|"), [2, 3, 4])] == [True] * 3, kept
        status, body = status_and_body(base + "/-/audit.json", {"Authorization": "Bearer " + writer})
        assert status == 200 and len(body["entries"]) == 3, body
    finally:
        stop_server(process)
