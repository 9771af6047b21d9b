#!/usr/bin/env bash
# The first HTML page of a 1,000,000-row table whose columns are foreign keys, labels on: an
# `orders` table (customer_id → 100,000 customers, product_id → 1,000 products) served by
# `tablepages serve --database`. Each round starts a fresh server and times its first answer for
# `/pages/orders` (the live table reads the 1,000-row window, its count and, in one more query, the
# labels of both columns), then the same page again (held), and a customer's row page (which counts
# the orders that refer to it). Goal from issue 22: the first page under 500 ms and 3 MB.
#
# Overridable: ROWS, ROUNDS, TABLEPAGES_BIN (default .build/debug/tablepages, built if missing).
set -euo pipefail
export LC_ALL=C

ROWS=${ROWS:-1000000}
ROUNDS=${ROUNDS:-5}
cd "$(dirname "$0")/.."
source Benchmarks/common.sh
BIN=${TABLEPAGES_BIN:-.build/debug/tablepages}
[[ -x $BIN ]] || swift build --product tablepages

db=$tmp/fk.sqlite
sqlite3 "$db" >/dev/null <<SQL
PRAGMA journal_mode = WAL;
CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT);
CREATE TABLE products (id INTEGER PRIMARY KEY, title TEXT NOT NULL);
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(id),
                     product_id INTEGER REFERENCES products(id), status TEXT, total REAL);
WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 100000)
INSERT INTO customers SELECT x, 'Customer ' || x, 'City ' || (x % 500) FROM n;
WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 1000)
INSERT INTO products SELECT x, 'Product ' || x FROM n;
WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < $ROWS)
INSERT INTO orders SELECT x, 1 + (x * 7919) % 100000, 1 + x % 1000,
    CASE x % 3 WHEN 0 THEN 'paid' WHEN 1 THEN 'shipped' ELSE 'pending' END, (x * 31) % 50000 / 100.0 FROM n;
CREATE INDEX orders_customer ON orders (customer_id);
SQL

first=() held=() row=() size=0
for round in $(seq "$ROUNDS"); do
    port=$(free_port)
    "$BIN" serve --database "$db" --port "$port" >"$tmp/tablepages.log" 2>&1 &
    pid=$!
    pids+=("$pid")
    wait_ready tablepages "$pid" "http://127.0.0.1:$port/healthz"
    read -r t s < <(curl -fs -o "$tmp/page.html" -w '%{time_total} %{size_download}\n' "http://127.0.0.1:$port/pages/orders")
    grep -q 'class="tk-fk-value"' "$tmp/page.html" || { echo "$bench: the page shows no labels" >&2; exit 1; }
    first+=("$t") size=$s
    held+=("$(curl -fs -o /dev/null -w '%{time_total}' "http://127.0.0.1:$port/pages/orders")")
    row+=("$(curl -fs -o /dev/null -w '%{time_total}' "http://127.0.0.1:$port/pages/customers/rows/4242")")
    stop_pids "$pid"
done
ms() { awk -v s="$1" 'BEGIN { printf "%.0f ms", s * 1000 }'; }
echo "$ROWS orders, $ROUNDS fresh servers ($BIN):"
echo "  first HTML page (window of 1,000 rows read, labels of 2 columns): median $(ms "$(median "${first[@]}")"), worst $(ms "$(printf '%s\n' "${first[@]}" | sort -g | tail -1)"), $size bytes"
echo "  the same page again (held):                                         median $(ms "$(median "${held[@]}")")"
echo "  a customer's row page (counts its orders):                          median $(ms "$(median "${row[@]}")")"
