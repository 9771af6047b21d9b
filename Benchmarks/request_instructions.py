#!/usr/bin/env python3
"""Instructions and CPU time one `tablepages serve` spends per request, counted by `perf stat` on the
server process while one keep-alive client sends exactly N requests for PATH, one at a time.

Counts, unlike wrk's req/s, hardly move with the machine's load, so a small cost (such as
--metrics against --no-metrics) shows up in a single run. Needs perf (Debian's linux-perf) with
access to the hardware counters (`perf stat -e instructions true` says whether).

    Benchmarks/request_instructions.py .build/release/tablepages /public/table-pages.css 20000 --metrics
    Benchmarks/request_instructions.py .build/release/tablepages /public/table-pages.css 20000 --no-metrics

A `{n}` in PATH is replaced, request by request, by a random number from 0 to $RANDOM_MAX
(999900 by default), as datasette.sh's random keyset pages do; flags after N go to `serve`:

    Benchmarks/request_instructions.py .build/release/tablepages '/pages/items.json?_size=100&_next={n}' 2000 \
        --database items.sqlite --query-time-limit 10000
"""
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))


def main():
    binary, path, count, *flags = sys.argv[1:]
    count = int(count)
    folder = tempfile.mkdtemp()
    log_path = os.path.join(folder, "server.log")
    server = subprocess.Popen(
        [binary, "serve", "--port", "0", "--threads", "2", "--log-level", "notice", *flags,
         "--examples-database", os.path.join(folder, "tablepages.sqlite"), "--public-directory", os.path.join(ROOT, "Public")],
        stdout=open(log_path, "w"), stderr=subprocess.STDOUT,
    )
    try:
        port = None
        for _ in range(300):
            found = re.search(r"listening on http://\S*:(\d+)", open(log_path).read())
            if found:
                port = int(found.group(1))
                break
            time.sleep(0.05)
        if port is None:
            sys.exit("the server did not start: " + open(log_path).read())
        connection = socket.create_connection(("127.0.0.1", port))
        random_max = int(os.environ.get("RANDOM_MAX", "999900"))
        buffer = b""

        def send(requests):
            nonlocal buffer
            for _ in range(requests):
                target = path.replace("{n}", str(random.randint(0, random_max)))
                connection.sendall(f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
                while True:
                    end = buffer.find(b"\r\n\r\n")
                    if end >= 0:
                        length = int(re.search(rb"content-length: (\d+)", buffer[:end], re.I).group(1))
                        if len(buffer) >= end + 4 + length:
                            if not buffer.startswith(b"HTTP/1.1 200"):
                                sys.exit(f"{path} answered {buffer[:40]!r}")
                            buffer = buffer[end + 4 + length:]
                            break
                    buffer += connection.recv(65536)

        send(min(2000, count))  # warm: caches filled, series made
        perf = subprocess.Popen(["perf", "stat", "-x,", "-e", "instructions,task-clock", "-p", str(server.pid)],
                                stderr=subprocess.PIPE, text=True)
        time.sleep(0.3)
        send(count)
        time.sleep(0.3)
        perf.send_signal(signal.SIGINT)
        figures = {}
        for line in perf.communicate()[1].splitlines():
            fields = line.split(",")
            if len(fields) > 2 and re.fullmatch(r"[\d.]+", fields[0]):
                figures[fields[2]] = float(fields[0])
        if "task-clock" not in figures:
            sys.exit("perf counted no task-clock")
        # A virtual machine often has no hardware counters: CPU time is still counted.
        instructions = (f"{figures['instructions'] / count:.0f} instructions/request, " if "instructions" in figures
                        else "instructions not counted (no hardware counters), ")
        print(f"{' '.join(flags) or '(defaults)'} {path}: {instructions}"
              f"{figures['task-clock'] / count * 1000:.1f} µs CPU/request")
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
