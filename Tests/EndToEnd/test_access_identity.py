"""Actors against the real binary, as curl would: anonymous clients read but do not write, the
printed sign-in link signs a client in, access tokens write until revoked (their open event streams
close), and --anonymous-writes opens writing to everyone."""
import http.client
import json
import os
import re
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request

from conftest import BINARY, logged_sign_in_url, post, session_headers, sign_in, sign_in_url, start_server, stop_server, wait_until


def request(method, url, body=None, headers=None, content_type="application/json"):
    """Sends one request; returns (status, headers, text), also for error statuses."""
    data = body.encode() if body is not None else None
    all_headers = {"Accept": "application/json", **({"Content-Type": content_type} if body is not None else {}), **(headers or {})}
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=data, method=method, headers=all_headers), timeout=5) as response:
            return response.status, response.headers, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read().decode()


def todo_page(base):
    status, _, text = request("GET", base + "/pages/todo.json")
    assert status == 200
    return text


def row_is_done(base, row):
    """Whether the to-do `row` is ticked, as the page's JSON says."""
    for section in json.loads(todo_page(base))["sections"]:
        for candidate in section["rows"]:
            if candidate["id"] == row:
                return candidate.get("subtitle") == "done"
    raise AssertionError(f"no row {row}")


def tablepages(directory, *arguments):
    """Runs the CLI in `directory` (where the server keeps its credentials); returns its output lines."""
    done = subprocess.run([BINARY, *arguments], cwd=directory, capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()


def test_anonymous_clients_read_but_their_writes_get_401_and_change_nothing(signed_in_server):
    base, _ = signed_in_server
    before = todo_page(base)
    assert '"id":"todo-3"' in before
    status, _, text = request("GET", base + "/pages/todo")
    assert status == 200
    for method, path, body, content_type in [
        ("POST", "/pages/todo/rows/todo-3/select", "{}", "application/json"),
        ("POST", "/pages/todo/rows/todo-3/actions/rename", '{"title":"Hijacked"}', "application/json"),
        ("DELETE", "/pages/todo/rows/todo-3", None, None),
        ("POST", "/pages/todo/rows/todo-3", "_method=DELETE", "application/x-www-form-urlencoded"),
        ("POST", "/pages/todo/rows/todo-3/move", '{"section":"todos","before":"todo-1"}', "application/json"),
        ("POST", "/pages/todo/sections/todos/rows", '{"title":"Intruder"}', "application/json"),
    ]:
        status, headers, text = request(method, base + path, body, content_type=content_type)
        assert status == 401, (method, path, text)
        assert json.loads(text)["error"]["status"] == 401
        assert headers["WWW-Authenticate"].startswith("Bearer")
    # A browser gets the site's page, which tells it how to sign in.
    status, headers, text = request("POST", base + "/pages/todo/rows/todo-3", "_method=DELETE",
                                    headers={"Accept": "text/html"}, content_type="application/x-www-form-urlencoded")
    assert status == 401 and headers["Content-Type"].startswith("text/html") and "sign-in link" in text
    assert todo_page(base) == before


def test_the_printed_sign_in_link_gives_a_cookie_that_can_write_and_sign_out_ends_it(signed_in_server):
    base, links = signed_in_server
    link = links.new()
    assert link.startswith(base + "/-/signin?token=")
    status, cookie = sign_in(link)
    assert status == 303 and cookie.startswith("tablepages_session=")
    # A script writing as a session sends its CSRF token too, as the page's script does.
    signed_in = session_headers(links, base + "/pages/todo")
    status, _, _ = request("POST", base + "/pages/todo/rows/todo-3/select", "{}", headers=signed_in)
    assert status == 200
    assert row_is_done(base, "todo-3")

    # A wrong token: 403, and no cookie.
    status, wrong = sign_in(link[:-2] + ("AA" if not link.endswith("AA") else "BB"))
    assert status == 403 and wrong is None
    # A GET of the sign-out address only offers a button (a link from another site must not sign
    # anyone out); posting it clears the cookie (the browser drops it; the value itself is stateless).
    status, cleared = sign_in(base + "/-/signout")
    assert status == 200 and cleared is None
    status, cleared = sign_in(urllib.request.Request(base + "/-/signout", data=b"", method="POST"))
    assert status == 303 and cleared == "tablepages_session="


def test_sign_in_survives_a_restart_and_rotate_secret_signs_everyone_out(tmp_path):
    process, base = start_server(tmp_path, anonymous_writes=False)
    try:
        signed_in = session_headers(sign_in_url(tmp_path), base + "/pages/todo")
    finally:
        stop_server(process)
    process, base = start_server(tmp_path, anonymous_writes=False)
    try:
        assert request("POST", base + "/pages/todo/rows/todo-3/select", "{}", headers=signed_in)[0] == 200
    finally:
        stop_server(process)
    old_link = sign_in_url(tmp_path)
    process, base = start_server(tmp_path, "--rotate-secret", anonymous_writes=False)
    try:
        assert request("POST", base + "/pages/todo/rows/todo-3/select", "{}", headers=signed_in)[0] == 401
        assert sign_in_url(tmp_path) != old_link
        assert sign_in(old_link.replace(old_link.split("/-/")[0], base))[0] == 403
    finally:
        stop_server(process)


def open_stream(base, token):
    """A live event stream read with `token`; returns the response once its first line arrived."""
    parts = urllib.parse.urlsplit(base)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=5)
    connection.request("GET", "/pages/todo/events", headers={"Accept": "text/event-stream", "Authorization": "Bearer " + token})
    response = connection.getresponse()
    assert response.status == 200
    assert response.readline().startswith(b"retry:")
    return response


def test_a_write_token_writes_until_revoked_then_gets_401_and_its_stream_closes(tmp_path):
    process, base = start_server(tmp_path, "--log-level", "info", anonymous_writes=False)
    try:
        output = tablepages(tmp_path, "token", "create", "--name", "ci", "--write")
        token = output[-1]
        assert token.startswith("tpt_") and len(token) > 40
        reader = tablepages(tmp_path, "token", "create", "--name", "reader")[-1]
        listed = "\n".join(tablepages(tmp_path, "token", "list"))
        assert "ci\twrite" in listed and "reader\tread" in listed and token not in listed and reader not in listed

        bearer = {"Authorization": "Bearer " + token}
        # The server picks new tokens up within its refresh interval.
        assert wait_until(lambda: request("POST", base + "/pages/todo/rows/todo-3/select", "{}", headers=bearer)[0] == 200, 3.0)
        assert request("POST", base + "/pages/todo/rows/todo-4/select", "{}", headers={"Authorization": "Bearer " + reader})[0] == 403
        stream = open_stream(base, token)

        before = todo_page(base)
        tablepages(tmp_path, "token", "revoke", "ci")
        revoked_at = time.monotonic()
        # Polled on a row that does not exist: 404 while the token is good, 401 once it is revoked.
        assert wait_until(lambda: request("POST", base + "/pages/todo/rows/nope/select", "{}", headers=bearer)[0] == 401, 2.0)
        assert time.monotonic() - revoked_at < 1.5, "the revocation took too long to take effect"
        assert request("POST", base + "/pages/todo/rows/todo-3/select", "{}", headers=bearer)[0] == 401
        # The server ends the stream: reading to its end returns instead of timing out.
        stream.read()
        assert todo_page(base) == before

        log = open(os.path.join(tmp_path, "server.log")).read()
        writes = [line for line in log.splitlines() if " write " in line or line.endswith(" write")]
        assert any("actor=token:ci" in line and "page=todo" in line and "row=todo-3" in line and "action=select" in line and "status=200" in line for line in writes), writes
        assert any("actor=token:reader" in line and "status=403" in line for line in writes), writes
        assert any("actor=token:ci" not in line and "status=401" in line for line in writes), writes
        # The access log names the actor of a write (its lines are written within a second).
        access_line = r"POST /pages/todo/rows/todo-3/select 200 .*actor=token:ci"
        assert wait_until(lambda: re.search(access_line, open(os.path.join(tmp_path, "server.log")).read()), 3.0), log[-2000:]
    finally:
        stop_server(process)


def test_anonymous_writes_lets_anonymous_clients_write(tmp_path):
    process, base = start_server(tmp_path, anonymous_writes=True)
    try:
        status, _ = post(base + "/pages/todo/rows/todo-3/select")
        assert status == 200
        assert row_is_done(base, "todo-3")
        assert "anyone may write" in open(os.path.join(tmp_path, "server.log")).read()
    finally:
        stop_server(process)


def test_the_sign_in_link_is_printed_at_log_level_warning_and_help_says_so(tmp_path):
    # At warning the "listening on" line is not logged; the sign-in link carries the port.
    log_path = os.path.join(tmp_path, "server.log")
    with open(log_path, "w") as log:
        process = subprocess.Popen([BINARY, "serve", "--port", "0", "--log-level", "warning"], cwd=tmp_path, stdout=log, stderr=subprocess.STDOUT)
    try:
        assert wait_until(lambda: "/-/signin?token=" in open(log_path).read(), 20.0), open(log_path).read()
        link = logged_sign_in_url(tmp_path)
        assert re.match(r"http://127\.0\.0\.1:\d+/-/signin\?token=[A-Za-z0-9_-]{22}\.\d+\.[A-Za-z0-9_-]{43}$", link), link
        assert sign_in(link)[0] == 303
    finally:
        stop_server(process)
    help_text = subprocess.run([BINARY, "serve", "--help"], capture_output=True, text=True, timeout=30).stdout
    assert "sign-in link" in help_text and "--anonymous-writes" in help_text and "--credentials" in help_text
