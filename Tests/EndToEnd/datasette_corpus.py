"""A demanding SQLite file for comparing TablePages with Datasette, in the spirit of Datasette's
own test fixtures but generated here: table names with slashes, dots, `%`, `#`, `?`, spaces and
unicode, names that end like a format (`x.csv`, `x.json`, next to a table `x`), compound primary
keys, rowid tables, tables without a primary key and WITHOUT ROWID, blobs (empty ones too), NULL
beside empty text, infinities and the largest integers, unicode text, enough rows to page, and
foreign keys to tables with and without a label column, to rows that exist and rows that do not.

    python3 Tests/EndToEnd/datasette_corpus.py corpus.db
"""
import random
import sqlite3
import sys

# Table names a URL scheme has to get right; each gets a table of the same shape.
ODD_NAMES = [
    "table/with/slashes.csv",
    "x", "x.csv", "x.json", "x.ndjson",
    "odd %?# name ü",
    "dots.and~tildes",
    "plus+sign & ampersand",
    "日本語のテーブル",
    "-starts-with-dash",
    "sections",
    "rows",
]

UNICODE_TEXTS = ["", "plain", "ünïcode ÄRGER", "日本語", "emoji 🎉", "a,b", "quote \" and ' too", "line\nbreak",
                 "tab\there", "back\\slash", "percent % and _", "  spaces  ", "~tilde", "a/b", "1", "01", "-5", "2.5"]


def quote(name):
    return '"' + name.replace('"', '""') + '"'


def build(path, seed=22):
    rng = random.Random(seed)
    db = sqlite3.connect(path)
    for name in ODD_NAMES:
        db.execute(f"CREATE TABLE {quote(name)} (pk INTEGER PRIMARY KEY, content TEXT)")
        db.executemany(f"INSERT INTO {quote(name)} (pk, content) VALUES (?, ?)",
                       [(i, f"{name} row {i}") for i in range(1, 4)])

    # Compound keys whose values hold every character a `next` token or a row URL must escape.
    db.execute("CREATE TABLE compound_pk (a TEXT, b TEXT, content TEXT, PRIMARY KEY (a, b))")
    keys = ["a", "b", "a,b", "a/b", "a.b", "a~b", "a b", "a+b", "a%b", "ü", "#", "?", "1", "10", "2", "report.json", "x.csv"]
    db.executemany("INSERT INTO compound_pk VALUES (?, ?, ?)",
                   [(a, b, f"{a}|{b}") for a in keys for b in keys[:4]])
    db.execute("CREATE TABLE compound_three (x INTEGER, y TEXT, z REAL, v, PRIMARY KEY (x, y, z))")
    db.executemany("INSERT INTO compound_three VALUES (?, ?, ?, ?)",
                   [(i % 4, str(i % 3), (i % 2) + 0.5, i) for i in range(12)])
    db.execute("CREATE TABLE without_rowid (code TEXT PRIMARY KEY, n INTEGER) WITHOUT ROWID")
    db.executemany("INSERT INTO without_rowid VALUES (?, ?)", [(f"c{i:03}", i) for i in range(30)])
    db.execute("CREATE TABLE text_pk (code TEXT PRIMARY KEY, label TEXT)")
    db.executemany("INSERT INTO text_pk VALUES (?, ?)", [(t or "empty-key", t) for t in UNICODE_TEXTS])

    # No primary key: Datasette pages it by rowid. Every kind of value, including the ones JSON
    # and CSV have to keep apart.
    db.execute("CREATE TABLE no_pk (t TEXT, b BLOB, r REAL, i INTEGER, untyped)")
    values = [
        (None, None, None, None, None),
        ("", b"", 0.0, 0, ""),
        ("text", b"text as blob", 1.5, 1, 1),
        ("ünïcode", "ünïcode".encode(), float("inf"), 2 ** 63 - 1, 2.5),
        ("日本語", b"\x00\x01\xff", float("-inf"), -(2 ** 63), "text"),
        ("emoji 🎉", b"\xff\xfe", 1e308, 2 ** 53 + 1, b""),
        ("a,b", b"\xc3\x28", 1e-7, -1, b"\x00"),
        ("line\nbreak", b"ok", 0.1, 42, None),
        ("quote \"", b"", 123456789.125, 7, "07"),
    ]
    db.executemany("INSERT INTO no_pk VALUES (?, ?, ?, ?, ?)", values)
    db.execute("CREATE TABLE one_column (v)")
    db.executemany("INSERT INTO one_column VALUES (?)", [(None,), ("",), (b"",), ("x",), (0,)])

    # Enough rows to page through, with NULLs and ties in typed columns to sort by.
    db.execute("CREATE TABLE sortable (id INTEGER PRIMARY KEY, content TEXT, n INTEGER, r REAL, t TEXT, flag INTEGER)")
    words = ["hello", "world", "apple", "banana", "cherry", None, ""]
    rows = []
    for i in range(1, 251):
        rows.append((i, rng.choice(words), rng.choice([None, rng.randint(-5, 5)]),
                     rng.choice([None, round(rng.uniform(-10, 10), 2), 0.5]),
                     rng.choice(UNICODE_TEXTS + [None]), i % 2))
    db.executemany("INSERT INTO sortable VALUES (?, ?, ?, ?, ?, ?)", rows)
    db.execute("CREATE TABLE rowid_big (content TEXT)")
    db.executemany("INSERT INTO rowid_big (rowid, content) VALUES (?, ?)",
                   [(r, f"r{r}") for r in [1, 2, 1000, 2 ** 40, 2 ** 62, 2 ** 63 - 1]])
    # Foreign keys, which `_labels=on` expands: a labelled table (one label NULL), a table without
    # a label column (Datasette labels each value with its own text), a table whose label is found
    # from the id + one column rule, a text key, and references to rows that do not exist.
    db.execute("CREATE TABLE customer (id INTEGER PRIMARY KEY, name TEXT, city TEXT)")
    db.executemany("INSERT INTO customer VALUES (?, ?, ?)",
                   [(i, None if i == 3 else f"Customer {i} ü", f"City {i % 4}") for i in range(1, 9)])
    db.execute("CREATE TABLE tally (id INTEGER PRIMARY KEY, n INTEGER, m INTEGER)")
    db.executemany("INSERT INTO tally VALUES (?, ?, ?)", [(i, i * 10, i * 100) for i in range(1, 5)])
    db.execute("CREATE TABLE colour (id INTEGER PRIMARY KEY, colour_name TEXT)")
    db.executemany("INSERT INTO colour VALUES (?, ?)", [(1, "red"), (2, "green"), (3, "blue & <b>bold</b>")])
    db.execute("CREATE TABLE currency (code TEXT PRIMARY KEY, title TEXT)")
    db.executemany("INSERT INTO currency VALUES (?, ?)", [("EUR", "Euro"), ("JPY", "円"), ("a/b.c", "odd code")])
    db.execute("""CREATE TABLE purchase (id INTEGER PRIMARY KEY,
                  customer_id INTEGER REFERENCES customer(id), tally_id INTEGER REFERENCES tally(id),
                  colour_id INTEGER REFERENCES colour(id), currency TEXT REFERENCES currency(code), note TEXT)""")
    db.executemany("INSERT INTO purchase VALUES (?, ?, ?, ?, ?, ?)",
                   [(i, None if i % 7 == 0 else (i % 10) + 1, (i % 5) + 1, (i % 4) or None,
                     ["EUR", "JPY", "a/b.c", "XXX"][i % 4], f"purchase {i}") for i in range(1, 31)])
    db.commit()
    db.close()


if __name__ == "__main__":
    build(sys.argv[1])
