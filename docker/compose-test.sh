#!/usr/bin/env bash
# `make container-test`, after docker/container-test.sh: docker/compose.yaml as an operator runs it
# (podman-compose): PostgreSQL, two TablePages instances and nginx in front. It checks that both
# instances are ready; a token made on one instance is good on the other (shared credentials);
# event streams on each instance (reached at its container's address) and one through the balancer
# all receive the patch of a to-do toggled through the balancer, and of a row changed with `psql`
# inside the database's container; a stream moving from one instance to the other with
# Last-Event-ID is replayed what it missed; 1,000 browsers behind the balancer (distinct
# X-Forwarded-For) all get streams, and get them again within 2 s of all closing; the instance the balancer uses, killed with SIGKILL, is failed
# over: reads and writes through the balancer go on, and nothing acknowledged is lost.
#
# It uses the image container-test.sh built (TABLEPAGES_IMAGE, default
# localhost/tablepages:container-test) and makes stand-ins for the official postgres and nginx
# images once per machine (docker/standins/), since they cannot be pulled here. Needs root (or
# sudo); removes its containers, network and volumes on exit, pass or fail.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" -ne 0 ]; then
  exec sudo TABLEPAGES_IMAGE="${TABLEPAGES_IMAGE:-}" "$0" "$@"
fi

BASE_IMAGE=localhost/debian:bookworm-slim
IMAGE=${TABLEPAGES_IMAGE:-localhost/tablepages:container-test}
POSTGRES_STANDIN=localhost/postgres-standin:15-bookworm
NGINX_STANDIN=localhost/nginx-standin:bookworm
PROJECT=tablepages-compose-$$
started=$(date +%s)

say() { printf '== %s\n' "$*"; }
fail() {
  printf 'compose-test: FAIL: %s\n' "$*" >&2
  for service in postgres tablepages-a tablepages-b balancer; do
    printf -- '-- %s:\n' "$service" >&2
    podman logs --tail 15 "$(container "$service")" >&2 2>&1 || true
  done
  exit 1
}

.ci/install-packages podman runc netavark aardvark-dns iptables podman-compose curl python3 > /dev/null
podman image exists "$IMAGE" || { echo "compose-test: no image $IMAGE; run docker/container-test.sh first" >&2; exit 1; }
podman image exists "$BASE_IMAGE" || { echo "compose-test: no $BASE_IMAGE; run docker/container-test.sh first" >&2; exit 1; }
for standin in "postgres:$POSTGRES_STANDIN" "nginx:$NGINX_STANDIN"; do
  name=${standin%%:*}
  tag=${standin#*:}
  if ! podman image exists "$tag"; then
    say "making $tag (docker/standins/$name.Dockerfile)"
    t=$(date +%s)
    podman build -q --network host --build-arg BASE_IMAGE="$BASE_IMAGE" -f "docker/standins/$name.Dockerfile" \
      -t "$tag" docker/standins > "/var/tmp/tablepages-$name-standin.log" 2>&1 \
      || { tail -20 "/var/tmp/tablepages-$name-standin.log"; echo "compose-test: building $tag failed" >&2; exit 1; }
    say "$tag made in $(( $(date +%s) - t )) s"
  fi
done

# A free port below the ephemeral range: one the kernel hands out for outgoing connections could be
# taken by another program's client socket before the balancer binds it.
PORT=$(python3 -c '
import random, socket
low = int(open("/proc/sys/net/ipv4/ip_local_port_range").read().split()[0])
for _ in range(200):
    port = random.randrange(max(1024, low - 12000), low)
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            continue
    print(port)
    break
')
[ -n "$PORT" ] || { echo "compose-test: no free port below the ephemeral range" >&2; exit 1; }
URL=http://127.0.0.1:$PORT
export TABLEPAGES_IMAGE=$IMAGE POSTGRES_IMAGE=$POSTGRES_STANDIN NGINX_IMAGE=$NGINX_STANDIN PORT
compose() { podman-compose -p "$PROJECT" -f docker/compose.yaml "$@"; }
container() { echo "${PROJECT}_$1_1"; }
work=$(mktemp -d)
cleanup() {
  jobs -p | xargs -r kill 2> /dev/null || true
  compose down -v > /dev/null 2>&1 || true
  # What `down` leaves when a container was restarting (restart: unless-stopped) as it ran.
  podman ps -aq --filter "label=io.podman.compose.project=$PROJECT" | xargs -r podman rm -f > /dev/null 2>&1 || true
  podman volume ls -q | grep "^${PROJECT}_" | xargs -r podman volume rm -f > /dev/null 2>&1 || true
  podman network rm -f "${PROJECT}_default" > /dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

say "starting docker/compose.yaml as project $PROJECT, the balancer on $URL"
compose up -d --no-build > "$work/up.log" 2>&1 || { cat "$work/up.log"; fail "podman-compose up"; }

# Fetches into $work/body; prints the status code and the instance that answered (X-Upstream).
fetch() { curl -s -o "$work/body" -D "$work/headers" -w '%{http_code}' "$@" | tr -d '\n'; printf ' %s\n' "$(upstream "$work/headers")"; }
upstream() { tr -d '\r' < "$1" | awk 'tolower($1) == "x-upstream:" { print $2 }' | tail -1; }

# Each instance is reached directly too, at its container's address on the compose network (the
# host reaches a rootful podman network), as `localhost`, a name it answers for.
address() { podman inspect --format '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}' "$(container "$1")"; }
direct() { curl -s -o "$work/body" -w '%{http_code}' -H 'Host: localhost' "${@:2}" "http://$(address "$1"):8080$path"; }
for instance in tablepages-a tablepages-b; do
  path=/readyz
  for _ in $(seq 1 300); do [ "$(direct "$instance")" = 200 ] && break; sleep 0.2; done
  [ "$(direct "$instance")" = 200 ] || fail "$instance did not answer /readyz 200 within 60 s"
done
# nginx resolves the instances' names when it starts; one started while an instance was still
# restarting exits, and its restart policy starts it again.
for _ in $(seq 1 300); do read -r status via <<< "$(fetch "$URL/readyz")"; [ "$status" = 200 ] && break; sleep 0.2; done
[ "$status" = 200 ] || fail "the balancer did not answer /readyz 200 within 60 s ($status): $(podman ps -a --filter "name=$(container balancer)" --format '{{.Status}}' 2>&1); $(podman logs --tail 10 "$(container balancer)" 2>&1); $(tail -5 "$work/up.log")"
say "ok: both instances ready at $(address tablepages-a) and $(address tablepages-b); the balancer sends this client to $via"

# A token made on instance A is stored in the shared credentials file: B accepts it too.
token=$(podman exec "$(container tablepages-a)" tablepages token create --name compose-test --write | tail -1)
bearer="Authorization: Bearer $token"
path=/pages/todo/rows/nothing/select
# Each instance, A included (the command ran in a process of its own), finds the new token when it
# next re-reads the credentials file (every 0.5 s).
for instance in tablepages-b tablepages-a; do
  for _ in $(seq 1 100); do [ "$(direct "$instance" -H "$bearer" -X POST)" = 404 ] && break; sleep 0.1; done
  [ "$(direct "$instance" -H "$bearer" -X POST)" = 404 ] || fail "the token made with instance A's command was not accepted by $instance within 10 s"
done
say "ok: a token made on one instance writes through the other"

# Event streams on each instance directly, and one through the balancer.
open_stream() {  # $1: name, $2: URL, then curl options
  curl -sN --max-time 60 -D "$work/$1.headers" "${@:3}" "$2/pages/todo/events?format=json" > "$work/$1.events" &
  for _ in $(seq 1 50); do grep -q '^HTTP/1.1 200' "$work/$1.headers" 2> /dev/null && break; sleep 0.1; done
  grep -qi '^content-type: text/event-stream' "$work/$1.headers" || fail "the event stream $1 did not open"
}
open_stream on-a "http://$(address tablepages-a):8080" -H 'Host: localhost'
open_stream on-b "http://$(address tablepages-b):8080" -H 'Host: localhost'
open_stream balanced "$URL"
say "ok: event streams open on instance A, on instance B, and through the balancer ($(upstream "$work/balanced.headers"))"

read -r status instance <<< "$(fetch -H "$bearer" -H 'Accept: application/json' -X POST "$URL/pages/todo/rows/todo-2/select")"
[ "$status" = 200 ] || fail "toggling todo-2 through the balancer: $status $(head -c 300 "$work/body")"
for stream in on-a on-b balanced; do
  for _ in $(seq 1 50); do grep -q '"row":"todo-2"' "$work/$stream.events" && break; sleep 0.1; done
  grep -q '"row":"todo-2"' "$work/$stream.events" || fail "the stream $stream got no patch for todo-2 within 5 s: $(head -c 400 "$work/$stream.events")"
done
say "ok: a to-do toggled through the balancer ($instance) reached the streams on both instances"

title="changed with psql $$"
podman exec "$(container postgres)" psql -q -U tablepages -d tablepages -c "UPDATE todo SET title = '$title' WHERE id = 3" > /dev/null \
  || fail "psql UPDATE in the database's container"
for stream in on-a on-b balanced; do
  for _ in $(seq 1 50); do grep -qF "$title" "$work/$stream.events" && break; sleep 0.1; done
  grep -qF "$title" "$work/$stream.events" || fail "the stream $stream did not get the psql change within 5 s"
done
say "ok: a row changed with psql reached the streams on both instances"

# A client of A moves to B with the id of A's toggle patch: event ids are the database's versions,
# so B replays what came after (the psql change) instead of sending a reset.
seen=$(awk -v RS= '/"row":"todo-2"/ { for (i = 1; i < NF; i++) if ($i == "id:") { print $(i + 1); exit } }' "$work/on-a.events")
[ -n "$seen" ] || fail "the toggle's patch on instance A carried no id: $(head -c 400 "$work/on-a.events")"
curl -sN --max-time 3 -H 'Host: localhost' -H "Last-Event-ID: $seen" \
  "http://$(address tablepages-b):8080/pages/todo/events?format=json" > "$work/moved.events" || true
grep -q '^event: reset' "$work/moved.events" && fail "instance B answered Last-Event-ID $seen from instance A with a reset"
grep -qF "$title" "$work/moved.events" || fail "instance B did not replay the psql change after id $seen: $(head -c 400 "$work/moved.events")"
# Exactly B's own patches after that id: B named the toggle's state with the same id as A.
published=$(awk -v seen="$seen" '$1 == "id:" { if (after) print $2; if ($2 == seen) after = 1 }' "$work/on-b.events" | tr '\n' ' ')
replayed=$(awk '$1 == "id:" { print $2 }' "$work/moved.events" | tr '\n' ' ')
[ -n "$published" ] && [ "$replayed" = "$published" ] \
  || fail "instance B replayed ids '$replayed' after $seen, but published '$published' after it"
say "ok: a stream moving from instance A to B with Last-Event-ID $seen was replayed the change it missed"

# 1,000 browsers behind the balancer, each named by the X-Forwarded-For nginx passes on (it appends
# this host's address on the compose network, a private one the instances trust, so each browser is
# the address it sent): every stream is admitted (one client would get 256 at most), and when all
# close and reconnect at once, every one is admitted again within 2 s.
python3 - "$(address balancer)" <<'PY' || fail "1,000 browsers' streams through the balancer"
import resource, selectors, socket, sys, time
resource.setrlimit(resource.RLIMIT_NOFILE, (8192, max(8192, resource.getrlimit(resource.RLIMIT_NOFILE)[1])))
host, browsers = sys.argv[1], 1000
def open_streams(indices):
    selector, pending, statuses = selectors.DefaultSelector(), {}, {}
    for i in indices:
        sock = socket.create_connection((host, 8080), timeout=10)
        sock.sendall(f"GET /pages/todo/events HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\nX-Forwarded-For: 198.51.{i // 250}.{i % 250 + 1}\r\n\r\n".encode())
        sock.setblocking(False)
        pending[sock] = (i, b"")
        selector.register(sock, selectors.EVENT_READ)
    deadline = time.monotonic() + 30
    while pending and time.monotonic() < deadline:
        for key, _ in selector.select(timeout=1):
            i, head = pending[key.fileobj]
            data = key.fileobj.recv(4096)
            head += data
            if b"\r\n" in head or not data:
                selector.unregister(key.fileobj)
                del pending[key.fileobj]
                statuses[i] = (key.fileobj, int(head.split()[1]) if head.startswith(b"HTTP/1.1 ") else None)
            else:
                pending[key.fileobj] = (i, head)
    assert not pending, f"{len(pending)} streams got no answer in 30 s"
    return statuses
first = open_streams(range(browsers))
refused = [i for i, (_, status) in first.items() if status != 200]
assert not refused, f"{len(refused)} of {browsers} streams refused: {sorted({first[i][1] for i in refused}, key=str)}"
for sock, _ in first.values(): sock.close()
closed, remaining, admitted = time.monotonic(), list(range(browsers)), []
while remaining and time.monotonic() - closed < 2:
    again = open_streams(remaining)
    remaining = [i for i, (_, status) in again.items() if status != 200]
    admitted += [sock for sock, status in again.values() if status == 200]
    for sock, status in again.values():
        if status != 200: sock.close()
assert not remaining, f"{len(remaining)} of {browsers} still refused 2 s after all closed"
print(f"== ok: {browsers} browsers' streams admitted through the balancer, and again {time.monotonic() - closed:.2f} s after all closed")
for sock in admitted: sock.close()
PY
# Failover: the instance the balancer sends this client to, killed outright; the balancer goes on
# with the other, and writes are kept.
case $via in
  "$(address tablepages-a)":*) victim=tablepages-a ;;
  "$(address tablepages-b)":*) victim=tablepages-b ;;
  *) fail "the balancer's X-Upstream ($via) is neither instance" ;;
esac
podman kill -s KILL "$(container "$victim")" > /dev/null
failed=0
for i in $(seq 1 10); do
  read -r status _ <<< "$(fetch "$URL/pages/todo.json")"
  [ "$status" = 200 ] || failed=$((failed + 1))
done
[ "$failed" = 0 ] || fail "$failed of 10 reads through the balancer failed after $victim was killed"
kept=()
for i in $(seq 1 5); do
  read -r status _ <<< "$(fetch -H "$bearer" -H 'Content-Type: application/json' -X POST \
    -d "{\"title\":\"after failover $$ $i\"}" "$URL/pages/todo/sections/todos/rows")"
  # A POST the balancer sent to the dead instance is not retried (it may have been applied): 502.
  [ "$status" = 201 ] && kept+=("after failover $$ $i")
done
[ "${#kept[@]}" -ge 4 ] || fail "only ${#kept[@]} of 5 writes through the balancer succeeded after $victim was killed"
read -r status _ <<< "$(fetch "$URL/pages/todo.json")"
for title in "${kept[@]}"; do
  grep -qF "$title" "$work/body" || fail "the acknowledged write '$title' is not on the page"
done
say "ok: with $victim killed (SIGKILL), 10 of 10 reads and ${#kept[@]} of 5 writes went through the other, each acknowledged write on the page"

say "compose-test passed in $(( $(date +%s) - started )) s"
