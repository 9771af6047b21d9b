"""Hostile clients against the real `tablepages serve`: slow heads, oversized chunked bodies and too
many live streams must not hold the server's slots, grow its memory or stop it answering others."""
import socket
import threading
import time
import urllib.request

from conftest import start_server, stop_server

SLOW_CLIENTS = 200
REQUEST_TIMEOUT = 3  # seconds, passed as --request-timeout
# Resident memory bounds while the server holds 200 slow connections. Measured with the debug build:
# 34 MB before, 35 MB with them. Each costs at most its 7.5 KiB memory pool plus bookkeeping
# (200 x 7.5 KiB = 1.5 MB), so the growth bound has room, and the total bound catches a leak.
RSS_LIMIT_KB = 64 * 1024
RSS_GROWTH_LIMIT_KB = 8 * 1024


def resident_kb(process):
    with open(f"/proc/{process.pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS line")


def port_of(base):
    return int(base.rsplit(":", 1)[1])


def is_closed(sock):
    """True when the server closed the connection (EOF or reset); False while it is open."""
    sock.setblocking(False)
    try:
        return sock.recv(4096) == b""
    except BlockingIOError:
        return False
    except (ConnectionResetError, BrokenPipeError):
        return True


def timed_get(url):
    started = time.monotonic()
    with urllib.request.urlopen(url, timeout=5) as response:
        response.read()
        return response.status, time.monotonic() - started


def test_slow_heads_are_cut_at_the_deadline_while_other_clients_are_served(tmp_path):
    process, base = start_server(tmp_path, "--request-timeout", str(REQUEST_TIMEOUT))
    try:
        rss_before = resident_kb(process)
        slow = []
        for _ in range(SLOW_CLIENTS):
            sock = socket.create_connection(("127.0.0.1", port_of(base)), timeout=5)
            sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            slow.append(sock)
        opened = time.monotonic()

        # Trickle one byte to every slow connection twice a second: never idle, never done.
        stop = threading.Event()

        def trickle():
            while not stop.is_set():
                for sock in slow:
                    try:
                        sock.send(b"a", socket.MSG_DONTWAIT)
                    except OSError:
                        pass
                stop.wait(0.5)

        trickler = threading.Thread(target=trickle, daemon=True)
        trickler.start()

        # Meanwhile everyone else is answered promptly.
        latencies = []
        while time.monotonic() - opened < REQUEST_TIMEOUT - 1:
            for path in ("/healthz", "/"):
                status, seconds = timed_get(base + path)
                assert status == 200
                latencies.append(seconds)
            time.sleep(0.1)
        assert max(latencies) < 1.0, f"slowest normal request took {max(latencies):.2f} s"
        rss_during = resident_kb(process)
        # Before the deadline they are all still held: it is the deadline that ends them, nothing else.
        assert not any(is_closed(sock) for sock in slow), "slow connections were closed before the deadline"

        # After the deadline (plus the sweeper's quarter-deadline rounds) every slow one is gone.
        time.sleep(REQUEST_TIMEOUT + 2 - (time.monotonic() - opened))
        still_open = [sock for sock in slow if not is_closed(sock)]
        stop.set()
        trickler.join()
        assert still_open == [], f"{len(still_open)} of {SLOW_CLIENTS} slow connections outlived the deadline"

        assert process.poll() is None, "the server died"
        status, _ = timed_get(base + "/healthz")
        assert status == 200
        rss_after = resident_kb(process)
        print(f"VmRSS: {rss_before} kB before, {rss_during} kB with {SLOW_CLIENTS} slow clients, {rss_after} kB after; "
              f"{len(latencies)} normal requests meanwhile, slowest {max(latencies) * 1000:.0f} ms")
        assert rss_during < RSS_LIMIT_KB and rss_after < RSS_LIMIT_KB
        assert rss_during - rss_before < RSS_GROWTH_LIMIT_KB
        for sock in slow:
            sock.close()
    finally:
        stop_server(process)


def test_an_oversized_chunked_body_is_refused_before_it_is_sent(tmp_path):
    process, base = start_server(tmp_path, "--max-body-size", "65536")
    try:
        sock = socket.create_connection(("127.0.0.1", port_of(base)), timeout=5)
        sock.sendall(b"POST /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n")
        chunk = b"10000\r\n" + b"z" * 0x10000 + b"\r\n"
        offered = 1024  # 64 MiB, a thousand times the limit
        sent = 0
        try:
            while sent < offered:
                sock.sendall(chunk)
                sent += 1
        except OSError:
            pass
        assert sent < offered, "the server read the whole oversized body"
        answer = b""
        try:
            while True:
                data = sock.recv(65536)
                if not data:
                    break
                answer += data
        except ConnectionResetError:
            pass
        assert answer.startswith(b"HTTP/1.1 413 "), answer[:200]
        assert b"larger than the 65536 bytes" in answer
        assert process.poll() is None
    finally:
        stop_server(process)


def test_live_streams_per_client_address_are_capped(tmp_path):
    process, base = start_server(tmp_path, "--max-streams-per-client", "3")
    try:
        def open_stream(source="127.0.0.1"):
            sock = socket.create_connection(("127.0.0.1", port_of(base)), timeout=5, source_address=(source, 0))
            sock.sendall(b"GET /pages/todo/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
            head = b""
            while b"\r\n\r\n" not in head:
                data = sock.recv(4096)
                assert data, "closed before the head"
                head += data
            return sock, head

        streams = []
        for _ in range(3):
            sock, head = open_stream()
            assert head.startswith(b"HTTP/1.1 200 "), head[:200]
            streams.append(sock)
        sock, head = open_stream()
        assert head.startswith(b"HTTP/1.1 429 "), head[:200]
        answer = head
        while b"live streams open" not in answer:
            data = sock.recv(65536)
            assert data, answer
            answer += data
        sock.close()
        other, head = open_stream("127.0.0.2")
        assert head.startswith(b"HTTP/1.1 200 "), head[:200]
        streams.append(other)
        assert process.poll() is None
        for sock in streams:
            sock.close()
    finally:
        stop_server(process)


def raw_get_status(base, target, timeout):
    """The status a GET of `target` is answered with, or None when the server closed the
    connection without an answer; fails when it did neither within `timeout` seconds."""
    with socket.create_connection(("127.0.0.1", port_of(base)), timeout=timeout) as connection:
        connection.sendall(f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
        reply = b""
        while chunk := connection.recv(65536):
            reply += chunk
    return int(reply.split()[1]) if reply.startswith(b"HTTP/1.1 ") else None


def test_a_request_line_with_hundreds_of_query_arguments_is_refused_and_the_server_goes_on(tmp_path):
    # libmicrohttpd keeps each query argument in the connection's memory pool (7.5 KiB by default):
    # up to about 85 arguments of a page's URL are read (400 for unknown ones), a few more get 431,
    # and beyond that it can build no answer: it closes the connection, at once or when the
    # request's time (--request-timeout) is up. Nothing is served for it, and other clients are
    # served meanwhile and after.
    process, base = start_server(tmp_path, "--request-timeout", "2")
    try:
        outcomes = {}
        for count in (10, 80, 95, 120, 400, 2000):
            target = "/pages/todo.json?" + "&".join(["_size=%7B%7D"] * count)
            started = time.monotonic()
            outcomes[count] = raw_get_status(base, target, timeout=10)
            assert time.monotonic() - started < 5, f"{count} arguments held the connection past the request timeout"
            assert raw_get_status(base, "/pages/todo.json", timeout=5) == 200, f"not served after {count} arguments"
        assert outcomes[10] == 400 and outcomes[80] == 400, outcomes
        assert all(outcomes[count] in (None, 400, 408, 414, 431) for count in (95, 120, 400, 2000)), outcomes
        assert process.poll() is None
    finally:
        stop_server(process)


FRAMING_ATTACKS = {
    # Issue 29, item 10: each was accepted by ec9b4ee.
    "obs-fold hides Transfer-Encoding (204, and the pipelined request ran)":
        b"POST /pages/todo/rows/todo-1/select HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 17\r\n"
        b"Transfer-Encoding: gzip,\r\n chunked\r\n\r\n0\r\n\r\nGET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    "Transfer-Encoding: identity without a length (hung)":
        b"POST /pages/todo/rows/todo-1/select HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: identity\r\n\r\n{}",
    "NUL in Host": b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\x00.evil.example\r\n\r\n",
    "NUL in the path": b"GET /healthz\x00/../../etc/passwd HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    "bare LF line ends": b"GET /healthz HTTP/1.1\nHost: 127.0.0.1\n\n",
    "bare CR inside a line": b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\rX-Injected: 1\r\n\r\n",
}


def test_framing_attacks_get_400_and_nothing_after_them_runs(tmp_path):
    process, base = start_server(tmp_path, "--request-timeout", "5")
    try:
        for name, raw in FRAMING_ATTACKS.items():
            with socket.create_connection(("127.0.0.1", port_of(base)), timeout=8) as connection:
                connection.sendall(raw)
                reply = b""
                started = time.monotonic()
                while chunk := connection.recv(65536):
                    reply += chunk
                assert time.monotonic() - started < 4, f"{name}: the server held the connection"
            assert reply.startswith(b"HTTP/1.1 400 "), f"{name}: {reply[:200]!r}"
            assert reply.count(b"HTTP/1.1 ") == 1, f"{name}: a second answer: {reply!r}"
        # The server goes on, and a well-formed head still passes.
        status, _ = timed_get(base + "/healthz")
        assert status == 200
    finally:
        stop_server(process)
