"""The example pages on PostgreSQL (`serve --postgres URL`): several instances on one database, and
every change — through any instance, or by `psql` — reaching every instance's event streams over
LISTEN/NOTIFY; nothing acknowledged lost when an instance dies; the listening connection's loss
made good by re-reading; and the pages the same as on SQLite."""
import json
import queue
import re
import signal
import subprocess
import threading
import time
import urllib.request

import pytest
from conftest import BINARY, PsqlSession, post, psql, start_server, stop_server
from test_database_live import Events


def subscribe(base, page="todo"):
    """A subscriber of a page's JSON event stream."""
    return Events(base + f"/pages/{page}/events?format=json")


def wait_for_row(events, row, predicate, timeout=5):
    """The first replacement (or insertion) of `row` whose data satisfies `predicate`: (arrival time, data)."""
    deadline = time.monotonic() + timeout
    while True:
        remaining = deadline - time.monotonic()
        assert remaining > 0, f"no patch of {row} as expected within {timeout} s"
        try:
            event = events.next(timeout=remaining)
        except queue.Empty:
            continue
        for op in event["patch"].get("ops", []):
            if op.get("row") == row and op["op"] in ("replace", "insert") and predicate(op["data"]):
                return event["at"], op["data"]


def page(base, path):
    with urllib.request.urlopen(base + path, timeout=10) as response:
        return json.load(response)


def todo_rows(base):
    return {row["id"]: row for section in page(base, "/pages/todo.json")["sections"] for row in section["rows"]}


def start_on(tmp_path, name, url):
    directory = tmp_path / name
    directory.mkdir(exist_ok=True)
    return start_server(directory, "--postgres", url)


def test_two_instances_start_together_and_migrate_once(tmp_path, postgres_database):
    # Both migrate at once; the advisory lock makes one wait, and the data is seeded once.
    results, failures = {}, []

    def start(name):
        try:
            results[name] = start_on(tmp_path, name, postgres_database)
        except Exception as error:
            failures.append(error)

    threads = [threading.Thread(target=start, args=(name,)) for name in ("a", "b")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    try:
        assert failures == []
        assert psql(postgres_database, "SELECT count(*) FROM product").strip() == "30"
        assert psql(postgres_database, "SELECT count(*) FROM todo").strip() == "8"
        assert psql(postgres_database, "SELECT string_agg(name, ',' ORDER BY name) FROM tablepages_migrations").strip() == "change-clock,v1"
        for process, base in results.values():
            # The eight seeded to-dos, once each (beside them: the progress row and the add row).
            assert sorted(row for row in todo_rows(base) if row.startswith("todo-")) == sorted(f"todo-{n}" for n in range(1, 9))
    finally:
        for process, _ in results.values():
            stop_server(process)


@pytest.fixture()
def two_instances(tmp_path, postgres_database):
    """Instances A and B on one database, each with a subscriber of /pages/todo: yields
    (base A, subscriber on A, base B, subscriber on B)."""
    a, base_a = start_on(tmp_path, "a", postgres_database)
    b, base_b = start_on(tmp_path, "b", postgres_database)
    on_a, on_b = subscribe(base_a), subscribe(base_b)
    yield base_a, on_a, base_b, on_b
    on_a.close()
    on_b.close()
    stop_server(a)
    stop_server(b)


def test_a_todo_toggled_through_one_instance_reaches_subscribers_of_both(two_instances, postgres_database):
    base_a, on_a, base_b, on_b = two_instances
    assert todo_rows(base_b)["todo-3"]["subtitle"] == "to do"
    version_before = int(psql(postgres_database, "SELECT version FROM tablepages_version"))
    start = time.monotonic()
    status, _ = post(base_a + "/pages/todo/rows/todo-3/select")
    assert status == 200
    at_b, _ = wait_for_row(on_b, "todo-3", lambda data: data["subtitle"] == "done")
    wait_for_row(on_a, "todo-3", lambda data: data["subtitle"] == "done")
    print(f"write through A to patch on B: {(at_b - start) * 1000:.1f} ms")
    assert todo_rows(base_b)["todo-3"]["subtitle"] == "done"
    # One write transaction, one step of the clock.
    assert int(psql(postgres_database, "SELECT version FROM tablepages_version")) == version_before + 1


def test_the_delay_from_a_write_through_one_instance_to_the_patch_on_the_other(two_instances):
    base_a, _, _, on_b = two_instances
    delays = []
    for number in range(60):
        start = time.monotonic()
        assert post(base_a + "/pages/todo/rows/todo-6/select")[0] == 200
        at, _ = wait_for_row(on_b, "todo-6", lambda data, done=number % 2 == 0: (data["subtitle"] == "done") == done)
        delays.append(at - start)
    delays.sort()
    p50, p99 = delays[len(delays) // 2], delays[int(len(delays) * 0.99)]
    print(f"write through A (acknowledged) to patch on B over {len(delays)} writes: p50 {p50 * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms")
    assert p99 < 1.0


def test_a_row_changed_with_psql_reaches_subscribers_of_both_instances(two_instances, postgres_database):
    _, on_a, _, on_b = two_instances
    psql(postgres_database, "UPDATE todo SET title = 'Changed by psql' WHERE id = 4")
    wait_for_row(on_a, "todo-4", lambda data: data["title"] == "Changed by psql")
    wait_for_row(on_b, "todo-4", lambda data: data["title"] == "Changed by psql")


def test_an_instance_killed_while_writes_go_through_the_other_loses_nothing_acknowledged(tmp_path, postgres_database):
    a, base_a = start_on(tmp_path, "a", postgres_database)
    b, base_b = start_on(tmp_path, "b", postgres_database)
    acknowledged = []
    stop = threading.Event()

    def write_through(base, prefix):
        number = 0
        # At most 40 each, so that the page's first 100 rows show them all.
        while not stop.is_set() and number < 40:
            number += 1
            title = f"{prefix} {number}"
            try:
                status, _ = post(base + "/pages/todo/sections/todos/rows", json.dumps({"title": title}))
            except OSError:
                continue
            if status == 201:
                acknowledged.append(title)
            time.sleep(0.02)

    writers = [threading.Thread(target=write_through, args=(base_b, "through B")), threading.Thread(target=write_through, args=(base_a, "through A"))]
    try:
        for writer in writers:
            writer.start()
        time.sleep(0.5)
        a.send_signal(signal.SIGKILL)
        a.wait(timeout=10)
        time.sleep(1.0)
        stop.set()
        for writer in writers:
            writer.join(timeout=10)
        assert any(title.startswith("through A") for title in acknowledged)
        assert sum(title.startswith("through B") for title in acknowledged) > 5
        stored = set(psql(postgres_database, "SELECT title FROM todo").split("\n"))
        assert set(acknowledged) <= stored, f"lost: {set(acknowledged) - stored}"

        a, base_a = start_on(tmp_path, "a", postgres_database)
        shown = {row.get("title") for row in todo_rows(base_a).values()}
        assert set(acknowledged) <= shown
        assert {row.get("title") for row in todo_rows(base_b).values()} == shown
    finally:
        stop.set()
        stop_server(b)
        if a.poll() is None:
            stop_server(a)


def test_a_change_made_while_the_listening_connection_is_down_shows_after_it_reconnects(tmp_path, postgres_database):
    process, base = start_on(tmp_path, "a", postgres_database)
    name = postgres_database.rsplit("/", 1)[1]
    admin = postgres_database.rsplit("/", 1)[0] + "/postgres"
    listening = f"SELECT count(*) FROM pg_stat_activity WHERE datname = '{name}' AND application_name = 'tablepages-listener'"
    other_client = PsqlSession(postgres_database)
    try:
        events = subscribe(base)
        assert psql(admin, listening).strip() == "1"
        # The database refuses new connections until the change is made, so the listener cannot be
        # back in time to hear its notification: only re-reading after reconnecting can show it.
        psql(admin, f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
        try:
            psql(admin, f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}' AND application_name = 'tablepages-listener'")
            deadline = time.monotonic() + 5
            while psql(admin, listening).strip() != "0":
                assert time.monotonic() < deadline, "the listening connection did not go"
                time.sleep(0.05)
            other_client.run("UPDATE todo SET isDone = true WHERE id = 5;")
            time.sleep(0.5)
            try:
                with urllib.request.urlopen(base + "/readyz", timeout=5) as response:
                    ready_status = response.status
            except urllib.error.HTTPError as error:
                ready_status = error.code
            assert ready_status == 503, "/readyz did not report the lost listening connection"
            assert events.events.empty(), "a patch arrived while nothing could have told the instance"
        finally:
            psql(admin, f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
        wait_for_row(events, "todo-5", lambda data: data["subtitle"] == "done", timeout=10)
        assert psql(admin, listening).strip() == "1"
        assert "listening for PostgreSQL changes again" in open(tmp_path / "a" / "server.log").read()
        with urllib.request.urlopen(base + "/readyz", timeout=5) as response:
            assert response.status == 200
        events.close()
    finally:
        other_client.close()
        stop_server(process)


# Every page of the examples that a database backs, plus the checklist; `mine` is read with a token.
PAGES = [
    "/pages/products.json", "/pages/products.json?layout=sections", "/pages/product.json?id=3", "/pages/product.json",
    "/pages/todo.json", "/pages/people.json", "/pages/gallery.json", "/pages/destination.json", "/pages/checklist.json",
]


def without_versions(value):
    """The page without its version, which is a clock of the instance, not of the data."""
    if isinstance(value, dict):
        return {key: without_versions(item) for key, item in value.items() if key != "version"}
    if isinstance(value, list):
        return [without_versions(item) for item in value]
    return value


def write_token(directory):
    """A write token named `ci` in `directory`'s credentials: the actor `token:ci` on either store."""
    done = subprocess.run([BINARY, "token", "create", "--name", "ci", "--write"], cwd=directory, capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    return {"Authorization": "Bearer " + done.stdout.strip().splitlines()[-1]}


def test_the_example_pages_are_the_same_on_postgresql_as_on_sqlite(tmp_path, postgres_database):
    directories = {name: tmp_path / name for name in ("sqlite", "postgres")}
    tokens = {}
    for name, directory in directories.items():
        directory.mkdir()
        tokens[name] = write_token(directory)
    on_sqlite, sqlite_base = start_server(directories["sqlite"])
    on_postgres, postgres_base = start_server(directories["postgres"], "--postgres", postgres_database)
    try:
        # And after the same writes: an add, a toggle, a rename, "load more" reviews, one person's own to-do.
        for name, base in (("sqlite", sqlite_base), ("postgres", postgres_base)):
            assert post(base + "/pages/todo/sections/todos/rows", json.dumps({"title": "Zürich → Genève ✓"}))[0] == 201
            assert post(base + "/pages/todo/rows/todo-1/select")[0] == 200
            assert post(base + "/pages/todo/rows/todo-2/actions/rename", json.dumps({"title": "Renamed"}))[0] == 200
            assert post(base + "/pages/destination/rows/load-more/select")[0] in (200, 303)
            assert post(base + "/pages/mine/sections/todos/rows", json.dumps({"title": "Only mine"}), headers=tokens[name])[0] == 201
            for path in PAGES:
                page(base, path)
        # Kept per token, not per name: the actor id carries the token's fingerprint.
        assert re.fullmatch(r"token:ci:[0-9a-f]{16}", psql(postgres_database, "SELECT owner FROM todo WHERE title = 'Only mine'").strip())
        # The gallery's thumbnails are made in the background; give them time to arrive.
        time.sleep(1.5)
        for path in PAGES:
            assert without_versions(page(postgres_base, path)) == without_versions(page(sqlite_base, path)), path
        mine = {}
        for name, base in (("sqlite", sqlite_base), ("postgres", postgres_base)):
            request = urllib.request.Request(base + "/pages/mine.json", headers=tokens[name])
            with urllib.request.urlopen(request, timeout=10) as response:
                mine[name] = without_versions(json.load(response))
        assert "Only mine" in json.dumps(mine["postgres"]) and "Only mine" not in json.dumps(page(postgres_base, "/pages/todo.json"))
        assert mine["postgres"] == mine["sqlite"]
    finally:
        stop_server(on_sqlite)
        stop_server(on_postgres)


def apply_patch(document, patch):
    """Applies a JSON patch (`{"version":N,"ops":[…]}`) to a page's JSON as table-pages.js applies
    one to the DOM: by ids, each row placed after or before its neighbour."""
    sections = document["sections"]

    def section(identifier):
        return next(s for s in sections if s["id"] == identifier)

    # A section's rowCount counts its rows; only sections paged by a window announce it
    # (`section-next`), others change it by their inserts and deletes.
    def take_row(identifier):
        for s in sections:
            for index, row in enumerate(s["rows"]):
                if row["id"] == identifier:
                    s["rowCount"] -= 1
                    return s["rows"].pop(index)
        return None

    def put_row(op, row):
        target = section(op["section"])
        place(target["rows"], row, op)
        target["rowCount"] += 1

    def place(items, item, op):
        if "before" in op:
            index = len(items) if op["before"] is None else next(i for i, x in enumerate(items) if x["id"] == op["before"])
        else:
            index = 0 if op["after"] is None else next(i for i, x in enumerate(items) if x["id"] == op["after"]) + 1
        items.insert(index, item)

    for op in patch["ops"]:
        kind = op["op"]
        assert kind != "reset", "a replayed patch told the client to start over"
        if kind == "insert":
            take_row(op["row"])
            put_row(op, op["data"])
        elif kind == "delete":
            take_row(op["row"])
        elif kind == "replace":
            for s in sections:
                s["rows"] = [op["data"] if row["id"] == op["row"] else row for row in s["rows"]]
        elif kind == "move":
            put_row(op, take_row(op["row"]))
        elif kind == "insert-section":
            sections[:] = [s for s in sections if s["id"] != op["section"]]
            place(sections, op["data"], op)
        elif kind == "delete-section":
            sections[:] = [s for s in sections if s["id"] != op["section"]]
        elif kind == "replace-section":
            sections[:] = [op["data"] if s["id"] == op["section"] else s for s in sections]
        elif kind == "move-section":
            moved = section(op["section"])
            sections.remove(moved)
            place(sections, moved, op)
        elif kind == "replace-header":
            document.pop("headerView", None)
            if op["data"] is not None:
                document["headerView"] = op["data"]
        elif kind == "section-next":
            section(op["section"]).update(rowCount=op["rowCount"], next=op["next"])
        else:
            raise AssertionError(f"unknown op {kind}")
    document["version"] = patch["version"]


def follow(events, document, until_version, timeout=10):
    """Applies the patches `events` brings to `document` until it reaches `until_version`; returns
    the event ids seen. A `reset` fails the test."""
    seen = []
    deadline = time.monotonic() + timeout
    while document["version"] != until_version:
        remaining = deadline - time.monotonic()
        assert remaining > 0, f"stuck at version {document['version']}, waiting for {until_version} (saw {seen})"
        event = events.next(timeout=remaining)
        assert event.get("event") == "patch", f"got {event.get('event')} after {seen}"
        seen.append(event["id"])
        apply_patch(document, event["patch"])
    return seen


def settled_version(base, path="/pages/todo.json", timeout=10):
    """The page's version once two reads a moment apart agree (every notification handled)."""
    deadline = time.monotonic() + timeout
    previous = None
    while time.monotonic() < deadline:
        current = page(base, path)["version"]
        if current == previous:
            return current
        previous = current
        time.sleep(0.3)
    raise AssertionError(f"{path} kept changing")


def test_a_client_moving_between_instances_is_replayed_to_exactly_the_page(tmp_path, postgres_database):
    a, base_a = start_on(tmp_path, "a", postgres_database)
    b, base_b = start_on(tmp_path, "b", postgres_database)
    on_b = subscribe(base_b)
    watcher = None
    try:
        # A client of A: the page, then its patches.
        document = page(base_a, "/pages/todo.json")
        start = document["version"]
        assert start < 2 ** 52, "the examples on PostgreSQL number states by the database's clock"
        assert page(base_b, "/pages/todo.json")["version"] == start, "both instances read the same version"
        client = Events(base_a + f"/pages/todo/events?format=json&lastEventId={start}")
        writes_on_a = [
            lambda: post(base_a + "/pages/todo/rows/todo-3/select"),
            lambda: post(base_a + "/pages/todo/rows/todo-5/actions/rename", json.dumps({"title": "Renamed through A"})),
            lambda: psql(postgres_database, "INSERT INTO todo (title, isDone, position) SELECT 'Added by psql', false, max(position) + 1 FROM todo"),
        ]
        ids_on_a = []
        for write in writes_on_a:
            write()
            version = settled_version(base_a)
            ids_on_a += follow(client, document, version)
        # B named every state A did with the same id (its subscriber saw the same patches).
        ids_on_b = []
        while len(ids_on_b) < len(ids_on_a):
            ids_on_b.append(on_b.next(timeout=10)["id"])
        assert ids_on_b == ids_on_a
        client.close()

        # The client moves to B while writes go on through B.
        post(base_b + "/pages/todo/rows/todo-3/select")
        post(base_b + "/pages/todo/rows/todo-1/actions/rename", json.dumps({"title": "Renamed through B"}))
        post(base_b + "/pages/todo/rows/todo-6/select")
        target = settled_version(base_b)
        published_by_b = []
        while not published_by_b or published_by_b[-1] != target:
            published_by_b.append(on_b.next(timeout=10)["id"])
        moved = Events(base_b + "/pages/todo/events?format=json", last_event_id=document["version"])
        replayed = follow(moved, document, target)
        moved.close()
        # Exactly what B published after the client's version: no patch it already had, none skipped.
        assert replayed == published_by_b
        fresh = page(base_b, "/pages/todo.json")
        assert json.dumps(document, indent=1, sort_keys=True).splitlines() == json.dumps(fresh, indent=1, sort_keys=True).splitlines()
        assert fresh == page(base_a, "/pages/todo.json")

        # An instance started after all that never had the client's first version: reset, not a patch.
        c, base_c = start_on(tmp_path, "c", postgres_database)
        try:
            watcher = Events(base_c + "/pages/todo/events?format=json", last_event_id=start)
            assert watcher.next(timeout=5)["event"] == "reset"
        finally:
            stop_server(c)
    finally:
        on_b.close()
        if watcher is not None:
            watcher.close()
        stop_server(a)
        stop_server(b)
