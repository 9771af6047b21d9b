"""Live subscribers at scale: the default connection limit follows the open-file limit (as docs/operations.md
says), and idle event streams stay within their memory budget (VmRSS from /proc), with the
per-connection memory limit applied."""
import os
import re
import resource
import selectors
import socket
import subprocess
import time

from conftest import BINARY, ROOT, start_server, stop_server

SUBSCRIBERS = 2000
PER_ADDRESS = 200  # below the server's 256 streams per client address
RESERVED_FILES = 512
MAXIMUM_DEFAULT = 100_000


def expected_default_limit():
    """What the Limits row of docs/operations.md says: the open-file hard limit less 512, at most 100,000."""
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    if hard == resource.RLIM_INFINITY:
        return MAXIMUM_DEFAULT
    return min(MAXIMUM_DEFAULT, max(64, hard - RESERVED_FILES))


def resident_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS")


def open_subscribers(port, count, timeout=40):
    """Opens `count` event streams on /pages/checklist/events from 127.0.0.2, 127.0.0.3, …;
    returns the sockets once each has its response head and `retry:` line."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < count + 256:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, count + 256), hard))
    request = b"GET /pages/checklist/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n"
    selector = selectors.DefaultSelector()
    received = {}
    sockets = []
    for index in range(count):
        connection = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        connection.bind((f"127.0.0.{2 + index // PER_ADDRESS}", 0))
        connection.connect(("127.0.0.1", port))
        connection.sendall(request)
        connection.setblocking(False)
        selector.register(connection, selectors.EVENT_READ, index)
        received[index] = b""
        sockets.append(connection)
    waiting = set(range(count))
    deadline = time.monotonic() + timeout
    while waiting and time.monotonic() < deadline:
        for key, _ in selector.select(timeout=0.5):
            index = key.data
            data = key.fileobj.recv(4096)
            assert data, f"subscriber {index} was closed by the server: {received[index][:200]!r}"
            received[index] += data
            if b"retry:" in received[index]:
                assert received[index].startswith(b"HTTP/1.1 200"), received[index][:200]
                selector.unregister(key.fileobj)
                waiting.discard(index)
    selector.close()
    assert not waiting, f"{len(waiting)} of {count} subscribers got no stream within {timeout} s"
    return sockets


def kib_per_subscriber(tmp_path, *arguments):
    """Starts a server, opens SUBSCRIBERS idle streams and returns the server's VmRSS growth per
    stream in KiB."""
    process, base = start_server(tmp_path, *arguments)
    sockets = []
    try:
        port = int(base.rsplit(":", 1)[1])
        # One stream first: the page's live state and the first-use allocations are not per subscriber.
        sockets += open_subscribers(port, 1)
        time.sleep(0.5)
        before = resident_kib(process.pid)
        sockets += open_subscribers(port, SUBSCRIBERS)
        time.sleep(1)
        after = resident_kib(process.pid)
        return (after - before) / SUBSCRIBERS
    finally:
        for connection in sockets:
            connection.close()
        stop_server(process)


def test_default_connection_limit_is_what_readme_and_help_say(tmp_path):
    expected = expected_default_limit()
    process, _ = start_server(tmp_path)
    stop_server(process)
    log = (tmp_path / "server.log").read_text()
    found = re.search(r"up to (\d+) connections \(open-file limit (\d+)\)", log)
    assert found, log
    assert int(found.group(1)) == expected
    assert int(found.group(2)) >= expected + RESERVED_FILES or int(found.group(2)) == resource.getrlimit(resource.RLIMIT_NOFILE)[1]

    readme = open(os.path.join(ROOT, "docs", "operations.md")).read()
    row = next(line for line in readme.splitlines() if line.endswith("| `--connection-limit` |"))
    assert "open-file hard limit less 512, at most 100,000" in row, row
    # The operations guide gives the figure for a machine allowing 20,000 open files, like the benchmark's.
    assert "19,488" in row, row

    help_text = subprocess.run([BINARY, "serve", "--help"], capture_output=True, text=True, timeout=30).stdout
    assert "open-file hard limit less 512" in " ".join(help_text.split()), help_text


def test_default_limit_warns_when_the_file_limit_is_too_low_for_it(tmp_path):
    # A connection limit the open files cannot back is said at start, not found out under load.
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    if hard == resource.RLIM_INFINITY or hard > 1_000_000:
        return  # no file limit to come near
    limit = hard - 100  # leaves 100 files for everything else, not 512
    process, _ = start_server(tmp_path, "--connection-limit", str(limit))
    stop_server(process)
    log = (tmp_path / "server.log").read_text()
    assert f"connection limit {limit} leaves" in log, log
    assert "lower --connection-limit" in log


def test_idle_subscribers_stay_within_their_memory_budget(tmp_path):
    # The per-connection pool is the bulk of a subscriber's memory (libmicrohttpd 0.9.75 zeroes the
    # half it first lends to the read buffer, so nearly all of a small pool is resident): the
    # default 7.5 KiB costs about 9.5 KiB per idle stream in all; 16 KiB (heads up to about 14 KB)
    # costs about 5 KiB more. Issue 13's budget is 10 KiB; a debug build and 2,000 streams
    # measure a little more than the release build at 15,000, hence the margin.
    started = time.monotonic()
    (tmp_path / "default").mkdir()
    (tmp_path / "large").mkdir()
    default = kib_per_subscriber(tmp_path / "default")
    large = kib_per_subscriber(tmp_path / "large", "--connection-memory-limit", "16384")
    print(f"KiB per idle subscriber: {default:.2f} (default 7.5 KiB pool), {large:.2f} (16 KiB pool)")
    assert default <= 10.5, f"{default:.2f} KiB per idle subscriber with the default pool"
    assert large <= 16.0, f"{large:.2f} KiB per idle subscriber with --connection-memory-limit 16384"
    # The option reaches libmicrohttpd: about half of the 8 KiB it adds is in every subscriber's RSS.
    assert large - default >= 3.0, (default, large)
    assert time.monotonic() - started < 60


def test_reaching_the_connection_limit_is_logged(tmp_path):
    # At its limit libmicrohttpd stops accepting without a word (new clients wait in the listen
    # backlog): the server says so, once per 10 s however many clients wait.
    process, base = start_server(tmp_path, "--connection-limit", "8", "--threads", "2")
    port = int(base.rsplit(":", 1)[1])
    held = []
    try:
        for _ in range(8):
            held.append(socket.create_connection(("127.0.0.1", port), timeout=5))
        log_path = tmp_path / "server.log"
        deadline = time.monotonic() + 10
        while "reached the connection limit" not in log_path.read_text() and time.monotonic() < deadline:
            time.sleep(0.1)
        log = log_path.read_text()
        assert "reached the connection limit" in log, log
        assert "--connection-limit 8" in log, log
        assert log.count("reached the connection limit") == 1, log

        # The ninth client is not served while the eight are open, and is once one closes.
        waiting = socket.create_connection(("127.0.0.1", port), timeout=5)
        waiting.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        waiting.settimeout(1.0)
        try:
            early = waiting.recv(100)
        except socket.timeout:
            early = b""
        assert early == b"", early
        held.pop().close()
        waiting.settimeout(10)
        assert waiting.recv(100).startswith(b"HTTP/1.1 200"), "not served after a connection closed"
        waiting.close()
    finally:
        for connection in held:
            connection.close()
        stop_server(process)


def test_connection_memory_limit_has_a_floor_and_its_default_is_documented():
    # Below 6 KiB the pool cannot hold an ordinary request head and the response head too.
    refused = subprocess.run([BINARY, "serve", "--connection-memory-limit", "6000"], capture_output=True, text=True, timeout=30)
    assert refused.returncode != 0
    assert "at least 6144" in refused.stderr + refused.stdout
    help_text = " ".join(subprocess.run([BINARY, "serve", "--help"], capture_output=True, text=True, timeout=30).stdout.split())
    assert "default 7680" in help_text, help_text
    readme = open(os.path.join(ROOT, "docs", "operations.md")).read()
    row = next(line for line in readme.splitlines() if line.endswith("| `--connection-memory-limit` |"))
    assert "7,680 bytes" in row and "at least 6,144" in row, row
