"""The access log from the outside: one line per request in text or JSON, all written by the time
a SIGTERM'd server exits, hostile paths escaped; and `tablepages healthcheck --ready`."""
import json
import os
import socket
import subprocess
import urllib.request

from conftest import BINARY, start_server, stop_server

REQUESTS = 40
# Sent raw: a quote, a backslash and an escape sequence that would colour a terminal.
HOSTILE = '/public/no"such\\file\x1b[31m'


def raw_get(base, path):
    """GETs `path` exactly as given (urllib would quote it); returns the status code."""
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=5) as sock:
        sock.sendall(b"GET " + path.encode("latin-1") + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        head = sock.recv(4096)
    return int(head.split(b" ")[1])


def run_and_read_log(tmp_path, *arguments):
    process, base = start_server(tmp_path, "--log-level", "info", *arguments)
    try:
        for n in range(REQUESTS):
            with urllib.request.urlopen(f"{base}/public/table-pages.css?n={n}", timeout=5) as response:
                assert response.status == 200
        # A client mistake (400: a control character in the request target), answered and logged
        # like any other.
        hostile_status = raw_get(base, HOSTILE)
        assert hostile_status == 400
    finally:
        stop_server(process)
    with open(os.path.join(tmp_path, "server.log"), encoding="utf-8") as log:
        return log.read().splitlines(), hostile_status


def test_json_log_lines_are_one_object_each_and_all_flushed_at_shutdown(tmp_path):
    lines, hostile_status = run_and_read_log(tmp_path, "--log-format", "json")
    objects = [json.loads(line) for line in lines]  # every line, not only the access lines
    assert all({"time", "level", "label", "message"} <= set(entry) for entry in objects)
    css = [entry for entry in objects if entry.get("path") == "/public/table-pages.css"]
    assert len(css) == REQUESTS, "every request's line is written before the server exits"
    first = css[0]
    assert (first["method"], first["status"], first["peer"], first["level"]) == ("GET", 200, "127.0.0.1", "info")
    assert isinstance(first["duration_ms"], float)
    assert [entry["status"] for entry in objects if entry.get("path") == HOSTILE] == [hostile_status]
    assert any(entry["message"].startswith("listening on http://") for entry in objects)


def test_text_log_escapes_a_hostile_path_on_one_line(tmp_path):
    lines, hostile_status = run_and_read_log(tmp_path)
    assert sum(" info tablepages: GET /public/table-pages.css 200 " in line for line in lines) == REQUESTS
    hostile = [line for line in lines if "no\\\"such" in line]
    assert len(hostile) == 1, lines[-5:]
    assert f'GET /public/no\\"such\\\\file\\u001b[31m {hostile_status} ' in hostile[0]
    assert not any("\x1b" in line for line in lines)


def test_healthcheck_ready_flag_asks_readyz(tmp_path):
    process, base = start_server(tmp_path)
    port = base.rsplit(":", 1)[1]
    try:
        for flags in ([], ["--ready"]):
            done = subprocess.run([BINARY, "healthcheck", "--port", port, *flags], timeout=10)
            assert done.returncode == 0, flags
        with urllib.request.urlopen(base + "/readyz", timeout=5) as response:
            assert json.load(response) == {"status": "ready"}
    finally:
        stop_server(process)
    # Nothing listens any more: both fail.
    for flags in ([], ["--ready"]):
        assert subprocess.run([BINARY, "healthcheck", "--port", port, *flags], timeout=10).returncode == 1
