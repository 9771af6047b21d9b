"""Fixtures for the browser tests: a real tablepages server and a real headless Chromium."""
import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BINARY = os.environ.get("TABLEPAGES_BINARY", os.path.join(ROOT, ".build", "debug", "tablepages"))


def start_server(directory, *arguments, anonymous_writes=True):
    """Starts `tablepages serve` on a port the server picks itself (`--port 0`) in `directory`;
    returns (process, base URL) once it answers. With `anonymous_writes` (the default: tests that are
    not about access control write without signing in) it passes `--anonymous-writes`. The port is read from the server's own
    `listening on` log line: a port probed free beforehand can be taken by another process
    before the server binds it, and the health check would then reach that process."""
    log_path = os.path.join(directory, "server.log")
    log = open(log_path, "a")
    already = log.tell()
    process = subprocess.Popen(
        [BINARY, "serve", "--port", "0", "--public-directory", os.path.join(ROOT, "Public"), "--log-level", "notice",
         *(["--anonymous-writes"] if anonymous_writes else []), *arguments],
        cwd=directory, stdout=log, stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 20
    base = None
    while True:
        if base is None:
            with open(log_path) as text:
                text.seek(already)
                found = re.search(r"listening on http://[^\s]*:(\d+)", text.read())
            if found:
                base = f"http://127.0.0.1:{found.group(1)}"
        if base is not None:
            try:
                urllib.request.urlopen(base + "/healthz", timeout=1)
                return process, base
            except OSError:
                pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise RuntimeError("server did not start: " + open(log_path).read())
        time.sleep(0.05)


def example_binary(product):
    """The example package `product`'s binary (a target of the root package, which `make test` builds),
    built when missing; `{PRODUCT}_BINARY` names another build."""
    binary = os.environ.get(re.sub(r"(?<!^)(?=[A-Z])", "_", product).upper() + "_BINARY", os.path.join(ROOT, ".build", "debug", product))
    if not os.path.exists(binary):
        subprocess.run(["swift", "build", "--product", product], cwd=ROOT, check=True)
    return binary


def running_example(binary, directory, ready):
    """Runs an example package's `binary` in `directory` on a port of its choosing (`--port 0`);
    yields the match of the regular expression `ready` in its log once it is there, then stops it
    with SIGTERM and expects exit 0."""
    log_path = directory / "example.log"
    with open(log_path, "w") as log:
        process = subprocess.Popen([binary, "--port", "0"], cwd=directory, stdout=log, stderr=subprocess.STDOUT)
    found = wait_until(lambda: process.poll() is not None or re.search(ready, log_path.read_text()), 30)
    if not isinstance(found, re.Match):
        process.kill()
        pytest.fail("the example did not start: " + log_path.read_text())
    yield found
    process.terminate()
    assert process.wait(timeout=15) == 0, "the example did not exit cleanly on SIGTERM: " + log_path.read_text()


def start_datasette(path, *arguments, timeout=60, python=None, immutable=True):
    """Starts Datasette (from PyPI, `make test-deps`) serving the SQLite file `path` immutably on
    a free port of 127.0.0.1, with `arguments` besides (e.g. `-m metadata.json`); returns (process,
    base URL) once it answers. Raises RuntimeError when it does not start within `timeout` seconds
    (the process is then killed). `python` runs another Datasette (a virtual environment's
    interpreter); `immutable=False` lets it write the file."""
    import sys
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen([python or sys.executable, "-m", "datasette", "serve", *(["-i"] if immutable else []), str(path), "-h", "127.0.0.1", "-p", str(port), *arguments],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + timeout
    while True:
        try:
            urllib.request.urlopen(base + "/-/versions.json", timeout=1)
            return process, base
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                raise RuntimeError(f"Datasette did not start serving {path}")
            time.sleep(0.1)


def stop_server(process):
    """SIGTERM, and the server must exit 0 (graceful shutdown)."""
    process.terminate()
    assert process.wait(timeout=15) == 0, "the server did not exit cleanly on SIGTERM"


@pytest.fixture()
def server(tmp_path):
    """A server with the example pages, in a scratch directory; yields its base URL."""
    process, base = start_server(tmp_path)
    yield base
    stop_server(process)


def logged_sign_in_url(directory):
    """The sign-in link the server running in `directory` printed last (it signs in once)."""
    with open(os.path.join(directory, "server.log")) as text:
        found = re.findall(r"open: (http://\S+/-/signin\?token=\S+)", text.read())
    assert found, "the server printed no sign-in link"
    return found[-1]


def new_sign_in_path(directory, *arguments):
    """A new sign-in link's path from `tablepages secret link`, run in `directory` (so with the
    credentials file a server started there uses), with `arguments` besides."""
    output = subprocess.run([BINARY, "secret", "link", *arguments], cwd=directory, capture_output=True, text=True, timeout=30, check=True).stdout
    path = output.strip().splitlines()[-1]
    assert path.startswith("/-/signin?token="), output
    return path


def sign_in_url(directory):
    """A new sign-in link for the server running in `directory`, at the address its log names:
    each link signs in once, so every sign-in takes a link of its own."""
    logged = logged_sign_in_url(directory)
    return logged[:logged.index("/-/signin")] + new_sign_in_path(directory)


class SignInLinks:
    """Makes sign-in links for the server running in `directory`, one per sign-in (`new()`)."""

    def __init__(self, directory):
        self.directory = directory
        self.base = logged_sign_in_url(directory).split("/-/signin")[0]

    def new(self):
        """A link that has not signed in yet."""
        return self.base + new_sign_in_path(self.directory)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *arguments):
        return None


def sign_in(url):
    """Opens a sign-in link as a script would; returns (status, the session cookie as `name=value` or None)."""
    opener = urllib.request.build_opener(_NoRedirect)
    try:
        response = opener.open(url, timeout=5)
    except urllib.error.HTTPError as error:
        response = error
    cookie = response.headers.get("Set-Cookie")
    return response.status, cookie.split(";")[0] if cookie else None


def session_headers(link, page_url):
    """Signs in with `link` (a URL, or `SignInLinks` to make one from) and returns what a script sends to write as that session: the cookie and
    the session's CSRF token, read from the `<meta name="csrf-token">` of the page at `page_url`."""
    _, cookie = sign_in(link.new() if isinstance(link, SignInLinks) else link)
    with urllib.request.urlopen(urllib.request.Request(page_url, headers={"Cookie": cookie}), timeout=5) as response:
        found = re.search(r'<meta name="csrf-token" content="([^"]+)"', response.read().decode())
    assert found, "the signed-in page carries no CSRF token"
    return {"Cookie": cookie, "X-CSRF-Token": found.group(1)}


@pytest.fixture()
def signed_in_server(tmp_path):
    """A server with the example pages where only signed-in clients write; yields (base URL,
    `SignInLinks` that make its sign-in links)."""
    process, base = start_server(tmp_path, anonymous_writes=False)
    yield base, SignInLinks(tmp_path)
    stop_server(process)


@pytest.fixture(scope="session")
def postgres_cluster():
    """A private PostgreSQL cluster for the whole test run (`scripts/postgres-cluster`): its own data
    directory, port and socket directory; yields the URL of its `postgres` database. The directory
    is straight under the system's temporary directory: as root the cluster runs as the `postgres`
    user, who cannot enter pytest's private temporary folders."""
    directory = tempfile.mkdtemp(prefix="tablepages-postgres-")
    script = os.path.join(ROOT, "scripts", "postgres-cluster")
    url = subprocess.run([script, "start", str(directory)], check=True, capture_output=True, text=True).stdout.split()[-1]
    yield url
    subprocess.run([script, "stop", str(directory)], check=False)
    shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture()
def postgres_database(postgres_cluster, request):
    """A fresh, empty database on the private cluster for one test; yields its URL."""
    name = "t_" + re.sub(r"[^a-z0-9]+", "_", request.node.name.lower())[:50] + "_" + str(os.getpid())
    base = postgres_cluster.rsplit("/", 1)[0]
    subprocess.run(["psql", postgres_cluster, "-q", "-c", f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)', "-c", f'CREATE DATABASE "{name}"'],
                   check=True, capture_output=True)
    yield f"{base}/{name}"
    subprocess.run(["psql", postgres_cluster, "-q", "-c", f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'], check=False, capture_output=True)


def reader_url(url, role="tablepages_reader"):
    """The URL of `url`'s database as `role`, made (once per cluster) as docs/operations.md says:
    a login role that can read every table (`pg_read_all_data`) and nothing more, for
    `serve --sql-url`: visitors' SQL refuses to run as a superuser or a role that can write."""
    psql(url, f"""DO $$ BEGIN
        IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '{role}') THEN CREATE ROLE {role} LOGIN; END IF;
    END $$; GRANT pg_read_all_data TO {role}""")
    scheme, rest = url.split("://", 1)
    return f"{scheme}://{role}@{rest.split('@', 1)[1]}"


def psql(url, sql):
    """Runs `sql` with the `psql` shell, as any other client of the database would; returns its
    unaligned, tuples-only output."""
    return subprocess.run(["psql", url, "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-c", sql],
                          check=True, capture_output=True, text=True).stdout


def new_browser():
    """A headless Chromium from Debian's packages, with its console log available; each has its own cookies."""
    options = Options()
    options.binary_location = os.environ.get("CHROMIUM_BINARY", "/usr/bin/chromium")
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1000,900"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")), options=options)


@pytest.fixture()
def browser():
    """A headless Chromium (see `new_browser`)."""
    driver = new_browser()
    yield driver
    driver.quit()


def post(url, body=None, content_type="application/json", headers=None):
    """POSTs as a second client would (a script, another browser); returns (status, text)."""
    data = body.encode() if body is not None else b""
    request = urllib.request.Request(url, data=data, method="POST", headers={"Content-Type": content_type, "Accept": "application/json", **(headers or {})})
    with urllib.request.urlopen(request, timeout=5) as response:
        return response.status, response.read().decode()


def console_errors(driver):
    """Console messages at SEVERE level, i.e. script errors and failed loads."""
    return [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def wait_until(predicate, timeout):
    """Polls `predicate` until it returns a truthy value or `timeout` seconds pass; returns the value."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(0.02)


class PsqlSession:
    """One `psql` session kept open, to write while the database refuses new connections."""

    def __init__(self, url):
        self.process = subprocess.Popen(["psql", url, "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1"],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.run("SELECT 1;")

    def run(self, sql):
        self.process.stdin.write(sql + "\n\\echo finished\n")
        self.process.stdin.flush()
        while (line := self.process.stdout.readline()) and line.strip() != "finished":
            pass
        assert line, "psql ended"

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=10)
