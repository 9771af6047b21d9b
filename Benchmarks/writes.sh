#!/usr/bin/env bash
# The write path's figures (issue 31): checked edits per second through one instance's
# TableWriter, a batch of 1,000 rows in one transaction, and edit -> a viewer's live patch, p50/p99,
# on SQLite (one instance) and PostgreSQL (two instances, the viewer on the other one, by LISTEN).
# The measuring code is in the test targets (WriteBenchmark, PostgresWriteBenchmark), off unless
# BENCH_WRITES=1, so that it reuses the debug build: the figures are a debug build's.
#
#     Benchmarks/writes.sh                       # builds the tests first
#     BENCH_SKIP_BUILD=1 Benchmarks/writes.sh
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${BENCH_SKIP_BUILD:-}" ]; then swift build --build-tests >/dev/null; fi
BENCH_WRITES=1 swift test --skip-build --filter 'WriteBenchmark' 2>&1 | grep -E '^bench:|✘' || true
