#!/usr/bin/env bash
# CPU per request of two tablepages binaries serving the same path: for telling whether a change
# made a hot path slower (e.g. the cached page on the event thread), where req/s on this shared
# machine varies by more than the difference sought.
#
# Both servers run side by side with the same options, each with its own examples database, and
# take turns under wrk (the order alternates each round). Each turn's figure is the CPU time the
# server used (user + system, all threads, from /proc/PID/stat) over the requests wrk completed,
# which depends less than req/s on how much of the cores other processes leave. The medians and the
# ratio B/A are printed (its spread: the lowest and highest of the rounds' ratios), and the mean of
# each side's fastest quarter of rounds, the steadier figure on a busy machine.
#
#     Benchmarks/builds.sh /tmp/tablepages-before .build/release/tablepages
#
# Overridable: BENCH_PATH (default /pages/products.json), BENCH_ROUNDS (default 10),
# BENCH_LOG_LEVEL (default info, serve's default: an access-log line per request), WRK_THREADS (1),
# WRK_CONNECTIONS (8), WRK_DURATION (3s).
set -euo pipefail
export LC_ALL=C

[[ $# == 2 ]] || { echo "usage: ${0##*/} BINARY_A BINARY_B" >&2; exit 2; }
A_BIN=$1
B_BIN=$2
for bin in "$A_BIN" "$B_BIN"; do
    [[ -x $bin ]] || { echo "${0##*/}: $bin is not an executable" >&2; exit 2; }
done
WRK_THREADS=${WRK_THREADS:-1}
WRK_CONNECTIONS=${WRK_CONNECTIONS:-8}
WRK_DURATION=${WRK_DURATION:-3s}
BENCH_ROUNDS=${BENCH_ROUNDS:-10}
URL_PATH=${BENCH_PATH:-/pages/products.json}
LOG_LEVEL=${BENCH_LOG_LEVEL:-info}

cd "$(dirname "$0")/.."  # the servers serve Public/ relative to the repo root
command -v wrk >/dev/null || { echo "${0##*/}: wrk not found (apt-get install wrk)" >&2; exit 1; }
source Benchmarks/common.sh

start() {  # name binary port
    "$2" serve --host 127.0.0.1 --port "$3" --threads 2 --log-level "$LOG_LEVEL" \
        --examples-database "$tmp/$1.sqlite" >"$tmp/$1.log" 2>&1 &
    pids+=($!)
    wait_ready "$1" "$!" "http://127.0.0.1:$3$URL_PATH"
}

a_port=$(free_port)
start a "$A_BIN" "$a_port"
a_pid=${pids[-1]}
b_port=$(free_port "$a_port")
start b "$B_BIN" "$b_port"
b_pid=${pids[-1]}

# The same bytes from both, but for each database's own version clock.
without_version() { curl -fs "$1" | sed -E 's/"version":[0-9]+//g'; }
if ! cmp -s <(without_version "http://127.0.0.1:$a_port$URL_PATH") <(without_version "http://127.0.0.1:$b_port$URL_PATH"); then
    echo "${0##*/}: the two binaries answer $URL_PATH differently" >&2
    exit 1
fi

turn() {  # pid port -> microseconds of CPU per request
    local before after requests
    before=$(cpu_ticks "$1")
    run_wrk "http://127.0.0.1:$2$URL_PATH" >/dev/null
    after=$(cpu_ticks "$1")
    requests=$(cat "$wrk_requests_file")
    awk -v t=$((after - before)) -v hz="$(getconf CLK_TCK)" -v n="$requests" 'BEGIN { printf "%.2f", t / hz * 1e6 / n }'
}

echo "wrk -t$WRK_THREADS -c$WRK_CONNECTIONS -d$WRK_DURATION, $BENCH_ROUNDS rounds, $URL_PATH, --log-level $LOG_LEVEL"
echo "A: $A_BIN"
echo "B: $B_BIN"
# A warm-up turn each, not counted: caches filled, threads started.
turn "$a_pid" "$a_port" >/dev/null
turn "$b_pid" "$b_port" >/dev/null
as=()
bs=()
ratios=()
for round in $(seq "$BENCH_ROUNDS"); do
    if ((round % 2)); then
        a=$(turn "$a_pid" "$a_port"); b=$(turn "$b_pid" "$b_port")
    else
        b=$(turn "$b_pid" "$b_port"); a=$(turn "$a_pid" "$a_port")
    fi
    as+=("$a"); bs+=("$b")
    ratios+=("$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", b / a }')")
    echo "round $round: A $a µs, B $b µs per request (B/A ${ratios[-1]})"
done
low=$(printf '%s\n' "${ratios[@]}" | sort -g | head -1)
high=$(printf '%s\n' "${ratios[@]}" | sort -g | tail -1)
echo "median CPU per request: A $(median "${as[@]}") µs, B $(median "${bs[@]}") µs;" \
    "B/A median $(median "${ratios[@]}") (rounds $low–$high)"
# Other processes only ever add to a turn's CPU (cache misses, preemption), so each side's
# fastest rounds come nearest its own cost: the mean of its fastest quarter.
fastest() { printf '%s\n' "$@" | sort -g | head -$(((${#@} + 3) / 4)) | awk '{ s += $1 } END { printf "%.2f", s / NR }'; }
fa=$(fastest "${as[@]}")
fb=$(fastest "${bs[@]}")
echo "fastest quarter of rounds: A $fa µs, B $fb µs; B/A $(awk -v a="$fa" -v b="$fb" 'BEGIN { printf "%.3f", b / a }')"
