"""What the server acknowledges is on disk: across a graceful restart and across `kill -9`."""
import json
import signal
import urllib.request

from conftest import post, start_server, stop_server


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
