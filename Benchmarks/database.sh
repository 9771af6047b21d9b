#!/usr/bin/env bash
# Any SQLite table as a page, at a million rows: the time to the HTML page, and to JSON pages of
# 1,000 rows at the start, in the middle and near the end of the table. Pages after the first are
# keyset queries (`WHERE (sort, key) > (…) ORDER BY … LIMIT n`), so a deep page should cost what
# the first one costs; an OFFSET scan would grow with the depth.
#
# Each figure is the median of SAMPLES requests with curl (-w %{time_total}) on one keep-alive-less
# connection each; the first request for the page, which builds the live table (the first 1,000 rows
# and a count of all rows), is reported on its own.
#
# Overridable: ROWS, SAMPLES, BENCH_SKIP_BUILD=1, TABLEPAGES_BIN (a tablepages binary to use).
set -euo pipefail
export LC_ALL=C  # a decimal point in curl's figures, awk and printf

ROWS=${ROWS:-1000000}
SAMPLES=${SAMPLES:-11}

cd "$(dirname "$0")/.."
for tool in curl sqlite3; do
    command -v "$tool" >/dev/null || { echo "database.sh: $tool not found (apt-get install $tool)" >&2; exit 1; }
done
if [[ ${BENCH_SKIP_BUILD:-0} != 1 && -z ${TABLEPAGES_BIN:-} ]]; then
    nice -n 10 swift build -c release --product tablepages
fi
BIN=${TABLEPAGES_BIN:-.build/release/tablepages}
source Benchmarks/items_table.sh

tmp=$(mktemp -d)
server_pid=
cleanup() {
    if [[ -n $server_pid ]]; then
        kill "$server_pid" 2>/dev/null || true
        for _ in $(seq 50); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$server_pid" 2>/dev/null || true
    fi
    wait 2>/dev/null || true
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT  # route signals through the EXIT trap so the server does not outlive us
trap 'exit 143' TERM

db=$tmp/bench.sqlite
make_items_table "$db" "$ROWS"

port=
while :; do
    port=$((20000 + RANDOM % 40000))
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || break
done
"$BIN" serve --host 127.0.0.1 --port "$port" --threads 2 --log-level warning --database "$db" >"$tmp/server.log" 2>&1 &
server_pid=$!
base="http://127.0.0.1:$port"
for _ in $(seq 150); do
    curl -fs -o /dev/null --max-time 1 "$base/healthz" && break
    kill -0 "$server_pid" 2>/dev/null || { echo "database.sh: the server exited; its output:" >&2; cat "$tmp/server.log" >&2; exit 1; }
    sleep 0.1
done

median() {
    printf '%s\n' "$@" | sort -g |
        awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}

once() {  # accept url -> "seconds bytes"
    curl -fsS -o "$tmp/body" -H "Accept: $1" -w '%{time_total} %{size_download}\n' "$base$2"
}

measure() {  # label accept url [expected rows]
    local label=$1 accept=$2 url=$3 expected=${4:-}
    local times=() bytes=0 line
    for _ in $(seq "$SAMPLES"); do
        line=$(once "$accept" "$url")
        times+=("${line% *}")
        bytes=${line#* }
    done
    if [[ -n $expected ]]; then
        local rows
        rows=$(grep -o '"kind":"record"' "$tmp/body" | wc -l)
        [[ $rows == "$expected" ]] || { echo "database.sh: $url gave $rows rows, not $expected" >&2; exit 1; }
    fi
    printf '%-44s median %7.2f ms  (%d bytes)\n' "$label" "$(awk -v s="$(median "${times[@]}")" 'BEGIN { print s * 1000 }')" "$bytes"
}

json=application/json
middle=$((ROWS / 2))
deep=$((ROWS - 5000))
# The row ROWS - 5000 rows from the end in price order, for the indexed-sort figure.
deep_by_price=$(sqlite3 "$db" "SELECT id FROM items ORDER BY price, id LIMIT 1 OFFSET $((ROWS - 5000))")

echo "$ROWS rows, $SAMPLES samples each, server: --threads 2"
first=$(once text/html /pages/items)
printf '%-44s         %7.2f ms  (%d bytes)\n' "HTML page, first request (builds the table)" \
    "$(awk -v s="${first% *}" 'BEGIN { print s * 1000 }')" "${first#* }"
measure "HTML page (100 rows + placeholder)" text/html /pages/items
grep -o 'data-remaining="[0-9]*" data-estimated-row-height="[0-9.]*"' "$tmp/body" | head -1 | sed 's/^/    next link: /'
measure "JSON page of 1,000 rows (live table)" "$json" "/pages/items?limit=1000" 1000
measure "JSON 1,000 rows at the start" "$json" "/pages/items/sections/all?limit=1000" 1000
measure "JSON 1,000 rows after row $middle" "$json" "/pages/items/sections/all?after=$middle&limit=1000" 1000
measure "JSON 1,000 rows after row $deep" "$json" "/pages/items/sections/all?after=$deep&limit=1000" 1000
once text/html "/pages/items?sort=price" >/dev/null  # builds the sorted variant's table
measure "JSON 1,000 rows deep, ?sort=price (indexed)" "$json" "/pages/items/sections/all?sort=price&after=$deep_by_price&limit=1000" 1000
