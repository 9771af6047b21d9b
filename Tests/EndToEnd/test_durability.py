"""What the server acknowledges is on disk: across a graceful restart and across `kill -9`."""
import json
import signal
import subprocess
import urllib.request

from conftest import post, start_server, stop_server
from test_database_live import Events


def todo_titles(base):
    with urllib.request.urlopen(base + "/pages/todo.json", timeout=5) as response:
        page = json.load(response)
    return [row.get("title") for section in page["sections"] for row in section["rows"]]


def test_an_acknowledged_create_survives_kill_9(tmp_path):
    process, base = start_server(tmp_path)
    status, _ = post(base + "/pages/todo/sections/todos/rows", json.dumps({"title": "Survive the crash"}))
    assert status == 201
    # No grace: the process dies the moment the answer is in.
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=10)

    process, base = start_server(tmp_path)
    try:
        assert "Survive the crash" in todo_titles(base)
    finally:
        stop_server(process)


def test_changes_persist_across_a_restart(tmp_path):
    process, base = start_server(tmp_path)
    post(base + "/pages/todo/sections/todos/rows", json.dumps({"title": "Kept"}))
    before = todo_titles(base)
    stop_server(process)

    process, base = start_server(tmp_path)
    try:
        assert todo_titles(base) == before
        assert "Kept" in before
    finally:
        stop_server(process)


def todo_version(base):
    with urllib.request.urlopen(base + "/pages/todo.json", timeout=5) as response:
        return json.load(response)["version"]


def test_a_client_is_up_to_date_after_a_restart_and_reset_after_a_change_made_while_down(tmp_path):
    # The examples' versions are the database's clock: after a restart the same data has the
    # same version, so a reconnecting client's Last-Event-ID still names the page it shows.
    process, base = start_server(tmp_path)
    post(base + "/pages/todo/rows/todo-3/select")
    version = todo_version(base)
    stop_server(process)

    process, base = start_server(tmp_path)
    try:
        assert todo_version(base) == version
        stream = Events(base + "/pages/todo/events?format=json", last_event_id=version)
        post(base + "/pages/todo/rows/todo-4/select")
        # No reset first: the next event is the toggle's patch, straight after the client's version.
        event = stream.next(timeout=5)
        assert event["event"] == "patch", event
        assert any(op.get("row") == "todo-4" for op in event["patch"]["ops"])
        stream.close()
        version = todo_version(base)
    finally:
        stop_server(process)

    # A change made while the server is down (the sqlite3 shell): the client's version is gone.
    subprocess.run(["sqlite3", str(tmp_path / "tablepages.sqlite"), "UPDATE todo SET title = 'Changed while down' WHERE id = 5"], check=True)
    process, base = start_server(tmp_path)
    try:
        assert todo_version(base) != version
        stream = Events(base + "/pages/todo/events?format=json", last_event_id=version)
        assert stream.next(timeout=5)["event"] == "reset"
        stream.close()
    finally:
        stop_server(process)
