#!/usr/bin/env bash
# Live fan-out: SUBSCRIBERS Server-Sent Events subscribers on one page, one select, and the time
# until each subscriber has the patch; plus the server's memory growth per idle subscriber.
# Goals: every subscriber gets the patch, p99 <= 200 ms, <= 10 KiB per idle subscriber.
#
# The load tool (Benchmarks/LiveFanout, one epoll thread) and the server share this machine's
# cores, so the latencies include whatever else the machine is doing: the load average is printed.
# The server runs with its default limits: subscribers connect from 127.0.0.2, 127.0.0.3, … (PER_ADDRESS
# each), so its per-address caps hold as for real clients, and its default connection limit must
# admit them all. One process holds all the client sockets: fine below the open-file limit (20,000
# here); LiveFanout warns when SUBSCRIBERS is too close to it.
#
# Overridable: SUBSCRIBERS (default 15000), WARMUP_SUBSCRIBERS (a smaller run first on its own
# server; 0, the default, skips it), BATCH (500), TIMEOUT (10 s), SERVER_THREADS (2), PER_ADDRESS
# (200), BENCH_SKIP_BUILD=1, SERVER_BIN (another server binary, e.g. an older build to compare),
# SERVER_ARGS (extra `serve` options, e.g. "--connection-memory-limit 32768").
set -euo pipefail
export LC_ALL=C

SUBSCRIBERS=${SUBSCRIBERS:-15000}
WARMUP_SUBSCRIBERS=${WARMUP_SUBSCRIBERS:-0}
BATCH=${BATCH:-500}
TIMEOUT=${TIMEOUT:-10}
SERVER_THREADS=${SERVER_THREADS:-2}
PER_ADDRESS=${PER_ADDRESS:-200}
PAGE=checklist
ROW=item-2

cd "$(dirname "$0")/.."  # the server serves Public/ relative to the repo root
command -v curl >/dev/null || { echo "fanout.sh: curl not found (apt-get install curl)" >&2; exit 1; }

source Benchmarks/common.sh
build_server_and_load_tool

# Both the server and the load tool need a descriptor per subscriber; the tool raises its own
# soft limit, the server inherits ours.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
if (($(ulimit -n) < SUBSCRIBERS + 64)); then
    echo "fanout.sh: warning: open-file limit $(ulimit -n) is below $SUBSCRIBERS subscribers" >&2
fi

server_pid=
stop_server() {
    [[ -n $server_pid ]] || return 0
    stop_pids "$server_pid"
    pids=()
    server_pid=
}

start_server() {
    port=$(free_port)
    "$SERVER_BIN" serve --host 127.0.0.1 --port "$port" --threads "$SERVER_THREADS" --log-level warning --anonymous-writes \
        ${SERVER_ARGS:-} >"$tmp/server.log" 2>&1 &
    server_pid=$!
    pids=("$server_pid")
    wait_ready server "$server_pid" "http://127.0.0.1:$port/healthz" 15
}

# One run on a fresh server, so every run starts from the same memory and page state.
run() {  # subscribers
    start_server
    echo "== $1 subscribers: tablepages serve --threads $SERVER_THREADS (pid $server_pid, port $port)," \
        "$(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
    local status=0
    "$CLIENT_BIN" --port "$port" --pid "$server_pid" --subscribers "$1" --page "$PAGE" --row "$ROW" \
        --batch "$BATCH" --timeout "$TIMEOUT" --per-address "$PER_ADDRESS" || status=$?
    if [[ -s $tmp/server.log ]]; then
        echo "-- server log (warnings and errors, last 20 lines):"
        tail -n 20 "$tmp/server.log"
    fi
    if ! kill -0 "$server_pid" 2>/dev/null; then
        echo "fanout.sh: the server died during the run" >&2
        status=1
    fi
    stop_server
    return "$status"
}

if ((WARMUP_SUBSCRIBERS > 0)); then
    run "$WARMUP_SUBSCRIBERS"
    echo
fi
run "$SUBSCRIBERS"
