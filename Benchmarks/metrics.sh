#!/usr/bin/env bash
# What counting metrics costs: one tablepages binary run twice, with --metrics (the default) and
# --no-metrics, the same URL under wrk, rounds alternating; prints both medians and their ratio.
#
# Request logging is off on both (--log-level notice; request lines are info) so that only the
# metrics differ.
# Overridable: WRK_THREADS, WRK_CONNECTIONS, WRK_DURATION, BENCH_ROUNDS, BENCH_PATH, BENCH_SKIP_BUILD=1,
# OURS_BIN (another tablepages binary).
set -euo pipefail
export LC_ALL=C

WRK_THREADS=${WRK_THREADS:-2}
WRK_CONNECTIONS=${WRK_CONNECTIONS:-64}
WRK_DURATION=${WRK_DURATION:-5s}
BENCH_ROUNDS=${BENCH_ROUNDS:-5}
URL_PATH=${BENCH_PATH:-/public/table-pages.css}

cd "$(dirname "$0")/.."
for tool in curl wrk; do
    command -v "$tool" >/dev/null || { echo "metrics.sh: $tool not found (apt-get install $tool)" >&2; exit 1; }
done
if [[ ${BENCH_SKIP_BUILD:-0} != 1 ]]; then
    nice -n 10 swift build -c release --product tablepages
fi
OURS_BIN=${OURS_BIN:-.build/release/tablepages}

source Benchmarks/common.sh

start() {  # name flag -> the server's port in $started_port, read from its own log line
    # Not called as $(start …): in a subshell its pid would never reach $pids, and the server
    # would outlive the script.
    "$OURS_BIN" serve --host 127.0.0.1 --port 0 --threads 2 --log-level notice "$2" \
        --examples-database "$tmp/$1.sqlite" >"$tmp/$1.log" 2>&1 &
    pids+=($!)
    local port=""
    for _ in $(seq 150); do
        port=$(sed -n 's/.*listening on http:\/\/[^ ]*:\([0-9]*\).*/\1/p' "$tmp/$1.log" | head -1)
        [[ -n $port ]] && curl -fs -o /dev/null --max-time 1 "http://127.0.0.1:$port$URL_PATH" && { started_port=$port; return; }
        sleep 0.1
    done
    echo "metrics.sh: $1 did not answer 200 on $URL_PATH; its output:" >&2
    cat "$tmp/$1.log" >&2
    exit 1
}

start with --metrics
with_port=$started_port
start without --no-metrics
without_port=$started_port
curl -fs -o /dev/null "http://127.0.0.1:$with_port/metrics" || { echo "metrics.sh: no /metrics with --metrics" >&2; exit 1; }
if curl -fs -o /dev/null "http://127.0.0.1:$without_port/metrics"; then echo "metrics.sh: /metrics with --no-metrics" >&2; exit 1; fi

echo "wrk -t$WRK_THREADS -c$WRK_CONNECTIONS -d$WRK_DURATION, $BENCH_ROUNDS rounds, $URL_PATH"
with=()
without=()
for round in $(seq "$BENCH_ROUNDS"); do
    with+=("$(run_wrk "http://127.0.0.1:$with_port$URL_PATH")")
    without+=("$(run_wrk "http://127.0.0.1:$without_port$URL_PATH")")
    printf 'round %d: --metrics %10.2f req/s   --no-metrics %10.2f req/s\n' "$round" "${with[-1]}" "${without[-1]}"
done
with_median=$(median "${with[@]}")
without_median=$(median "${without[@]}")
printf 'median --metrics:    %10.2f req/s\n' "$with_median"
printf 'median --no-metrics: %10.2f req/s\n' "$without_median"
awk -v w="$with_median" -v n="$without_median" 'BEGIN { printf "ratio --metrics/--no-metrics: %.3f\n", w / n }'
requests=$(curl -fs "http://127.0.0.1:$with_port/metrics" | awk '
    /^tablepages_http_requests_total/ && index($0, "status=\"200\"") { s += $NF } END { print s + 0 }')
echo "requests counted by the --metrics server: $requests"
