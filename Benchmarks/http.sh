#!/usr/bin/env bash
# HTTP throughput of our MicroHTTP server against a Hummingbird 2 peer serving the same bytes.
# Two of our servers run: one with the default logging (an access log line per request, at info,
# written to a file) and one at --log-level warning (no request lines), so the cost of the access
# log shows in the same run. The three take turns in an order that rotates each round.
#
# Both servers and wrk share this machine's cores, so absolute req/s mean little; what counts
# is the ratio within one run. Rounds alternate between the servers so that drift in machine
# load hits both alike, and the median of each side keeps one noisy round from deciding.
#
# Overridable: WRK_THREADS, WRK_CONNECTIONS, WRK_DURATION, BENCH_ROUNDS, BENCH_PATH, GOAL, BENCH_SKIP_BUILD=1,
# OURS_BIN (another tablepages binary, e.g. an older build to compare against).
set -euo pipefail
export LC_ALL=C  # a decimal point in wrk's figures, awk and printf

WRK_THREADS=${WRK_THREADS:-2}
WRK_CONNECTIONS=${WRK_CONNECTIONS:-64}
WRK_DURATION=${WRK_DURATION:-5s}
BENCH_ROUNDS=${BENCH_ROUNDS:-3}
# BENCH_PATH picks what to serve: by default a Public/ asset; e.g. /pages/products.json measures a
# rendered page against the peer sending the same bytes from memory (goal 1.2: GOAL=1.2).
URL_PATH=${BENCH_PATH:-/public/table-pages.css}
# The goal applies to the default logging (access log on).
GOAL=${GOAL:-2.0}

cd "$(dirname "$0")/.."  # our server serves Public/ relative to the repo root
for tool in curl wrk; do
    command -v "$tool" >/dev/null || { echo "http.sh: $tool not found (apt-get install $tool)" >&2; exit 1; }
done

if [[ ${BENCH_SKIP_BUILD:-0} != 1 ]]; then
    nice -n 10 swift build -c release --product tablepages
    nice -n 10 swift build -c release --package-path Benchmarks/HummingbirdPeer
fi
OURS_BIN=${OURS_BIN:-.build/release/tablepages}
PEER_BIN=Benchmarks/HummingbirdPeer/.build/release/HummingbirdPeer

source Benchmarks/common.sh

start_ours() {  # name port log-level
    "$OURS_BIN" serve --host 127.0.0.1 --port "$2" --threads 2 --log-level "$3" \
        --examples-database "$tmp/$1.sqlite" >"$tmp/$1.log" 2>&1 &
    pids+=($!)
    wait_ready "$1" "$!" "http://127.0.0.1:$2$URL_PATH"
}

info_port=$(free_port)
start_ours microhttp-info "$info_port" info
info_url="http://127.0.0.1:$info_port$URL_PATH"
quiet_port=$(free_port "$info_port")
start_ours microhttp-warning "$quiet_port" warning
ours_url="http://127.0.0.1:$quiet_port$URL_PATH"

# The peer is handed whatever Content-Type ours sends, so both put the same bytes on the wire.
content_type=$(curl -fs -o "$tmp/ours.body" -w '%{content_type}' "$ours_url")
FILE="$tmp/ours.body"
peer_port=$(free_port "$quiet_port")
peer_url="http://127.0.0.1:$peer_port/public/bench"
"$PEER_BIN" --host 127.0.0.1 --port "$peer_port" --content-type "$content_type" "$FILE" \
    >"$tmp/hummingbird.log" 2>&1 &
pids+=($!)
wait_ready hummingbird "$!" "$peer_url"

curl -fs "$peer_url" -o "$tmp/peer.body"
curl -fs "$info_url" -o "$tmp/info.body"
# Each of our servers has its own examples database, whose version clock starts at its own value:
# a page's JSON differs between them in its "version" only.
without_version() { sed -E 's/"version":[0-9]+//g' "$1"; }
if ! cmp "$tmp/ours.body" "$tmp/peer.body" || ! cmp <(without_version "$tmp/ours.body") <(without_version "$tmp/info.body"); then
    echo "http.sh: the two servers return different bodies for $URL_PATH" >&2
    exit 1
fi

echo "wrk -t$WRK_THREADS -c$WRK_CONNECTIONS -d$WRK_DURATION, $BENCH_ROUNDS rounds, $URL_PATH ($(wc -c <"$FILE") bytes, $content_type)"
info=()
ours=()
peer=()
for round in $(seq "$BENCH_ROUNDS"); do
    # The order rotates each round, so none of the three always runs first (after a pause) or last.
    for turn in 0 1 2; do
        case $(((round + turn) % 3)) in
            1) info+=("$(run_wrk "$info_url")") ;;
            2) ours+=("$(run_wrk "$ours_url")") ;;
            0) peer+=("$(run_wrk "$peer_url")") ;;
        esac
    done
    printf 'round %d: microhttp (log info) %10.2f req/s   microhttp (log warning) %10.2f req/s   hummingbird %10.2f req/s\n' \
        "$round" "${info[-1]}" "${ours[-1]}" "${peer[-1]}"
done

info_median=$(median "${info[@]}")
ours_median=$(median "${ours[@]}")
peer_median=$(median "${peer[@]}")
printf 'median microhttp, default logging (info): %10.2f req/s\n' "$info_median"
printf 'median microhttp, --log-level warning:    %10.2f req/s\n' "$ours_median"
printf 'median hummingbird:                       %10.2f req/s\n' "$peer_median"
# The access log must have kept up: lines it wrote, and lines it dropped (a full buffer), if any.
sleep 1.5  # its writer flushes at least every second
written=$(grep -c " GET $URL_PATH " "$tmp/microhttp-info.log" || true)
dropped=$({ grep -o 'dropped=[0-9]*' "$tmp/microhttp-info.log" || true; } | awk -F= '{ s += $2 } END { print s + 0 }')
echo "access log of the info server: $written request lines written, $dropped dropped"
awk -v o="$info_median" -v q="$ours_median" -v p="$peer_median" -v g="$GOAL" 'BEGIN {
    printf "ratio microhttp/hummingbird, default logging: %.2f (goal >= %s)\n", o / p, g
    printf "ratio microhttp/hummingbird, log warning:     %.2f\n", q / p
}'
