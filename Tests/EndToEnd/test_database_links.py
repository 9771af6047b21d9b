"""Foreign keys and views of a user's database, on SQLite and on PostgreSQL: a foreign-key value
shows the referenced row's label linked to its row (HTML) and expands with `_labels=on` as
Datasette does (JSON); a row page counts the rows of other tables that refer to it; labels are
live (a rename by the `sqlite3` shell, or by `psql` with `--watch`, reaches an open orders page);
views are listed, paged by position, read-only and live."""
import html
import json
import sqlite3
import time
import urllib.error
import urllib.request

import pytest

from conftest import psql, start_datasette, start_server, stop_server
from test_database_live import Events, shell
from test_database_query import all_ids, get

ORDERS = 260
CUSTOMERS = [(1, "Ida Meyer"), (2, 'Bo <b>&</b> "Co"'), (3, None), (4, "Ünal Çelik")]

SCHEMA = """
    CREATE TABLE customers (id integer PRIMARY KEY, name text, city text);
    CREATE TABLE orders (id integer PRIMARY KEY, customer_id integer REFERENCES customers(id), amount integer, note text);
    CREATE VIEW big_orders AS SELECT id, customer_id, amount FROM orders WHERE amount >= 50;
"""


def order_rows():
    # Every 10th order has no customer.
    return [(x, None if x % 10 == 0 else 1 + x % 4, x % 100, f"order {x}") for x in range(1, ORDERS + 1)]


def sql_literal(value):
    if value is None:
        return "NULL"
    if isinstance(value, int):
        return str(value)
    return "'" + value.replace("'", "''") + "'"


def inserts():
    customers = ", ".join(f"({i}, {sql_literal(name)}, 'City {i}')" for i, name in CUSTOMERS)
    orders = ", ".join("(" + ", ".join(sql_literal(v) for v in row) + ")" for row in order_rows())
    return f"INSERT INTO customers VALUES {customers}; INSERT INTO orders VALUES {orders};"


@pytest.fixture()
def sqlite_site(tmp_path):
    path = tmp_path / "shop.sqlite"
    connection = sqlite3.connect(path)
    connection.execute("PRAGMA journal_mode = WAL")
    connection.executescript(SCHEMA + inserts())
    connection.commit()
    connection.close()
    process, base = start_server(tmp_path, "--database", str(path))
    yield base, lambda sql: shell(path, sql)
    stop_server(process)


@pytest.fixture()
def postgres_site(postgres_database, tmp_path):
    psql(postgres_database, SCHEMA + inserts())
    process, base = start_server(tmp_path, "--database", postgres_database, "--watch")
    yield base, lambda sql: psql(postgres_database, sql)
    stop_server(process)


@pytest.fixture(params=["sqlite", "postgres"])
def site(request):
    return request.getfixturevalue(request.param + "_site")


def text(base, path):
    with urllib.request.urlopen(base + path, timeout=10) as response:
        return response.read().decode()


def customer_of(order):
    return None if order % 10 == 0 else 1 + order % 4


def test_orders_show_customer_names_linked_to_their_rows_in_html(site):
    base, _ = site
    page = text(base, "/pages/orders")
    for order in (1, 2, 3):
        customer = customer_of(order)
        name = dict(CUSTOMERS)[customer]
        if name is None:
            expected = f'<a class="tk-field-value tk-fk" href="/pages/customers/rows/{customer}" title="Show this row of customers">{customer}</a>'
        else:
            expected = (f'<a href="/pages/customers/rows/{customer}" title="Show this row of customers"><bdi>{html.escape(name)}</bdi></a> '
                        f'<bdi class="tk-fk-value">{customer}</bdi>')
        assert expected in page, expected
    assert "&lt;b&gt;&amp;&lt;/b&gt;" in page, "labels are escaped"


def test_json_keeps_values_and_labels_on_expands_them_as_datasette_does(site):
    base, _ = site
    status, plain = get(base, "/pages/orders.json?_size=20")
    assert status == 200
    rows = plain["sections"][0]["rows"]
    assert [row["fields"]["customer_id"] for row in rows] == [customer_of(x) for x in range(1, 21)]
    status, labelled = get(base, "/pages/orders.json?_size=20&_labels=on")
    assert status == 200
    names = dict(CUSTOMERS)
    for x, row in zip(range(1, 21), labelled["sections"][0]["rows"]):
        customer = customer_of(x)
        # A found row whose label is NULL expands with "label": null, as Datasette does.
        expected = {"value": customer, "label": names[customer]} if customer else customer
        assert row["fields"]["customer_id"] == expected, x
        assert row["fields"]["amount"] == x % 100
    status, error = get(base, "/pages/orders.json?_labels=perhaps")
    assert status == 400 and "_labels must be on or off" in str(error)


def test_a_customers_row_page_counts_its_orders_and_links_to_them(site):
    base, _ = site
    expected = sum(1 for x in range(1, ORDERS + 1) if customer_of(x) == 1)
    page = text(base, "/pages/customers/rows/1")
    assert "Links from other tables" in page
    assert f'<a class="tk-db-link" href="/pages/orders?customer_id__exact=1">{expected} rows from <bdi>customer_id</bdi> in <bdi>orders</bdi></a>' in page
    status, row = get(base, "/pages/customers/rows/1.json")
    assert status == 200
    [link] = row["linksFromOtherTables"]
    assert (link["table"], link["column"], link["count"]) == ("orders", "customer_id", expected)
    ids = all_ids(base, link["href"] + "&_size=50")
    assert ids == [str(x) for x in range(1, ORDERS + 1) if customer_of(x) == 1]


def test_renaming_a_customer_updates_an_open_orders_page_within_a_second(site):
    base, write = site
    # The HTML patches, as an open page gets them (JSON carries labels only with _labels=on).
    events = Events(base + "/pages/orders/events")
    try:
        start = time.monotonic()
        write("UPDATE customers SET name = 'Ida Renamed' WHERE id = 1")
        while True:
            event = events.next(timeout=max(0.01, start + 3 - time.monotonic()))
            replaced = [op for op in event["patch"]["ops"] if op["op"] == "replace" and "Ida Renamed" in str(op)]
            if replaced:
                break
        delay = event["at"] - start
        window = [x for x in range(1, ORDERS + 1) if customer_of(x) == 1]
        assert sorted(int(op["row"]) for op in replaced) == window, "every order of that customer, and only those"
        print(f"\nrename -> patch of {len(replaced)} order rows: {delay * 1000:.0f} ms (includes starting the writer)")
        assert delay < 1.0
    finally:
        events.close()


def test_a_view_is_listed_paged_by_position_read_only_and_live(site):
    base, write = site
    assert "/pages/big_orders" in text(base, "/")
    expected = sorted(x for x in range(1, ORDERS + 1) if x % 100 >= 50)
    status, first = get(base, "/pages/big_orders.json?_sort=id&_size=17")
    assert status == 200
    ids = all_ids(base, "/pages/big_orders.json?_sort=id&_size=17")
    assert ids == [str(n) for n in range(len(expected))], "a view's row id is its position"
    values = []
    section = first["sections"][0]
    while True:
        values += [row["fields"]["id"] for row in section["rows"]]
        if not section.get("next"):
            break
        status, section = get(base, section["next"])
    assert values == expected
    status, _ = get(base, "/pages/big_orders.json?group=amount")
    assert status == 400
    csv = text(base, "/pages/big_orders.csv?_sort=id")
    assert len(csv.strip().split("\r\n")) == len(expected) + 1
    events = Events(base + "/pages/big_orders/events?format=json&_sort=id")
    try:
        start = time.monotonic()
        write("UPDATE orders SET amount = 4321 WHERE id = 51")
        while True:
            event = events.next(timeout=max(0.01, start + 3 - time.monotonic()))
            if "4321" in event["data"]:
                break
        assert event["at"] - start < 1.0
    finally:
        events.close()


def test_postgresql_text_keys_views_of_views_and_watch_follow_what_each_page_reads(postgres_database, tmp_path):
    """A text primary key links by its encoded key; a view of a view is re-read when the table
    under both changes; a referring table's page when the referenced one does; and --watch puts
    its triggers on the tables alone."""
    psql(postgres_database, """
        CREATE TABLE authors (code text PRIMARY KEY, title text NOT NULL);
        INSERT INTO authors VALUES ('a,1', 'Ursula'), ('b 2', 'Octavia');
        CREATE TABLE books (id integer PRIMARY KEY, author_code text REFERENCES authors(code), pages integer);
        INSERT INTO books SELECT g, CASE g % 2 WHEN 0 THEN 'a,1' ELSE 'b 2' END, g * 10 FROM generate_series(1, 40) AS g;
        CREATE VIEW long_books AS SELECT id, author_code, pages FROM books WHERE pages >= 200;
        CREATE VIEW longest_books AS SELECT id, pages FROM long_books WHERE pages >= 300;
    """)
    process, base = start_server(tmp_path, "--database", postgres_database, "--watch")
    try:
        page = text(base, "/pages/books")
        assert '<a href="/pages/authors/rows/h612c31" title="Show this row of authors"><bdi>Ursula</bdi></a>' in page
        assert '<a href="/pages/authors/rows/sb%202" title="Show this row of authors"><bdi>Octavia</bdi></a>' in page
        assert text(base, "/pages/authors/rows/sb%202").count("20 rows from <bdi>author_code</bdi> in <bdi>books</bdi>") == 1
        status, longest = get(base, "/pages/longest_books.json?_sort=id")
        assert status == 200
        assert [row["fields"]["id"] for row in longest["sections"][0]["rows"]] == list(range(30, 41))
        for path, write, expected in [
            ("/pages/longest_books/events?_sort=id", "UPDATE books SET pages = 9999 WHERE id = 35", "9999"),
            ("/pages/books/events", "UPDATE authors SET title = 'Ursula K.' WHERE code = 'a,1'", "Ursula K."),
        ]:
            events = Events(base + path)
            try:
                start = time.monotonic()
                psql(postgres_database, write)
                while True:
                    event = events.next(timeout=max(0.01, start + 3 - time.monotonic()))
                    if expected in event["data"]:
                        break
                assert event["at"] - start < 1.0, path
            finally:
                events.close()
    finally:
        stop_server(process)
    triggers = psql(postgres_database, "SELECT string_agg(tgrelid::regclass::text, ',' ORDER BY 1) FROM pg_trigger WHERE tgname = 'tablepages_notify'").strip()
    assert triggers == "authors,books"


DATASETTE_SHOP = """
    CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT, city TEXT);
    INSERT INTO customers VALUES (1, 'Ida Meyer', 'Bonn'), (2, '<b>Bo</b> & "Co"', 'Köln'), (3, NULL, 'Ulm'), (4, 42, 'Ulm');
    CREATE TABLE products (code TEXT PRIMARY KEY, title TEXT) WITHOUT ROWID;
    INSERT INTO products VALUES ('P 1', 'Kettle'), ('P,2', 'Teapot');
    CREATE TABLE tags (id INTEGER PRIMARY KEY, slug TEXT UNIQUE, name TEXT);
    INSERT INTO tags VALUES (1, 'red', 'Red things'), (2, 'blue', 'Blue things');
    CREATE TABLE pairs (id INTEGER PRIMARY KEY, label TEXT);
    INSERT INTO pairs VALUES (1, 'one'), (2, 'two');
    CREATE TABLE unlabelled (id INTEGER PRIMARY KEY, a TEXT, b TEXT);
    INSERT INTO unlabelled VALUES (1, 'x', 'y');
    CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(id),
                         product TEXT REFERENCES products(code), tag TEXT REFERENCES tags(slug),
                         pair INTEGER REFERENCES pairs(id), other INTEGER REFERENCES unlabelled(id), amount INTEGER);
    WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 120)
    INSERT INTO orders SELECT x,
        CASE WHEN x % 10 = 0 THEN NULL WHEN x % 17 = 0 THEN 999 ELSE 1 + x % 4 END,
        CASE x % 3 WHEN 0 THEN 'P 1' WHEN 1 THEN 'P,2' ELSE 'P 9' END,
        CASE x % 3 WHEN 0 THEN 'red' WHEN 1 THEN 'blue' ELSE NULL END,
        CASE WHEN x % 5 = 0 THEN '2' ELSE 1 + x % 2 END,
        1, x FROM n;
"""


def test_labels_on_expands_every_value_as_datasette_0_65_does(tmp_path):
    """The same file served by Datasette (from PyPI) and by TablePages: every foreign-key value
    of every row with `_labels=on` is the same (a row found, its label or null; a row missing, or
    a table without a label column, the value alone; the text '2' referring to the integer key 2)."""
    path = tmp_path / "shop.sqlite"
    connection = sqlite3.connect(path)
    connection.executescript(DATASETTE_SHOP)
    connection.commit()
    connection.close()
    server, their_base = start_datasette(path)
    process, base = start_server(tmp_path, "--database", str(path))
    try:
        with urllib.request.urlopen(f"{their_base}/shop/orders.json?_labels=on&_shape=objects&_size=max", timeout=30) as response:
            theirs = json.load(response)["rows"]
        status, ours = get(base, "/pages/orders.json?_labels=on&_size=1000")
        assert status == 200
        rows = ours["sections"][0]["rows"]
        assert len(rows) == len(theirs) == 120
        columns = ["customer_id", "product", "tag", "pair", "other"]
        differing = [(row["id"], column, row["fields"][column], their[column])
                     for row, their in zip(rows, theirs) for column in columns if row["fields"][column] != their[column]]
        assert differing == []
    finally:
        stop_server(process)
        server.terminate()
        server.wait(timeout=10)
