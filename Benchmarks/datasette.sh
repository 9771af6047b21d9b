#!/usr/bin/env bash
# `tablepages serve --database` against Datasette on the same generated 1,000,000-row SQLite file:
# throughput (req/s, wrk) of
#   (a) JSON pages of 100 rows at random keyset positions (`_next=N&_size=100`, N random per request),
#   (b) filtered pages (`category__exact=…&price__gte=…`, a text equality and a range) at random
#       keyset positions,
#   (c) a faceted page (`_facet=category`, 100 rows): the same URL for every request,
# and the ratio TablePages / Datasette for each (goals: (a) >= 30, issue 22; (b) and (c) >= 10, issue 12).
# It also prints each server's CPU time per request in each case (user + system time of all its
# threads, from /proc/PID/stat, over the requests wrk completed): a steadier figure than req/s on a
# shared machine, since it hardly depends on how much of the cores the other processes leave.
#
# Datasette runs in immutable mode (`datasette serve -i`, its fastest: the table's row count is
# counted once at startup). Its time limits are raised (`sql_time_limit_ms`, `facet_time_limit_ms`)
# so that it gives the whole answer TablePages gives: at its defaults a facet over a million rows
# stops after 200 ms and the page comes back without it, and a filtered count near 1 s is dropped.
# TablePages gets the same limit (`--query-time-limit 10000`).
# Both servers get `_nosuggest=1` (Datasette would otherwise also try to suggest facets; TablePages
# ignores the parameter). Before timing, one answer of each server is checked for every case:
# status 200, 100 rows, the same row ids in both, and the facet counts (or the filtered count).
#
# Both servers and wrk share this machine's cores (and other engineers' builds), so only the ratios
# of one run mean much. Each case runs TablePages and Datasette one after the other, with the same
# wrk threads, connections and duration, on 127.0.0.1 only.
#
# Datasette is installed from PyPI into a virtual environment kept between runs
# (DATASETTE_VENV, by default $TMPDIR/tablepages-bench-datasette), unless DATASETTE names a binary.
#
# Overridable: ROWS, WRK_THREADS, WRK_CONNECTIONS, WRK_DURATION ((a)), WRK_SLOW_DURATION ((b), (c)), BENCH_ROUNDS,
# BENCH_CASES (which of the cases run, by default "a b c"), BENCH_SKIP_BUILD=1,
# TABLEPAGES_BIN (a tablepages binary to use), DATASETTE, DATASETTE_VENV.
set -euo pipefail
export LC_ALL=C  # a decimal point in wrk's figures, awk and printf

ROWS=${ROWS:-1000000}
WRK_THREADS=${WRK_THREADS:-2}
WRK_CONNECTIONS=${WRK_CONNECTIONS:-8}
WRK_DURATION=${WRK_DURATION:-10s}
# Datasette takes about a second per filtered or faceted page, and wrk counts only the answers
# that arrive within the run: those cases run longer, so that a few in flight at the end weigh little.
WRK_SLOW_DURATION=${WRK_SLOW_DURATION:-30s}
BENCH_ROUNDS=${BENCH_ROUNDS:-1}
PAGE_ROWS=100

cd "$(dirname "$0")/.."
for tool in curl wrk sqlite3 python3 bc; do
    command -v "$tool" >/dev/null || { echo "datasette.sh: $tool not found (apt-get install $tool)" >&2; exit 1; }
done
if [[ ${BENCH_SKIP_BUILD:-0} != 1 && -z ${TABLEPAGES_BIN:-} ]]; then
    nice -n 10 swift build -c release --product tablepages
fi
BIN=${TABLEPAGES_BIN:-.build/release/tablepages}

if [[ -z ${DATASETTE:-} ]]; then
    venv=${DATASETTE_VENV:-${TMPDIR:-/tmp}/tablepages-bench-datasette}
    if [[ ! -x $venv/bin/datasette ]]; then
        echo "installing Datasette from PyPI into $venv"
        python3 -m venv "$venv"
        "$venv/bin/python" -m pip install -q datasette
    fi
    DATASETTE=$venv/bin/datasette
fi

source Benchmarks/common.sh  # $tmp, $pids (stopped on exit), free_port, wait_ready, run_wrk, median
source Benchmarks/items_table.sh  # make_items_table

# The table of database.sh: `category` (7 values) for the filter and the facet, `price` (indexed)
# for the range.
db=$tmp/bench.sqlite
make_items_table "$db" "$ROWS"

ours_port=$(free_port)
# The same time limit per query as Datasette's: building the filtered variant counts its rows
# (about 0.5 s on an idle machine), which a busy machine can push past the default of 1 s (a 503).
"$BIN" serve --host 127.0.0.1 --port "$ours_port" --threads 2 --log-level warning --query-time-limit 10000 \
    --database "$db" >"$tmp/tablepages.log" 2>&1 &
ours_pid=$!
pids+=($!)
wait_ready tablepages "$!" "http://127.0.0.1:$ours_port/healthz"
peer_port=$(free_port "$ours_port")
"$DATASETTE" serve -i "$db" --host 127.0.0.1 --port "$peer_port" \
    --setting sql_time_limit_ms 10000 --setting facet_time_limit_ms 10000 >"$tmp/datasette.log" 2>&1 &
peer_pid=$!
pids+=($!)
wait_ready datasette "$!" "http://127.0.0.1:$peer_port/-/versions.json"
echo "TablePages: $BIN (release, --threads 2); Datasette $("$DATASETTE" --version | awk '{ print $NF }') (-i)"

ours="http://127.0.0.1:$ours_port/pages/items.json"
peer="http://127.0.0.1:$peer_port/bench/items.json"
filter="category__exact=category%203&price__gte=50"
max_row=$((ROWS - PAGE_ROWS))

# Checks one answer of each server: 200, PAGE_ROWS rows, the same ids, and what the case needs.
check() {  # label query-without-_next after-row-or-empty [facet]
    local label=$1 query=$2 after=$3 facet=${4:-} suffix=""
    [[ -n $after ]] && suffix="&_next=$after"
    curl -fsS -o "$tmp/ours.json" "$ours?$query$suffix" || { echo "datasette.sh: ($label) TablePages did not answer 200" >&2; exit 1; }
    curl -fsS -o "$tmp/peer.json" "$peer?$query$suffix" || { echo "datasette.sh: ($label) Datasette did not answer 200" >&2; exit 1; }
    python3 - "$label" "$tmp/ours.json" "$tmp/peer.json" "$PAGE_ROWS" "$facet" <<'PY' || exit 1
import json, sys
label, ours_path, peer_path, page_rows, facet = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
ours, peer = json.load(open(ours_path)), json.load(open(peer_path))
# A page's JSON holds sections; a page of one section (after `_next`) is that section alone.
ours_rows = [row for section in ours["sections"] for row in section["rows"]] if "sections" in ours else ours["rows"]
ours_ids = [int(row["id"]) for row in ours_rows]
peer_ids = [row[peer["columns"].index("id")] for row in peer["rows"]]
def fail(message):
    sys.exit(f"datasette.sh: ({label}) {message}")
if len(ours_ids) != page_rows or len(peer_ids) != page_rows:
    fail(f"{len(ours_ids)} rows from TablePages, {len(peer_ids)} from Datasette, not {page_rows}")
if ours_ids != peer_ids:
    fail(f"the servers disagree on the rows: {ours_ids[:3]}… against {peer_ids[:3]}…")
if peer.get("filtered_table_rows_count") is None:
    fail("Datasette gave no row count (its count hit a time limit)")
if facet:
    peer_counts = {r["value"]: r["count"] for r in peer.get("facet_results", {}).get(facet, {}).get("results", [])}
    ours_counts = {v["value"]: v["count"] for v in ours.get("facets", {}).get(facet, {}).get("values", [])}
    if not peer_counts:
        fail("Datasette gave no facet counts (its facet hit a time limit)")
    if ours_counts != peer_counts:
        fail(f"the facet counts differ: {ours_counts} against {peer_counts}")
print(f"  checked ({label}): 200, {page_rows} rows, ids {ours_ids[0]}…{ours_ids[-1]} in both")
PY
}

# "req/s µs-of-CPU-per-request" of the server `pid` under wrk against url for `duration`; with a
# prefix, every request asks for `prefix N suffix`, N random. A slow answer waits up to 30 s before
# wrk counts it as an error.
measure() {  # pid duration url-base [path-prefix path-suffix]
    local pid=$1 WRK_DURATION=$2 before rps
    before=$(cpu_ticks "$pid")
    if [[ $# -gt 3 ]]; then
        export BENCH_PREFIX=$4 BENCH_SUFFIX=$5 BENCH_MAX_ROW=$max_row  # read by random_next.lua
        rps=$(run_wrk "$3" --timeout 30s -s Benchmarks/random_next.lua)
    else
        rps=$(run_wrk "$3" --timeout 30s)
    fi
    # Ticks are 1/CLK_TCK s; answers still in flight when wrk stops add a little to the CPU time.
    awk -v rps="$rps" -v ticks=$(($(cpu_ticks "$pid") - before)) -v hz="$(getconf CLK_TCK)" -v n="$(cat "$wrk_requests_file")" \
        'BEGIN { printf "%s %.1f\n", rps, (n > 0 ? ticks / hz / n * 1e6 : 0) }'
}

declare -A ours_rps peer_rps ours_cpu peer_cpu
read -r -a cases <<<"${BENCH_CASES:-a b c}"
declare -A titles=(
    [a]="(a) 100 rows at a random keyset position"
    [b]="(b) filtered, 100 rows at a random position"
    [c]="(c) faceted page (_facet=category), 100 rows"
)
declare -A goals=([a]=30 [b]=10 [c]=10)

check a "_size=$PAGE_ROWS&_nosuggest=1" $((ROWS / 2))
check b "$filter&_size=$PAGE_ROWS&_nosuggest=1" $((ROWS / 2))
check c "_facet=category&_size=$PAGE_ROWS&_nosuggest=1" "" category

ours_base="http://127.0.0.1:$ours_port"
peer_base="http://127.0.0.1:$peer_port"
for round in $(seq "$BENCH_ROUNDS"); do
    echo "round $round of $BENCH_ROUNDS: wrk -t$WRK_THREADS -c$WRK_CONNECTIONS, -d$WRK_DURATION for (a), -d$WRK_SLOW_DURATION for (b) and (c), per server"
    for case in "${cases[@]}"; do
        case $case in
            a) o=$(measure "$ours_pid" "$WRK_DURATION" "$ours_base" "/pages/items.json?_size=$PAGE_ROWS&_nosuggest=1&_next=" "")
               p=$(measure "$peer_pid" "$WRK_DURATION" "$peer_base" "/bench/items.json?_size=$PAGE_ROWS&_nosuggest=1&_next=" "") ;;
            b) o=$(measure "$ours_pid" "$WRK_SLOW_DURATION" "$ours_base" "/pages/items.json?$filter&_size=$PAGE_ROWS&_nosuggest=1&_next=" "")
               p=$(measure "$peer_pid" "$WRK_SLOW_DURATION" "$peer_base" "/bench/items.json?$filter&_size=$PAGE_ROWS&_nosuggest=1&_next=" "") ;;
            c) o=$(measure "$ours_pid" "$WRK_SLOW_DURATION" "$ours?_facet=category&_size=$PAGE_ROWS&_nosuggest=1")
               p=$(measure "$peer_pid" "$WRK_SLOW_DURATION" "$peer?_facet=category&_size=$PAGE_ROWS&_nosuggest=1") ;;
        esac
        read -r o o_cpu <<<"$o"
        read -r p p_cpu <<<"$p"
        printf '  %-48s TablePages %10.1f req/s %8.1f µs CPU/req   Datasette %8.1f req/s %8.1f µs CPU/req\n' "${titles[$case]}" "$o" "$o_cpu" "$p" "$p_cpu"
        ours_rps[$case]+="$o "
        peer_rps[$case]+="$p "
        ours_cpu[$case]+="$o_cpu "
        peer_cpu[$case]+="$p_cpu "
    done
done

echo "medians over $BENCH_ROUNDS round(s):"
for case in "${cases[@]}"; do
    # shellcheck disable=SC2086  # the lists are space-separated numbers
    o=$(median ${ours_rps[$case]})
    # shellcheck disable=SC2086
    p=$(median ${peer_rps[$case]})
    printf '%-50s TablePages %10.1f  Datasette %8.1f  ratio %7.1f  (goal >= %d)\n' \
        "${titles[$case]}" "$o" "$p" "$(awk -v o="$o" -v p="$p" 'BEGIN { print o / p }')" "${goals[$case]}"
done
echo "CPU time per request, medians over $BENCH_ROUNDS round(s):"
for case in "${cases[@]}"; do
    # shellcheck disable=SC2086
    o=$(median ${ours_cpu[$case]})
    # shellcheck disable=SC2086
    p=$(median ${peer_cpu[$case]})
    printf '%-50s TablePages %8.1f µs  Datasette %8.1f µs  Datasette / TablePages %6.1f\n' \
        "${titles[$case]}" "$o" "$p" "$(awk -v o="$o" -v p="$p" 'BEGIN { print (o > 0 ? p / o : 0) }')"
done
