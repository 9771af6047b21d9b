"""`tablepages serve --database postgresql://…`: every table of a PostgreSQL schema as a live page,
checked against PostgreSQL's own answers (filters, keyset paging), live by triggers and LISTEN
(`--watch`) and by polling, through a dropped listening connection, read-only, and bounded by
`--query-time-limit`."""
import json
import os
import signal
import statistics
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest

from conftest import BINARY, PsqlSession, psql, start_server, stop_server, wait_until
from test_database_live import Events, ops, page_json
from test_database_query import all_ids, get
from test_postgres_faults import status_of

ROWS = 300
HOSTILE = 'we=ird&,"q\'?'
HOSTILE_TABLE = 'odd "table"?; DROP'


def q(name):
    return '"' + name.replace('"', '""') + '"'


def literal(text):
    return "'" + text.replace("'", "''") + "'"


def fresh_database(cluster, name):
    subprocess.run(["psql", cluster, "-q", "-c", f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)', "-c", f'CREATE DATABASE "{name}"'],
                   check=True, capture_output=True)
    return cluster.rsplit("/", 1)[0] + "/" + name


def drop_database(cluster, name):
    subprocess.run(["psql", cluster, "-q", "-c", f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'], check=False, capture_output=True)


def make_tables(url):
    """300 rows with NULLs and repeats, a column named like a filter (`a__gt`) next to `a`, one
    named with URL and SQL punctuation (and a `?`, which the server's placeholder numbering must
    leave alone), a numeric and a boolean column (read as text), a table with a hostile name, and
    one without a primary key (not served)."""
    texts = [None, "", "apple pie", "Apple_tart", "50% off banana", "back\\slash cherry", "ünïcode ÄRGER",
             "APPLE AND banana", "a,b", "zebra", "12.5"]
    values = []
    for x in range(1, ROWS + 1):
        t = texts[x % 11]
        values.append("({}, {}, {}, {}, {}, {}, {}, {}, {})".format(
            x, "NULL" if x % 7 == 0 else x % 10 - 3, "NULL" if x % 9 == 0 else (x % 13) * 0.5,
            "NULL" if t is None else literal(t), "NULL" if x % 5 == 0 else literal(f"v{x % 4}"), x % 6,
            ["'a,b'", "'x=y&z'", "NULL"][x % 3], f"{x % 4}.25", ["true", "false", "NULL"][x % 3]))
    psql(url, f"""
        CREATE TABLE things (id integer PRIMARY KEY, n integer, r double precision, t text, "a__gt" text, a integer,
                             {q(HOSTILE)} text, price numeric(6, 2), flag boolean);
        INSERT INTO things VALUES {", ".join(values)};
        CREATE TABLE {q(HOSTILE_TABLE)} ({q(HOSTILE)} text PRIMARY KEY, v integer);
        INSERT INTO {q(HOSTILE_TABLE)} VALUES ('a?b', 1), ('c"d', 2), ('e''f', NULL);
        CREATE TABLE keyless (v integer);
    """)


@pytest.fixture(scope="module")
def site(postgres_cluster, tmp_path_factory):
    name = "pg_tables_query"
    url = fresh_database(postgres_cluster, name)
    make_tables(url)
    process, base = start_server(tmp_path_factory.mktemp("pgquery"), "--database", url)
    yield base, url
    stop_server(process)
    drop_database(postgres_cluster, name)


def pg_ids(url, sql):
    return [line for line in psql(url, sql).splitlines() if line]


# (parameter, value, the same in PostgreSQL's SQL)
CASES = [
    ("n", "2", "n = 2"),
    ("n__exact", "2", "n = 2"),
    ("n__not", "2", "n <> 2"),
    ("t__contains", "apple", "t ILIKE '%apple%'"),
    ("t__contains", "%", "strpos(t, '%') > 0"),
    ("t__startswith", "apple_", "t ILIKE 'apple\\_%'"),
    ("t__endswith", "BANANA", "t ILIKE '%banana'"),
    ("t__contains", "ärger", "t ILIKE '%ärger%'"),
    ("r__gt", "2.5", "r > 2.5"),
    ("r__gte", "2.5", "r >= 2.5"),
    ("n__lt", "0", "n < 0"),
    ("n__lte", "0", "n <= 0"),
    ("price__gt", "1.25", "price > 1.25"),
    ("flag", "true", "flag"),
    ("n__in", "1,2,-1", "n IN (1, 2, -1)"),
    ("t__in", '["a,b","zebra"]', "t IN ('a,b', 'zebra')"),
    ("n__notin", "1,2", "n NOT IN (1, 2)"),
    ("t__isnull", "1", "t IS NULL"),
    ("r__notnull", "", "r IS NOT NULL"),
    ("a__gt", "3", "a > 3"),
    ("a__gt__exact", "v2", '"a__gt" = \'v2\''),
    (HOSTILE, "x=y&z", q(HOSTILE) + " = 'x=y&z'"),
    (HOSTILE + "__isnull", "1", q(HOSTILE) + " IS NULL"),
    (HOSTILE + "__contains", "=y", q(HOSTILE) + " ILIKE '%=y%'"),
]


@pytest.mark.parametrize("parameter,value,where", CASES)
def test_each_filter_pages_to_postgresqls_answer(site, parameter, value, where):
    base, url = site
    query = urllib.parse.urlencode([(parameter, value), ("_sort_desc", "n"), ("_size", "13")])
    # The pages put NULL last in descending order, as SQLite does.
    expected = pg_ids(url, f"SELECT id FROM things WHERE {where} ORDER BY n DESC NULLS LAST, id DESC")
    assert expected, "the case should pick some rows"
    assert all_ids(base, "/pages/things.json?" + query) == expected


@pytest.mark.parametrize("sort,order", [
    ("r", "r NULLS FIRST, id"),
    ("-r", "r DESC NULLS LAST, id DESC"),
    ("t", "t COLLATE \"default\" NULLS FIRST, id"),
    ("price", "price NULLS FIRST, id"),
    ("-" + HOSTILE, q(HOSTILE) + " DESC NULLS LAST, id DESC"),
])
def test_paging_a_sorted_table_has_no_gaps_or_repeats(site, sort, order):
    base, url = site
    ids = all_ids(base, "/pages/things.json?" + urllib.parse.urlencode([("sort", sort), ("_size", "7")]))
    assert len(ids) == len(set(ids)) == ROWS
    assert ids == pg_ids(url, f"SELECT id FROM things ORDER BY {order}")


def test_groups_are_the_values_with_their_counts(site):
    base, url = site
    status, page = get(base, "/pages/things.json?group=a__gt&sort=-r")
    assert status == 200, page
    counts = [(section.get("title"), section["rowCount"]) for section in page["sections"]]
    expected = pg_ids(url, 'SELECT count(*) FROM things GROUP BY "a__gt" ORDER BY "a__gt" NULLS FIRST')
    assert [str(count) for _, count in counts] == expected
    # Each group pages on within its own rows.
    second = page["sections"][1]
    ids = all_ids(base, "/pages/things.json?" + urllib.parse.urlencode([("group", "a__gt"), ("sort", "-r"), ("_size", "5")]))
    assert ids[: len(second["rows"])] != [] and len(set(ids)) == len(ids)


def test_a_hostile_table_name_is_a_page_and_keys_round_trip(site):
    base, _ = site
    path = "/pages/" + urllib.parse.quote(HOSTILE_TABLE, safe="")
    status, page = get(base, path + ".json")
    assert status == 200, page
    rows = page["sections"][0]["rows"]
    assert [row["fields"]["v"] for row in rows] == [1, 2, None]
    # A row's own URL reads it again by its (text) key.
    for row in rows:
        status, detail = get(base, path + "/rows/" + urllib.parse.quote(row["id"], safe="") + ".json")
        assert status == 200, detail
        assert detail["fields"] == row["fields"]


def test_values_of_postgresql_types_arrive_as_json(site):
    base, _ = site
    status, page = get(base, "/pages/things/rows/4.json")
    assert status == 200, page
    fields = page["fields"]
    assert fields["id"] == 4 and fields["r"] == 2.0 and fields["price"] == "0.25" and fields["flag"] == "false"


def test_a_table_without_a_primary_key_is_not_served(site):
    base, _ = site
    status, _ = get(base, "/pages/keyless.json")
    assert status == 404


@pytest.mark.parametrize("query,status,message", [
    ("_search=apple", 400, "not supported on PostgreSQL"),
    ("n__gt=abc", 400, "invalid input syntax for type integer"),
    ("nope=1", 400, "is not a column"),
])
def test_mistakes_are_400s_that_say_what_is_wrong(site, query, status, message):
    base, _ = site
    got, body = get(base, "/pages/things.json?" + query)
    assert got == status and message in json.dumps(body), body


def test_facets_count_like_postgresql(site):
    base, url = site
    status, page = get(base, "/pages/things.json?_facet=a&n__gt=0")
    assert status == 200, page
    got = [(value["value"], value["count"]) for value in page["facets"]["a"]["values"]]
    expected = [tuple(int(x) for x in line.split("|")) for line in pg_ids(url, "SELECT a, count(*) FROM things WHERE n > 0 GROUP BY a ORDER BY 2 DESC, a")]
    assert got == expected


def test_suggested_facets_are_the_columns_of_few_values_as_postgresql_counts_them(site):
    base, url = site
    status, page = get(base, "/pages/things.json?n__gt=0")
    assert status == 200, page
    fields = page["headerView"]["fields"]
    rows = int(pg_ids(url, "SELECT count(*) FROM things WHERE n > 0")[0])
    expected = []
    for column in [column["name"] for column in fields["columns"]]:
        if column == "id":
            continue
        distinct = int(pg_ids(url, f"SELECT count(DISTINCT {q(column)}) FROM things WHERE n > 0")[0])
        most = int(pg_ids(url, f"SELECT coalesce(max(c), 0) FROM (SELECT count(*) AS c FROM things WHERE n > 0 AND {q(column)} IS NOT NULL GROUP BY {q(column)}) AS counted")[0])
        if 2 <= distinct <= 30 and distinct < rows and most > 1:
            expected.append(column)
    assert len(expected) >= 3
    assert [suggestion["column"] for suggestion in fields.get("suggestedFacets", [])] == expected


def test_a_csv_export_is_every_row(site):
    base, url = site
    with urllib.request.urlopen(base + "/pages/things.csv?sort=r", timeout=30) as response:
        lines = response.read().decode().splitlines()
    assert len(lines) == ROWS + 1 and lines[0].startswith("id,n,r,t")
    assert [line.split(",")[0] for line in lines[1:]] == pg_ids(url, "SELECT id FROM things ORDER BY r NULLS FIRST, id")


def test_read_only_refuses_writes(site):
    base, url = site
    request = urllib.request.Request(base + "/pages/things", data=b"{}", method="POST", headers={"Content-Type": "application/json"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=5)
    assert 400 <= refused.value.code < 500
    # The server's sessions are read-only by default: PostgreSQL itself would refuse a write.
    sessions = pg_ids(url, "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'tablepages' AND datname = current_database()")
    assert int(sessions[0]) >= 1
    assert psql(url, "SELECT count(*) FROM things").strip() == str(ROWS)


# Live pages


@pytest.fixture()
def live_database(postgres_database):
    psql(postgres_database, f"""
        CREATE TABLE items (id integer PRIMARY KEY, name text);
        INSERT INTO items SELECT g, 'item ' || g FROM generate_series(1, {ROWS}) AS g;
        CREATE TABLE {q(HOSTILE_TABLE)} (id integer PRIMARY KEY);
    """)
    return postgres_database


def wait_for_count(events, count, within):
    """The first event whose section-next op carries `count`; fails after `within` seconds."""
    deadline = time.monotonic() + within
    while True:
        event = events.next(timeout=max(0.01, deadline - time.monotonic()))
        found = ops(event, "section-next")
        if found and found[0]["rowCount"] == count:
            return event


@pytest.mark.parametrize("watch", [True, False], ids=["watch", "poll"])
def test_psql_inserts_updates_and_deletes_reach_a_subscriber(live_database, tmp_path, watch):
    process, base = start_server(tmp_path, "--database", live_database, *(["--watch"] if watch else []))
    try:
        events = Events(base + "/pages/items/events?format=json&sort=-id")
        delays = []
        try:
            start = time.monotonic()
            psql(live_database, "INSERT INTO items VALUES (5000, 'newest')")
            event = wait_for_count(events, ROWS + 1, 3)
            delays.append(event["at"] - start)
            [insert] = ops(event, "insert") or [event["patch"]]
            assert insert["row"] == "5000" and insert["data"]["fields"]["name"] == "newest"

            start = time.monotonic()
            psql(live_database, "UPDATE items SET name = 'changed' WHERE id = 5000")
            event = events.next(timeout=3)
            delays.append(event["at"] - start)
            [update] = [op for op in event["patch"]["ops"] if op["op"] == "replace"]
            assert update["data"]["fields"]["name"] == "changed"

            start = time.monotonic()
            psql(live_database, "DELETE FROM items WHERE id = 5000")
            event = wait_for_count(events, ROWS, 3)
            delays.append(event["at"] - start)
            assert ops(event, "delete")[0]["row"] == "5000"
        finally:
            events.close()
        print(f"\n{'--watch' if watch else 'polling'}: psql write -> patch {[round(d * 1000) for d in delays]} ms (includes starting psql)")
        assert max(delays) < (1.0 if watch else 2.0)
        fresh = page_json(base, "/pages/items.json")
        assert fresh["sections"][0]["rowCount"] == ROWS
    finally:
        stop_server(process)
    # Every client's run() starts before its first lease (issue 19): postgres-nio warns otherwise.
    log = (tmp_path / "server.log").read_text()
    assert "hasn't been called" not in log, log
    if watch:
        # The triggers are installed on every served table, the hostile one too.
        assert psql(live_database, "SELECT count(*) FROM pg_trigger WHERE tgname = 'tablepages_notify'").strip() == "2"


def test_the_delay_from_a_psql_write_to_its_patch_with_watch(live_database, tmp_path):
    """p50 and worst delay over 20 writes with --watch (printed with -s)."""
    process, base = start_server(tmp_path, "--database", live_database, "--watch")
    try:
        events = Events(base + "/pages/items/events?format=json")
        delays = []
        try:
            for n in range(20):
                start = time.monotonic()
                psql(live_database, f"INSERT INTO items VALUES ({20000 + n}, 'timed')")
                event = wait_for_count(events, ROWS + n + 1, 3)
                delays.append(event["at"] - start)
        finally:
            events.close()
    finally:
        stop_server(process)
    print(f"\n--watch: psql write -> patch over {len(delays)} writes: p50 {statistics.median(delays) * 1000:.0f} ms, "
          f"max {max(delays) * 1000:.0f} ms (includes starting psql)")
    assert statistics.median(delays) < 1.0


def assert_listening(url, events, new_id, count):
    """A `psql` insert of row `new_id` reaches the subscriber, the page now `count` rows, within 1 s."""
    start = time.monotonic()
    psql(url, f"INSERT INTO items VALUES ({new_id}, 'after')")
    event = wait_for_count(events, count, 3)
    assert event["at"] - start < 1.0


def test_a_dropped_listening_connection_loses_no_change(live_database, tmp_path):
    process, base = start_server(tmp_path, "--database", live_database, "--watch")
    try:
        events = Events(base + "/pages/items/events?format=json")
        try:
            listener = "SELECT pid FROM pg_stat_activity WHERE application_name = 'tablepages listener'"
            deadline = time.monotonic() + 5
            while not pg_ids(live_database, listener):
                assert time.monotonic() < deadline, "no listening connection"
                time.sleep(0.05)
            [old] = pg_ids(live_database, listener)
            # Written while no connection listens: its notification is lost, the re-read finds it.
            psql(live_database, f"SELECT pg_terminate_backend({old}); INSERT INTO items VALUES (7000, 'during the gap')")
            wait_for_count(events, ROWS + 1, 10)
            deadline = time.monotonic() + 10
            while True:
                pids = pg_ids(live_database, listener)
                if pids and pids != [old]:
                    break
                assert time.monotonic() < deadline, "the listener did not come back"
                time.sleep(0.05)
            # And the new connection listens.
            assert_listening(live_database, events, 7001, ROWS + 2)
        finally:
            events.close()
        assert page_json(base, "/pages/items.json")["sections"][0]["rowCount"] == ROWS + 2
    finally:
        stop_server(process)


def readyz(base):
    return status_of(base + "/readyz")


def test_a_listening_connection_that_stops_delivering_is_noticed_by_its_heartbeat(live_database, tmp_path):
    """--watch on a user's database has no version clock to compare: the instance notifies itself a
    heartbeat every second and gives the listening connection up when one goes unheard for 5 s."""
    process, base = start_server(tmp_path, "--database", live_database, "--watch")
    name = live_database.rsplit("/", 1)[1]
    admin = live_database.rsplit("/", 1)[0] + "/postgres"
    writer = PsqlSession(live_database)
    stopped = None
    try:
        assert wait_until(lambda: readyz(base) == 200, 10), "not ready with --watch"
        events = Events(base + "/pages/items/events?format=json")
        try:
            listener = "SELECT pid FROM pg_stat_activity WHERE application_name = 'tablepages listener'"
            assert wait_until(lambda: pg_ids(live_database, listener), 5), "no listening connection"
            [stopped] = map(int, pg_ids(live_database, listener))
            # The listening connection stays open but delivers nothing; new connections are refused
            # for now, so that the instance's state while it cannot listen can be looked at.
            os.kill(stopped, signal.SIGSTOP)
            psql(admin, f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
            try:
                writer.run("INSERT INTO items VALUES (8000, 'while the listener was stopped');")
                start = time.monotonic()
                # A heartbeat every second (over the pool's open connections), 5 s to arrive.
                assert wait_until(lambda: "delivered no heartbeat" in (tmp_path / "server.log").read_text(), 12), \
                    "the server did not notice that its listening connection delivers nothing"
                assert time.monotonic() - start < 9
                # Given up, and unable to listen again for now: not ready.
                assert wait_until(lambda: readyz(base) == 503, 3), "/readyz stayed 200 while nothing listens"
            finally:
                psql(admin, f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
            # Listening again, every page re-reads: the insert reaches the subscriber.
            wait_for_count(events, ROWS + 1, 15)
            assert wait_until(lambda: readyz(base) == 200, 10), "/readyz did not come back after the listener reconnected"
            assert_listening(live_database, events, 8001, ROWS + 2)
        finally:
            events.close()
    finally:
        writer.close()
        if stopped:
            os.kill(stopped, signal.SIGCONT)
        stop_server(process)


def test_a_slow_query_is_a_503_at_the_time_limit(postgres_database, tmp_path):
    # Slow by construction, not by data size: another session holds the table's lock, so the
    # page's read waits for it until the time limit stops it, however fast the machine is.
    psql(postgres_database, """
        CREATE TABLE big (id integer PRIMARY KEY, payload text);
        INSERT INTO big SELECT g, md5(g::text) FROM generate_series(1, 1000) AS g;
    """)
    process, base = start_server(tmp_path, "--database", postgres_database, "--query-time-limit", "100")
    locker = PsqlSession(postgres_database)
    try:
        locker.run("BEGIN; LOCK TABLE big IN ACCESS EXCLUSIVE MODE;")
        start = time.monotonic()
        status, body = get(base, "/pages/big.json?sort=-payload&payload__contains=a")
        took = time.monotonic() - start
        assert status == 503, body
        assert "--query-time-limit" in json.dumps(body)
        assert took < 2.0
        locker.run("ROLLBACK;")
        # A read on the same server answers again once the table is free.
        status, _ = get(base, "/pages/big/rows/7.json")
        assert status == 200
    finally:
        locker.close()
        stop_server(process)


def test_watch_without_the_privileges_fails_at_startup_saying_which_and_polling_needs_only_select(live_database, tmp_path):
    role = "reader_" + live_database.rsplit("/", 1)[1][-20:]
    psql(live_database, f'DROP ROLE IF EXISTS "{role}"; CREATE ROLE "{role}" LOGIN; GRANT SELECT ON items TO "{role}"')
    try:
        url = live_database.replace("postgres@", f"{role}@")
        process = subprocess.run(["timeout", "30", BINARY, "serve", "--port", "0", "--database", url, "--watch"],
                                 cwd=tmp_path, capture_output=True, text=True)
        assert process.returncode != 0
        assert "installing the --watch triggers" in process.stderr and "permission denied for schema public" in process.stderr, process.stderr
        # Without --watch, SELECT is enough; only the tables it may read are served.
        server, base = start_server(tmp_path, "--database", url)
        try:
            status, index = get(base, "/")
            assert status == 200 and [page["name"] for page in index["pages"]] == ["items"], index
            assert page_json(base, "/pages/items.json")["sections"][0]["rowCount"] == ROWS
        finally:
            stop_server(server)
    finally:
        psql(live_database, f'REVOKE ALL ON items FROM "{role}"; DROP ROLE IF EXISTS "{role}"')
