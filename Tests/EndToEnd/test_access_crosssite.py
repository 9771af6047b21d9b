"""Cross-site protection against the real `tablepages serve`: another site's form and a JSON body
sent as text/plain are refused with the data unchanged, a request for another host name gets 421
(reads too: DNS rebinding), `--allowed-host` admits a name, and only `--cors` origins get CORS
headers on their preflights. The server runs with `--anonymous-writes`, so the same request from
the page's own origin succeeds: the refusals are the cross-site checks', not the sign-in's."""
import http.client
import json
from urllib.parse import urlsplit

import pytest
from conftest import start_server, stop_server

FORM = "application/x-www-form-urlencoded"


def send(base, method, path, body="", headers=None):
    """One request exactly as given (Host included); returns (status, headers by lowercase name, text)."""
    connection = http.client.HTTPConnection(urlsplit(base).netloc, timeout=10)
    try:
        connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        headers = {"Host": urlsplit(base).netloc, **(headers or {})}
        data = body.encode()
        for name, value in headers.items():
            connection.putheader(name, value)
        if data or method in ("POST", "DELETE"):
            connection.putheader("Content-Length", str(len(data)))
        connection.endheaders(data)
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read().decode()
    finally:
        connection.close()


def todo_rows(base):
    status, _, text = send(base, "GET", "/pages/todo.json", headers={"Accept": "application/json"})
    assert status == 200
    rows = {}
    for section in json.loads(text)["sections"]:
        for row in section["rows"]:
            rows[row["id"]] = json.dumps(row, sort_keys=True)
    return rows


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    process, base = start_server(
        tmp_path_factory.mktemp("crosssite"), "--anonymous-writes", "--allowed-host", "tables.example",
        "--cors", "https://app.example",
    )
    yield base
    stop_server(process)


def test_a_form_posted_from_another_origin_is_refused_and_changes_nothing(site):
    before = todo_rows(site)
    status, _, text = send(site, "POST", "/pages/todo/rows/todo-1", "_method=DELETE",
                           {"Content-Type": FORM, "Origin": "http://evil.example", "Accept": "application/json"})
    assert status == 403, text
    assert "another site" in json.loads(text)["error"]["message"]
    status, _, _ = send(site, "POST", "/pages/todo/rows/todo-2/select", "",
                        {"Content-Type": FORM, "Sec-Fetch-Site": "cross-site", "Accept": "application/json"})
    assert status == 403
    assert todo_rows(site) == before

    # The same write from the page's own origin goes through (and is undone).
    own = "http://" + urlsplit(site).netloc
    status, _, text = send(site, "POST", "/pages/todo/rows/todo-2/select", "", {"Content-Type": FORM, "Origin": own, "Accept": "application/json"})
    assert status == 200, text
    assert todo_rows(site) != before
    status, _, _ = send(site, "POST", "/pages/todo/rows/todo-2/select", "", {"Content-Type": FORM, "Sec-Fetch-Site": "same-origin", "Accept": "application/json"})
    assert status == 200
    assert todo_rows(site) == before


def test_a_json_body_sent_as_text_plain_gets_415_and_changes_nothing(site):
    before = todo_rows(site)
    body = json.dumps({"title": "Sneaked in"})
    for content_type in ("text/plain", None):
        headers = {"Accept": "application/json"}
        if content_type:
            headers["Content-Type"] = content_type
        status, _, text = send(site, "POST", "/pages/todo/sections/todos/rows", body, headers)
        assert status == 415, text
        assert "application/json" in json.loads(text)["error"]["message"]
    assert todo_rows(site) == before
    assert "Sneaked in" not in json.dumps(before)


@pytest.mark.parametrize("method,path,body", [
    ("GET", "/pages/todo", ""),
    ("GET", "/", ""),
    ("POST", "/pages/todo/rows/todo-1/select", ""),
])
def test_another_host_name_gets_421_for_reads_and_writes(site, method, path, body):
    before = todo_rows(site)
    status, _, text = send(site, method, path, body, {"Host": "evil.example", "Content-Type": "application/json", "Accept": "application/json"})
    assert status == 421, text
    assert "evil.example" in json.loads(text)["error"]["message"]
    assert todo_rows(site) == before


def test_allowed_host_admits_its_name_and_loopback_names_stay_allowed(site):
    port = urlsplit(site).port
    for host in (f"tables.example:{port}", "TABLES.example", f"localhost:{port}", f"[::1]:{port}"):
        status, _, _ = send(site, "GET", "/pages/todo", headers={"Host": host})
        assert status == 200, host
    status, _, _ = send(site, "GET", "/pages/todo", headers={"Host": "sub.tables.example"})
    assert status == 421
    # The health check answers an orchestrator probing by the container's address.
    status, _, _ = send(site, "GET", "/healthz", headers={"Host": "10.1.2.3:8080"})
    assert status == 200


def test_a_preflight_from_a_cors_origin_gets_the_headers_and_one_from_another_origin_does_not(site):
    preflight = {"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type,x-csrf-token"}
    status, headers, _ = send(site, "OPTIONS", "/pages/todo/rows/todo-1/select", headers={"Origin": "https://app.example", **preflight})
    assert status == 204
    assert headers["access-control-allow-origin"] == "https://app.example"
    assert headers["access-control-allow-credentials"] == "true"
    assert "x-csrf-token" in headers["access-control-allow-headers"].lower()
    assert "origin" in headers["vary"].lower()

    status, headers, _ = send(site, "OPTIONS", "/pages/todo/rows/todo-1/select", headers={"Origin": "https://evil.example", **preflight})
    assert "access-control-allow-origin" not in headers
    assert "access-control-allow-credentials" not in headers

    # The actual responses: the listed origin is named (never *), another is not.
    _, headers, _ = send(site, "GET", "/pages/todo.json", headers={"Origin": "https://app.example"})
    assert headers["access-control-allow-origin"] == "https://app.example"
    _, headers, _ = send(site, "GET", "/pages/todo.json", headers={"Origin": "https://evil.example"})
    assert "access-control-allow-origin" not in headers


def test_a_write_from_a_cors_origin_passes_the_origin_check(site):
    before = todo_rows(site)
    for _ in range(2):
        status, headers, text = send(site, "POST", "/pages/todo/rows/todo-5/select", "",
                                     {"Origin": "https://app.example", "Content-Type": "application/json", "Accept": "application/json"})
        assert status == 200, text
        assert headers["access-control-allow-origin"] == "https://app.example"
    assert todo_rows(site) == before


def test_without_cors_no_response_carries_cors_headers(tmp_path):
    process, base = start_server(tmp_path)
    try:
        status, headers, _ = send(base, "OPTIONS", "/pages/todo/rows/todo-1/select",
                                  headers={"Origin": "https://app.example", "Access-Control-Request-Method": "POST"})
        assert status == 204 and "access-control-allow-origin" not in headers
        status, _, _ = send(base, "GET", "/pages/todo", headers={"Host": "tables.example"})
        assert status == 421
    finally:
        stop_server(process)


def test_a_signed_in_browser_writes_with_the_pages_csrf_token(tmp_path, browser):
    from conftest import console_errors, sign_in_url, wait_until
    from selenium.webdriver.common.by import By
    from test_live_page import open_live, row_text

    process, base = start_server(tmp_path)
    try:
        link = sign_in_url(tmp_path)
        browser.get(base + link[link.index("/-/signin"):])
        open_live(browser, base + "/pages/todo")
        token = browser.execute_script('return document.querySelector(\'meta[name="csrf-token"]\')?.content')
        assert token, "the signed-in page carries no CSRF token"
        assert "to do" in (row_text(browser, "todo-3") or "")
        browser.find_element(By.CSS_SELECTOR, '[data-row="todo-3"] form.tk-select button').click()
        assert wait_until(lambda: "done" in (row_text(browser, "todo-3") or ""), 3.0), "the signed-in toggle did not go through"
        assert console_errors(browser) == []

        # The same write without the token (the browser's cookie alone) is refused.
        before = todo_rows(base)
        cookie = browser.get_cookie("tablepages_session")
        status, _, text = send(base, "POST", "/pages/todo/rows/todo-3/select", "",
                               {"Cookie": f"tablepages_session={cookie['value']}", "Accept": "application/json"})
        assert status == 403 and "CSRF" in text
        assert todo_rows(base) == before
    finally:
        stop_server(process)
