#!/usr/bin/env bash
# Scale-out delay: two instances on one PostgreSQL. SUBSCRIBERS Server-Sent Events subscribers on
# instance B's to-do page, WRITES selects (each toggles a row) sent one after another through
# instance A, and per (write, subscriber) the time from the POST being sent to A until that
# subscriber on B has the patch: the write commits in PostgreSQL, its NOTIFY reaches B's listening
# connection, B re-reads the table and pushes the changed row. Goal (issue 13): p99 <= 100 ms.
#
# Starts a private PostgreSQL cluster (scripts/postgres-cluster) in a temp folder, two release
# servers on it (`--log-level warning`, `--anonymous-writes`), runs Benchmarks/LiveFanout with
# --action-port (A) and --port (B), prints the figures and the load average, and removes the
# servers, the cluster and the temp folders however the script ends (also on failure or Ctrl-C).
# Everything shares this machine's cores (PostgreSQL too), so the figures include whatever else the
# machine is doing.
#
# Overridable: SUBSCRIBERS (1000), WRITES (200), INTERVAL (50 ms, the least time between two writes'
# sends; the next write also waits until every subscriber has the previous one's patch), TIMEOUT (per
# write, 5 s), PAGE (todo), ROW (todo-2), SERVER_THREADS (2), BATCH (500), PER_ADDRESS (200),
# BENCH_SKIP_BUILD=1, SERVER_BIN, SERVER_ARGS (extra `serve` options for both instances).
set -euo pipefail
export LC_ALL=C

SUBSCRIBERS=${SUBSCRIBERS:-1000}
WRITES=${WRITES:-200}
INTERVAL=${INTERVAL:-50}
TIMEOUT=${TIMEOUT:-5}
PAGE=${PAGE:-todo}
ROW=${ROW:-todo-2}
SERVER_THREADS=${SERVER_THREADS:-2}
BATCH=${BATCH:-500}
PER_ADDRESS=${PER_ADDRESS:-200}

cd "$(dirname "$0")/.."  # the servers serve Public/ relative to the repo root
command -v curl >/dev/null || { echo "scaleout.sh: curl not found (apt-get install curl)" >&2; exit 1; }

source Benchmarks/common.sh
build_server_and_load_tool

ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
# As root the cluster runs as `postgres`, which must be able to enter its folder: one of its own
# under /tmp, not inside $tmp (mktemp's 0700).
pgdir=
after_servers+=('if [[ -n $pgdir ]]; then scripts/postgres-cluster stop "$pgdir"; rm -rf "$pgdir"; fi')

start_server() {  # name port: starts it on the cluster, waits for /readyz (LISTEN is up)
    "$SERVER_BIN" serve --host 127.0.0.1 --port "$2" --threads "$SERVER_THREADS" --log-level warning \
        --anonymous-writes --postgres "$url" ${SERVER_ARGS:-} >"$tmp/$1.log" 2>&1 &
    local pid=$!
    pids+=("$pid")
    eval "${1}_pid=$pid"
    wait_ready "$1" "$pid" "http://127.0.0.1:$2/readyz"
}

cpu_ms() {  # pid: user + system CPU time in ms
    awk -v hz="$(getconf CLK_TCK)" '{ sub(/.*\) /, ""); print ($12 + $13) * 1000 / hz }' "/proc/$1/stat"
}

pgdir=$(mktemp -d /tmp/tp-pg.XXXXXX)
chmod 755 "$pgdir"
url=$(scripts/postgres-cluster start "$pgdir" | tail -n 1)
port_a=$(free_port)
port_b=$(free_port "$port_a")
start_server a "$port_a"  # the first creates and seeds the tables
start_server b "$port_b"
curl -fs -o /dev/null "http://127.0.0.1:$port_b/pages/$PAGE" \
    || { echo "scaleout.sh: GET /pages/$PAGE on instance B failed" >&2; exit 1; }

pg_pid=$(head -n 1 "$pgdir/data/postmaster.pid")
echo "== scale-out: $SUBSCRIBERS subscribers on B (pid $b_pid, port $port_b), $WRITES writes through A" \
    "(pid $a_pid, port $port_a), PostgreSQL $(ls /usr/lib/postgresql | sort -V | tail -1)" \
    "(pid $pg_pid); servers --threads $SERVER_THREADS; $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
cpu_a=$(cpu_ms "$a_pid") cpu_b=$(cpu_ms "$b_pid")
status=0
# In the background, so that a signal's trap runs at once (bash runs traps only between commands)
# and the cleanup stops the client too.
"$CLIENT_BIN" --port "$port_b" --action-port "$port_a" --pid "$b_pid" --subscribers "$SUBSCRIBERS" \
    --page "$PAGE" --row "$ROW" --writes "$WRITES" --interval "$INTERVAL" --timeout "$TIMEOUT" \
    --batch "$BATCH" --per-address "$PER_ADDRESS" --settle 1 &
client_pid=$!
pids+=("$client_pid")
wait "$client_pid" || status=$?
echo "server CPU during the run (subscribing and all writes): A $(awk -v a="$(cpu_ms "$a_pid")" -v b="$cpu_a" 'BEGIN { print a - b }') ms," \
    "B $(awk -v a="$(cpu_ms "$b_pid")" -v b="$cpu_b" 'BEGIN { print a - b }') ms; load average $(cut -d' ' -f1-3 /proc/loadavg)"
for name in a b; do
    # Less the expected one about anonymous writes (it quotes a sign-in link).
    grep -v 'anonymous writes are on' "$tmp/$name.log" >"$tmp/$name.warnings" || true
    if [[ -s $tmp/$name.warnings ]]; then
        echo "-- instance $name log (warnings and errors, last 10 lines):"
        tail -n 10 "$tmp/$name.warnings"
    fi
done
for name in a b; do
    pid_var=${name}_pid
    if ! kill -0 "${!pid_var}" 2>/dev/null; then
        echo "scaleout.sh: instance $name died during the run" >&2
        status=1
    fi
done
exit "$status"
