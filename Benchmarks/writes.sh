#!/usr/bin/env bash
# The write path's figures (issue 31): checked edits per second through one instance's
# TableWriter, a batch of 1,000 rows in one transaction, and edit -> a viewer's live patch, p50/p99,
# on SQLite (one instance) and PostgreSQL (two instances, the viewer on the other one, by LISTEN).
# The measuring code is in the test targets (WriteBenchmark, PostgresWriteBenchmark), off unless
# BENCH_WRITES=1, so that it reuses the debug build: the figures are a debug build's.
# Then Benchmarks/writes_http.py measures the same over HTTP against the `tablepages` binary (the
# browser's routes, live event streams, Chromium for a viewer's page; see its docstring):
# BENCH_HTTP=0 skips it, BENCH_HTTP=only runs it alone; ROUNDS, VIEWERS, EDITS, SERVER_BIN pass on.
#
#     Benchmarks/writes.sh                       # builds the tests first
#     BENCH_SKIP_BUILD=1 Benchmarks/writes.sh
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${BENCH_SKIP_BUILD:-}" ]; then swift build --build-tests >/dev/null; fi
if [ "${BENCH_HTTP:-1}" != only ]; then
    BENCH_WRITES=1 swift test --skip-build --filter 'WriteBenchmark' 2>&1 | grep -E '^bench:|✘' || true
fi
if [ "${BENCH_HTTP:-1}" != 0 ]; then python3 Benchmarks/writes_http.py; fi
