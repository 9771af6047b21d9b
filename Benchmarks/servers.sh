# Sourced by the benchmark scripts that start servers in the background: a scratch folder in
# $tmp, and $pids, the processes to stop on the way out (SIGTERM, then SIGKILL for any still there
# after 5 s), however the script ends.
tmp=$(mktemp -d)
pids=()
cleanup() {
    local pid
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do
        # A server slow to honour SIGTERM must not hold the script up for long.
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null || true
    done
    wait 2>/dev/null || true
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT  # route signals through the EXIT trap so no server outlives the script
trap 'exit 143' TERM
