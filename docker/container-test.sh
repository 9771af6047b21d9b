#!/usr/bin/env bash
# `make container-test`: builds docker/Dockerfile with podman and checks the image as an operator
# would use it: /healthz, a page with its assets, a live patch over SSE through the published port,
# a write that outlives its container on a named volume, a clean and quick SIGTERM stop, a non-root
# process and a passing HEALTHCHECK.
#
# Official images cannot be pulled here, so the Dockerfile's two base images are made on this
# machine (once; they are cached by name and rebuilt only when missing):
#   localhost/debian:bookworm-slim          debootstrap --variant=minbase, imported into podman
#   localhost/swift-builder:<swift>-bookworm docker/swift-builder.Dockerfile, the toolchain mounted
# Needs root (or sudo) on Debian bookworm: it installs podman, runc and debootstrap when missing.
# Containers, volumes and the project image it makes are removed on exit, even on failure;
# KEEP_IMAGE=1 keeps the image.
set -euo pipefail
cd "$(dirname "$0")/.."

# The toolchain and the package mirror are found as the calling user, before any sudo.
if [ -z "${TOOLCHAIN:-}" ]; then
  command -v swift > /dev/null || { echo "container-test: swift is not on PATH (or set TOOLCHAIN)" >&2; exit 1; }
  swift_driver=$(readlink -f "$(command -v swift)")
  TOOLCHAIN=$(dirname "$(dirname "$(dirname "$swift_driver")")")
fi
SWIFT_VERSION=${SWIFT_VERSION:-$("$TOOLCHAIN/usr/bin/swift" --version 2>/dev/null | sed -n 's/.*Swift version \([0-9][0-9.]*\).*/\1/p' | head -1)}
# The directory that `git config --system url.DIR.insteadOf https://github.com/` names, if any.
GIT_MIRROR=${GIT_MIRROR-$(git config --system --get-regexp '^url\..*\.insteadof$' 2>/dev/null \
  | awk '$2 == "https://github.com/" { sub(/^url\./, "", $1); sub(/\.insteadof$/, "", $1); print $1; exit }')}
if [ "$(id -u)" -ne 0 ]; then
  exec sudo TOOLCHAIN="$TOOLCHAIN" SWIFT_VERSION="$SWIFT_VERSION" GIT_MIRROR="$GIT_MIRROR" \
    KEEP_IMAGE="${KEEP_IMAGE:-}" "$0" "$@"
fi

BASE_IMAGE=localhost/debian:bookworm-slim
BUILDER_IMAGE=localhost/swift-builder:${SWIFT_VERSION}-bookworm
IMAGE=localhost/tablepages:container-test
RUN_ID=tablepages-test-$$
VOLUME=$RUN_ID-data
CONTAINER=$RUN_ID
started=$(date +%s)

say() { printf '== %s\n' "$*"; }
fail() { printf 'container-test: FAIL: %s\n' "$*" >&2; exit 1; }
seconds_since() { echo $(( $(date +%s) - $1 )); }

# --- the tools -------------------------------------------------------------------------------
# netavark (with iptables) and aardvark-dns: podman's network backend with name resolution between
# containers, which docker/compose-test.sh needs; installed here too so both run on the same backend.
.ci/install-packages podman runc debootstrap curl python3 netavark aardvark-dns iptables
if [ ! -e /etc/containers/containers.conf ]; then
  # crun (podman's default) fails on this kind of machine ("cgroups in hybrid mode"), and podman's
  # default ulimits exceed what an unprivileged container may set.
  say "writing /etc/containers/containers.conf (runc, ulimits within the machine's limits)"
  mkdir -p /etc/containers
  cat > /etc/containers/containers.conf <<'EOF'
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=1000:1000"]
[engine]
runtime = "runc"
EOF
fi

# --- base images, made once per machine -----------------------------------------------------
if ! podman image exists "$BASE_IMAGE"; then
  say "making $BASE_IMAGE with debootstrap"
  t=$(date +%s)
  rootfs=$(mktemp -d /var/tmp/tablepages-rootfs.XXXXXX)
  trap 'rm -rf "$rootfs"' EXIT
  debootstrap --variant=minbase bookworm "$rootfs" http://deb.debian.org/debian > /var/tmp/tablepages-debootstrap.log 2>&1 \
    || { tail -20 /var/tmp/tablepages-debootstrap.log; fail "debootstrap"; }
  # Like the official slim image: security updates reachable, no documentation installed later.
  cat > "$rootfs/etc/apt/sources.list" <<'EOF'
deb http://deb.debian.org/debian bookworm main
deb http://deb.debian.org/debian bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main
EOF
  cat > "$rootfs/etc/dpkg/dpkg.cfg.d/slim" <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-exclude /usr/share/lintian/*
EOF
  find "$rootfs/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete
  rm -rf "$rootfs"/usr/share/{man,info,locale,lintian}/* "$rootfs"/var/lib/apt/lists/* \
    "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/log/*.log
  tar -C "$rootfs" -c . | podman import -q --change 'CMD ["bash"]' - "$BASE_IMAGE" > /dev/null
  rm -rf "$rootfs"
  trap - EXIT
  say "$BASE_IMAGE made in $(seconds_since "$t") s"
fi
if ! podman image exists "$BUILDER_IMAGE"; then
  say "making $BUILDER_IMAGE (toolchain $TOOLCHAIN, package mirror ${GIT_MIRROR:-none})"
  t=$(date +%s)
  podman build -q --network host --build-arg BASE_IMAGE="$BASE_IMAGE" \
    --build-arg TOOLCHAIN="$TOOLCHAIN" --build-arg GIT_MIRROR="$GIT_MIRROR" \
    -f docker/swift-builder.Dockerfile -t "$BUILDER_IMAGE" docker > /var/tmp/tablepages-builder.log 2>&1 \
    || { tail -20 /var/tmp/tablepages-builder.log; fail "building $BUILDER_IMAGE"; }
  say "$BUILDER_IMAGE made in $(seconds_since "$t") s"
fi

# --- the project's image ----------------------------------------------------------------------
say "building docker/Dockerfile as $IMAGE"
t=$(date +%s)
mounts=(-v "$TOOLCHAIN:$TOOLCHAIN:ro")
[ -n "$GIT_MIRROR" ] && mounts+=(-v "${GIT_MIRROR%/}:${GIT_MIRROR%/}:ro")
# --format docker keeps the HEALTHCHECK (OCI images have none); --network host lets apt-get
# inside the build reach the machine's package mirror.
build_log=/var/tmp/tablepages-container-build.log
build() {
  podman build --format docker --network host "${mounts[@]}" \
    --build-arg SWIFT_IMAGE="$BUILDER_IMAGE" --build-arg RUNTIME_IMAGE="$BASE_IMAGE" \
    -f docker/Dockerfile "$@" . >> "$build_log" 2>&1 \
    || { tail -40 "$build_log"; fail "podman build (log: $build_log)"; }
}
: > "$build_log"
# The build stage is tagged too, so that pruning the previous runs' untagged layers keeps this
# run's: an unchanged checkout then rebuilds in seconds, and the disk holds one run's layers.
build --target build -t "$IMAGE-build"
build -t "$IMAGE"
build_seconds=$(seconds_since "$t")
podman image prune -f > /dev/null
grep -E '^runtime packages:' "$build_log" | tail -1 || true
image_bytes=$(podman image inspect --format '{{.Size}}' "$IMAGE")
base_bytes=$(podman image inspect --format '{{.Size}}' "$BASE_IMAGE")
say "built in $build_seconds s: $image_bytes bytes ($(( (image_bytes - base_bytes) / 1000000 )) MB over the base image's $(( base_bytes / 1000000 )) MB)"

# --- running it -------------------------------------------------------------------------------
cleanup() {
  podman rm -f -t 0 "$CONTAINER" > /dev/null 2>&1 || true
  podman volume rm -f "$VOLUME" > /dev/null 2>&1 || true
  [ -n "${work:-}" ] && rm -rf "$work"
}
trap cleanup EXIT
work=$(mktemp -d)
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
URL=http://127.0.0.1:$PORT

start_container() {
  # The healthcheck's timer needs systemd, which this kind of machine does not run; the check
  # itself is run by hand below, so podman's complaint about the timer is hidden.
  podman run -d --name "$CONTAINER" -p "127.0.0.1:$PORT:8080" -v "$VOLUME:/data" "$IMAGE" > /dev/null 2> "$work/run.err" \
    || { cat "$work/run.err"; fail "podman run"; }
  for _ in $(seq 1 150); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' "$URL/healthz")" = 200 ] && return 0
    sleep 0.2
  done
  podman logs "$CONTAINER" | tail -20
  fail "/healthz did not answer 200 within 30 s of start"
}

# Fetches URL into $work/body; prints the status code and content type.
fetch() { curl -s -o "$work/body" -w '%{http_code} %{content_type}' "$@"; }

say "running it on $URL with volume $VOLUME"
start_container
say "ok: /healthz answers 200"

pid=$(podman inspect --format '{{.State.Pid}}' "$CONTAINER")
uid=$(awk '/^Uid:/ { print $2 }' "/proc/$pid/status")
[ "$uid" = 10001 ] || fail "the server runs as uid $uid, not 10001"
say "ok: the server process runs as uid 10001"

read -r status type <<< "$(fetch "$URL/pages/checklist")"
[ "$status" = 200 ] && [[ "$type" == text/html* ]] || fail "GET /pages/checklist: $status $type"
for asset in table-pages.css table-pages.js; do
  grep -q "/public/$asset" "$work/body" || fail "the page does not link /public/$asset"
done
for asset in table-pages.css:text/css table-pages.js:javascript; do
  name=${asset%%:*}
  read -r status type <<< "$(fetch "$URL/public/$name")"
  [ "$status" = 200 ] && [[ "$type" == *"${asset#*:}"* ]] || fail "GET /public/$name: $status $type"
  cmp -s "$work/body" "Public/$name" || fail "/public/$name differs from Public/$name"
done
say "ok: /pages/checklist links its CSS and JS, and both are served with the right types and bytes"

# On 0.0.0.0 the container answers for the loopback names (the published port above) and no others.
read -r status _ <<< "$(fetch -H 'Host: evil.example' "$URL/pages/checklist")"
[ "$status" = 421 ] || fail "GET /pages/checklist with Host: evil.example: $status, not 421"
say "ok: a request for another host name gets 421"

# Anonymous clients may read but not write; the sign-in link the server logged gives a session.
read -r status _ <<< "$(fetch -X POST "$URL/pages/checklist/rows/item-2/select")"
[ "$status" = 401 ] || fail "an anonymous POST select got $status, not 401"
link=$(podman logs "$CONTAINER" 2>&1 | grep -o 'http://[^ ]*/-/signin?token=[A-Za-z0-9._-]*' | tail -1)
[ -n "$link" ] || fail "the server logged no sign-in link: $(podman logs "$CONTAINER" 2>&1 | tail -5)"
read -r status _ <<< "$(fetch -c "$work/cookies" "$URL/-/signin?${link#*\?}")"
[ "$status" = 303 ] && grep -q tablepages_session "$work/cookies" || fail "the logged sign-in link did not sign in: $status"
# A link signs in once.
read -r status _ <<< "$(fetch "$URL/-/signin?${link#*\?}")"
[ "$status" = 403 ] || fail "the logged sign-in link signed in a second time: $status"
# Scripts write with an access token, made inside the container next to the server's credentials.
token=$(podman exec "$CONTAINER" tablepages token create --name container-test --write | tail -1)
bearer="Authorization: Bearer $token"
for _ in $(seq 1 30); do
  read -r status _ <<< "$(fetch -H "$bearer" -X POST "$URL/pages/checklist/rows/nothing/select")"
  [ "$status" = 404 ] && break; sleep 0.1
done
[ "$status" = 404 ] || fail "the token from tablepages token create was not accepted: $status"
say "ok: an anonymous write gets 401; the sign-in link in the container's log signs in, once; a token made with podman exec writes"

curl -sN --max-time 20 -D "$work/sse.headers" "$URL/pages/checklist/events?format=json" > "$work/sse" &
sse_pid=$!
for _ in $(seq 1 50); do grep -q '^HTTP/1.1 200' "$work/sse.headers" 2> /dev/null && break; sleep 0.1; done
grep -qi '^content-type: text/event-stream' "$work/sse.headers" || fail "the event stream did not open: $(cat "$work/sse.headers")"
read -r status _ <<< "$(fetch -H "$bearer" -X POST "$URL/pages/checklist/rows/item-2/select")"
[ "$status" = 200 ] || fail "POST select: $status $(cat "$work/body")"
for _ in $(seq 1 50); do grep -q '"row":"item-2"' "$work/sse" && break; sleep 0.1; done
grep -q '^event: patch' "$work/sse" && grep -q '"row":"item-2"' "$work/sse" \
  || fail "no patch for item-2 within 5 s; the stream held: $(head -c 600 "$work/sse")"
kill "$sse_pid" 2> /dev/null || true
wait "$sse_pid" 2> /dev/null || true
say "ok: a select was published as a patch over SSE through the published port"

title="kept across containers $$-$RANDOM"
read -r status _ <<< "$(fetch -H "$bearer" -X POST -H 'Content-Type: application/json' -d "{\"title\":\"$title\"}" "$URL/pages/todo/sections/todos/rows")"
[ "$status" = 201 ] || fail "inserting a to-do: $status $(cat "$work/body")"

podman healthcheck run "$CONTAINER" > "$work/health" 2>&1 || fail "the HEALTHCHECK failed: $(cat "$work/health")"
say "ok: the image's HEALTHCHECK passes ($(podman image inspect --format '{{json .Config.Healthcheck.Test}}' "$IMAGE"))"

t0=$(date +%s%N)
podman stop -t 10 "$CONTAINER" > /dev/null 2> "$work/stop.err" || { cat "$work/stop.err"; fail "podman stop"; }
stop_ms=$(( ($(date +%s%N) - t0) / 1000000 ))
exit_code=$(podman inspect --format '{{.State.ExitCode}}' "$CONTAINER")
[ "$exit_code" = 0 ] || fail "after SIGTERM the server exited with $exit_code (137 means it was killed after 10 s)"
[ "$stop_ms" -lt 10000 ] || fail "podman stop took $stop_ms ms"
say "ok: podman stop (SIGTERM) exits 0 in $stop_ms ms"

podman rm -f "$CONTAINER" > /dev/null 2>&1
start_container
read -r status _ <<< "$(fetch "$URL/pages/todo.json")"
[ "$status" = 200 ] && grep -qF "$title" "$work/body" || fail "the to-do written before the container was re-created is gone ($status)"
say "ok: a to-do written before removing the container is there in a new one on the same volume"

say "container-test passed in $(seconds_since "$started") s: image $image_bytes bytes, built in $build_seconds s, stopped in $stop_ms ms"
