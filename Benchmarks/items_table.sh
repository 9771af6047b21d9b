# Sourced by database.sh and datasette.sh: make_items_table FILE ROWS writes the benchmarks' table
# `items` into a new SQLite file (WAL mode) and prints how long it took: an integer key; `name`
# ('item N'); `price`, a REAL from 0.0 to 99.9 with an index (for sorting and ranges); `category`,
# a text of 7 values (for filters and facets); `note`, a text that is NULL in every tenth row.
make_items_table() {  # file rows
    local started
    started=$(date +%s.%N)
    sqlite3 "$1" >/dev/null <<SQL
PRAGMA journal_mode = WAL;
CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, price REAL, category TEXT, note TEXT);
WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < $2)
INSERT INTO items SELECT x, 'item ' || x, (x % 1000) / 10.0, 'category ' || (x % 7),
    CASE WHEN x % 10 = 0 THEN NULL ELSE 'a note about item ' || x END FROM n;
CREATE INDEX items_price ON items (price);
SQL
    printf 'generated %d rows in %.1f s (%s)\n' "$2" "$(echo "$(date +%s.%N) - $started" | bc)" "$(du -h "$1" | cut -f1)"
}
