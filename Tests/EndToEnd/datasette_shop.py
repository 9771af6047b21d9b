"""A small shop file with indexed columns, for comparing facets with Datasette: `products` (a
`name` Datasette and TablePages take for the label), `orders` with an indexed `status` of 5 values,
an indexed `product_id` (300 products, so too many values for a facet) referencing `products`,
`ordered_at` datetimes over a few days, `tags` a JSON array of strings, and `notes` a JSON array
of numbers (not suggested as an array facet). Indexes make SQLite read a column in value order,
which is what once made the suggestions wrong.

    python3 Tests/EndToEnd/datasette_shop.py shop.db
"""
import json
import random
import sqlite3
import sys

STATUSES = ["pending", "paid", "shipped", "delivered", "cancelled"]
TAGS = ["gift", "express", "fragile", "bulk", "returned"]
ADJECTIVES = ["Giant", "Tiny", "Red", "Quiet", "Bright", "Old"]
NOUNS = ["Lamp", "Chair", "Kettle", "Clock", "Rug"]


def build(path, orders=2000, seed=32):
    rng = random.Random(seed)
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE products (id INTEGER PRIMARY KEY, name TEXT NOT NULL, category TEXT)")
    db.executemany("INSERT INTO products VALUES (?, ?, ?)",
                   [(i, f"{ADJECTIVES[i % len(ADJECTIVES)]} {NOUNS[i % len(NOUNS)]} #{i}", NOUNS[i % len(NOUNS)].lower())
                    for i in range(1, 301)])
    db.execute("""CREATE TABLE orders (id INTEGER PRIMARY KEY, status TEXT NOT NULL,
                  product_id INTEGER REFERENCES products(id), quantity INTEGER, ordered_at TEXT, tags TEXT, notes TEXT)""")
    rows = []
    for i in range(1, orders + 1):
        day = rng.randrange(1, 6)
        rows.append((i, rng.choice(STATUSES), rng.randrange(1, 301) if i % 50 else None, rng.randrange(1, 4),
                     f"2026-03-{day:02} {rng.randrange(24):02}:{rng.randrange(60):02}:00",
                     json.dumps(rng.sample(TAGS, rng.randrange(0, 3))), json.dumps([rng.randrange(9)])))
    db.executemany("INSERT INTO orders VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
    db.execute("CREATE INDEX orders_status ON orders (status)")
    db.execute("CREATE INDEX orders_product ON orders (product_id)")
    db.commit()
    db.close()


if __name__ == "__main__":
    build(sys.argv[1])
