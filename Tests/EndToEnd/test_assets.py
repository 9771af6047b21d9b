"""The built binary carries its assets: started from an empty folder, with no --public-directory,
its pages are styled and live and the examples' pictures load."""
import os
import re
import shutil
import subprocess
import time
import urllib.error
import urllib.request

import pytest
from conftest import BINARY, ROOT, console_errors, stop_server, wait_until
from selenium.webdriver.common.by import By

PUBLIC = os.path.join(ROOT, "Public")


def start_copied_binary(tmp_path, *arguments):
    """Copies the built binary alone into `tmp_path/bin` and starts it in the empty `tmp_path/run`
    (conftest's `start_server` passes --public-directory, which is what this must do without).
    Returns (process, base URL, log path) once it answers."""
    binary = tmp_path / "bin" / "tablepages"
    binary.parent.mkdir()
    shutil.copy2(BINARY, binary)
    run = tmp_path / "run"
    run.mkdir()
    log_path = tmp_path / "server.log"
    with open(log_path, "w") as log:
        process = subprocess.Popen([str(binary), "serve", "--port", "0", "--log-level", "notice", *arguments],
                                   cwd=run, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 20
    while True:
        found = re.search(r"listening on http://[^\s]*:(\d+)", log_path.read_text())
        if found:
            base = f"http://127.0.0.1:{found.group(1)}"
            try:
                urllib.request.urlopen(base + "/healthz", timeout=1)
                return process, base, log_path
            except OSError:
                pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise RuntimeError("server did not start: " + log_path.read_text())
        time.sleep(0.05)


@pytest.fixture()
def bare_server(tmp_path):
    process, base, _ = start_copied_binary(tmp_path)
    yield base
    stop_server(process)


def get(url, headers=None):
    """Returns (status, headers, body bytes), 304 included."""
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=5) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def public_bytes(path):
    with open(os.path.join(PUBLIC, path), "rb") as file:
        return file.read()


def test_a_page_from_an_empty_folder_has_its_css_and_js_byte_for_byte(bare_server):
    status, _, page = get(bare_server + "/pages/todo")
    assert status == 200
    html = page.decode()
    links = {
        "/public/table-pages.css": "text/css; charset=utf-8",
        "/public/table-pages.js": "text/javascript; charset=utf-8",
        "/public/favicon.svg": "image/svg+xml",
    }
    for url, content_type in links.items():
        assert f'"{url}"' in html, f"the page does not link {url}"
        status, headers, body = get(bare_server + url)
        assert status == 200, url
        assert headers["Content-Type"] == content_type
        assert body == public_bytes(url.removeprefix("/public/")), f"{url} is not the file in Public/"
        etag = headers["ETag"]
        assert etag
        status, headers, body = get(bare_server + url, {"If-None-Match": etag})
        assert (status, body) == (304, b"")
        assert headers["ETag"] == etag

    status, headers, body = get(bare_server + "/openapi.json")
    assert (status, headers["Content-Type"], body) == (200, "application/json; charset=utf-8", public_bytes("openapi.json"))


@pytest.mark.parametrize("picture", ["images/gallery/alpine-lake.svg", "images/destination/map.svg", "images/pets/luna.svg"])
def test_the_examples_pictures_are_built_in(bare_server, picture):
    status, headers, body = get(bare_server + "/public/" + picture)
    assert (status, headers["Content-Type"]) == (200, "image/svg+xml")
    assert body == public_bytes(picture)


def test_a_page_from_an_empty_folder_is_styled_and_live_in_a_browser(bare_server, browser):
    browser.get(bare_server + "/pages/checklist")
    assert wait_until(lambda: browser.find_element(By.CSS_SELECTOR, ".tp-live").get_attribute("data-state") == "live", 10), \
        "table-pages.js did not make the page live"
    rules = browser.execute_script(
        "return [...document.styleSheets].filter(s => s.href && s.href.endsWith('/public/table-pages.css'))"
        ".reduce((n, s) => n + s.cssRules.length, 0)")
    assert rules > 10, "table-pages.css did not load"
    assert console_errors(browser) == []


def test_a_missing_public_directory_is_a_warning_and_the_built_in_files_are_served(tmp_path):
    process, base, log_path = start_copied_binary(tmp_path, "--public-directory", str(tmp_path / "nowhere"))
    try:
        assert re.search(r"warning .*public directory .*nowhere does not exist", log_path.read_text())
        status, _, body = get(base + "/public/table-pages.css")
        assert (status, body) == (200, public_bytes("table-pages.css"))
    finally:
        stop_server(process)


def test_files_in_the_public_directory_win_over_the_built_in_ones(tmp_path):
    override = tmp_path / "override"
    override.mkdir()
    (override / "table-pages.css").write_text("body { color: red; }")
    process, base, log_path = start_copied_binary(tmp_path, "--public-directory", str(override))
    try:
        assert "does not exist" not in log_path.read_text()
        assert get(base + "/public/table-pages.css")[2] == b"body { color: red; }"
        assert get(base + "/public/table-pages.js")[2] == public_bytes("table-pages.js")
    finally:
        stop_server(process)
