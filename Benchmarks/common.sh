# Sourced by the benchmark scripts (http.sh, metrics.sh, datasette.sh, scaleout.sh, fanout.sh): a
# scratch folder in $tmp; $pids, the servers to stop on the way out (stop_pids: SIGTERM, then SIGKILL
# for any still there after 5 s), however the script ends, then $after_servers; free_port,
# wait_ready, run_wrk, cpu_ticks, median, and build_server_and_load_tool for the live benchmarks.
# run_wrk expects WRK_THREADS, WRK_CONNECTIONS and WRK_DURATION.
bench=${0##*/}
tmp=$(mktemp -d)
pids=()
# Commands run on the way out once the servers are gone (e.g. stopping a database they used).
after_servers=()
stop_pids() {  # pid...: SIGTERM, then SIGKILL for any still there after 5 s; waits for them
    local pid
    for pid in "$@"; do kill "$pid" 2>/dev/null || true; done
    for pid in "$@"; do
        # A server slow to honour SIGTERM must not hold the script up for long.
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
}
cleanup() {
    local hook
    stop_pids "${pids[@]}"
    wait 2>/dev/null || true
    for hook in "${after_servers[@]}"; do eval "$hook" || true; done
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT  # route signals through the EXIT trap so no server outlives the script
trap 'exit 143' TERM

# The requests the last run_wrk completed, for a figure per request (run_wrk runs in a subshell).
wrk_requests_file=$tmp/wrk-requests

run_wrk() {  # url [more wrk options] -> req/s on stdout; the request count in $wrk_requests_file
    local out rps
    out=$(wrk -t"$WRK_THREADS" -c"$WRK_CONNECTIONS" -d"$WRK_DURATION" "${@:2}" "$1")
    # Error responses are cheap to produce and would flatter a broken server.
    if grep -q 'Non-2xx' <<<"$out"; then
        echo "$bench: non-2xx responses from $1:" >&2
        echo "$out" >&2
        exit 1
    fi
    grep 'Socket errors' <<<"$out" >&2 || true
    rps=$(awk '/^Requests\/sec:/ { print $2 }' <<<"$out")
    [[ -n $rps ]] || { echo "$bench: no Requests/sec in wrk's output:" >&2; echo "$out" >&2; exit 1; }
    awk '/ requests in / { print $1 }' <<<"$out" >"$wrk_requests_file"
    echo "$rps"
}

# CPU time (user + system, all threads) a process has used so far, in clock ticks.
cpu_ticks() {  # pid
    # Fields 14 and 15 of /proc/PID/stat, counted after the command's name (field 2), which may hold spaces.
    sed -E 's/^.*\) //' "/proc/$1/stat" | awk '{ print $12 + $13 }'
}

median() {
    printf '%s\n' "$@" | sort -g |
        awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}

# A port nothing answers on (other than $1); if another process binds it first, wait_ready sees
# the server die.
free_port() {
    local port
    while :; do
        port=$((20000 + RANDOM % 40000))
        [[ $port == "${1:-}" ]] && continue
        (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || { echo "$port"; return; }
    done
}

wait_ready() {  # name pid url [seconds]: waits up to 30 s (or seconds) for a 200 from url; the server logs to $tmp/name.log
    for _ in $(seq $((${4:-30} * 10))); do
        curl -fs -o /dev/null --max-time 1 "$3" && return 0
        if ! kill -0 "$2" 2>/dev/null; then
            echo "$bench: $1 exited before answering; its output:" >&2
            cat "$tmp/$1.log" >&2
            exit 1
        fi
        sleep 0.1
    done
    echo "$bench: $1 did not answer 200 on $3 within ${4:-30} s" >&2
    exit 1
}

# The release server and the load tool (Benchmarks/LiveFanout), built unless BENCH_SKIP_BUILD=1;
# sets SERVER_BIN (unless given) and CLIENT_BIN.
build_server_and_load_tool() {
    if [[ ${BENCH_SKIP_BUILD:-0} != 1 ]]; then
        nice -n 10 swift build -c release --product tablepages
        nice -n 10 swift build -c release --package-path Benchmarks/LiveFanout
    fi
    SERVER_BIN=${SERVER_BIN:-.build/release/tablepages}
    CLIENT_BIN=Benchmarks/LiveFanout/.build/release/LiveFanout
    [[ -x $SERVER_BIN && -x $CLIENT_BIN ]] || { echo "$bench: build $SERVER_BIN and $CLIENT_BIN first" >&2; exit 1; }
}
