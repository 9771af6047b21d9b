"""Database pages stay live beyond their window: rows written by the `sqlite3` shell into a table
served with `tablepages serve --database FILE` reach open pages in place where the page has loaded
that part of the table, and otherwise as new counts and `next` links — never as a misplaced row.

The live table of `items` (1,500 rows) holds its first 1,000 rows; a page shows 100 of them."""
import json
import queue
import re
import socket
import sqlite3
import statistics
import subprocess
import threading
import time
import urllib.request

import pytest

from conftest import console_errors, new_browser, start_server, stop_server, wait_until

ROWS = 1500
PAGE_ROWS = 100


def shell(path, sql):
    """Writes as another process does: the `sqlite3` shell."""
    subprocess.run(["sqlite3", str(path), sql], check=True, timeout=10)


@pytest.fixture()
def database(tmp_path):
    path = tmp_path / "live.sqlite"
    connection = sqlite3.connect(path)
    connection.execute("PRAGMA journal_mode = WAL")
    connection.execute("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT)")
    connection.executemany("INSERT INTO items VALUES (?, ?)", [(n, f"item {n}") for n in range(1, ROWS + 1)])
    connection.execute("CREATE TABLE small (id INTEGER PRIMARY KEY, name TEXT)")
    connection.executemany("INSERT INTO small VALUES (?, ?)", [(n, f"small {n}") for n in (1, 2, 4, 5)])
    connection.commit()
    connection.close()
    return path


@pytest.fixture()
def site(tmp_path, database):
    process, base = start_server(tmp_path, "--database", str(database))
    yield base, database
    stop_server(process)


class Events:
    """A subscriber of a page's event stream, reading on a thread; each event arrives with the
    monotonic time it was read."""

    def __init__(self, url, last_event_id=None):
        headers = {"Accept": "text/event-stream"}
        if last_event_id is not None:
            headers["Last-Event-ID"] = str(last_event_id)
        self.response = urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=30)
        self.events = queue.Queue()
        self.ready = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()
        assert self.ready.wait(5), "the stream sent nothing"

    def _read(self):
        event = {}
        try:
            for raw in self.response:
                line = raw.decode().rstrip("\n")
                if line.startswith("retry:"):
                    self.ready.set()
                elif line.startswith("event:"):
                    event["event"] = line[6:].strip()
                elif line.startswith("id:"):
                    event["id"] = int(line[3:].strip())
                elif line.startswith("data:"):
                    event["data"] = line[5:].strip()
                elif line == "" and "data" in event:
                    event["at"] = time.monotonic()
                    self.events.put(event)
                    event = {}
        except Exception:
            pass

    def next(self, timeout=5):
        event = self.events.get(timeout=timeout)
        event["patch"] = json.loads(event["data"])
        return event

    def close(self):
        # Shutting the socket down ends the reader thread's blocking read at once; closing the
        # response alone waits for that read to return, i.e. for the next heartbeat (15 s).
        try:
            self.response.fp.raw._sock.shutdown(socket.SHUT_RDWR)
        except (AttributeError, OSError):
            pass
        self.response.close()


def page_json(base, path):
    with urllib.request.urlopen(base + path, timeout=10) as response:
        return json.load(response)


def ops(event, name):
    return [op for op in event["patch"]["ops"] if op["op"] == name]


def table_ids(database, order="id"):
    connection = sqlite3.connect(database)
    try:
        return [str(row[0]) for row in connection.execute(f"SELECT id FROM items ORDER BY {order}")]
    finally:
        connection.close()


def test_a_row_inserted_past_the_window_is_a_count_update_within_a_second_and_a_delete_lowers_it(site):
    base, database = site
    page = page_json(base, "/pages/items.json")
    assert page["sections"][0]["rowCount"] == ROWS
    events = Events(base + "/pages/items/events?format=json")
    try:
        start = time.monotonic()
        shell(database, "INSERT INTO items (id, name) VALUES (5000, 'late')")
        event = events.next()
        assert event["at"] - start < 1.0, f"took {event['at'] - start:.3f} s"
        assert [op["op"] for op in event["patch"]["ops"]] == ["section-next", "replace-header"], event["patch"]
        [counts] = ops(event, "section-next")
        assert counts["section"] == "all" and counts["rowCount"] == ROWS + 1
        assert counts["remaining"] == ROWS + 1 - PAGE_ROWS
        assert counts["next"] == f"/pages/items/sections/all.json?after={PAGE_ROWS}&limit={PAGE_ROWS}", "a JSON stream's next leads to JSON"
        assert "html" not in counts, "a JSON stream carries no HTML"

        shell(database, "DELETE FROM items WHERE id = 1400")
        event = events.next()
        assert [op["op"] for op in event["patch"]["ops"]] == ["section-next", "replace-header"]
        assert ops(event, "section-next")[0]["rowCount"] == ROWS

        # The fresh page agrees with the patches.
        fresh = page_json(base, "/pages/items.json")
        assert fresh["sections"][0]["rowCount"] == ROWS
        assert fresh["version"] == event["id"]
    finally:
        events.close()


def test_the_count_update_replays_from_the_log_exactly_as_sent(site):
    base, database = site
    events = Events(base + "/pages/items/events")
    try:
        shell(database, "INSERT INTO items (id, name) VALUES (5001, 'late')")
        live = events.next()
    finally:
        events.close()
    [counts] = ops(live, "section-next")
    assert counts["html"].startswith('<a class="tk-next" rel="next" href="/pages/items/sections/all?after=100&amp;limit=100"')
    assert f'data-remaining="{ROWS + 1 - PAGE_ROWS}"' in counts["html"]
    replay = Events(base + "/pages/items/events", last_event_id=live["id"] - 1)
    try:
        again = replay.next()
    finally:
        replay.close()
    assert (again["id"], again["event"], again["data"]) == (live["id"], live["event"], live["data"])


def test_a_row_inserted_inside_the_window_arrives_in_place_with_the_new_count(site):
    base, database = site
    events = Events(base + "/pages/items/events?format=json&sort=-id")
    try:
        shell(database, "INSERT INTO items (id, name) VALUES (9000, 'newest')")
        event = events.next()
    finally:
        events.close()
    names = [op["op"] for op in event["patch"]["ops"]]
    # The newest row sorts first; the window's last row leaves it; then the count.
    assert names == ["delete", "insert", "section-next", "replace-header"], event["patch"]
    [insert] = ops(event, "insert")
    assert insert["row"] == "9000" and insert["section"] == "all" and insert["after"] is None
    assert insert["data"]["fields"]["name"] == "newest"
    assert ops(event, "section-next")[0]["rowCount"] == ROWS + 1


def test_the_delay_from_a_sqlite3_write_to_its_patch(site):
    """Measures the p50 and worst delay over 20 writes past the window (printed with -s)."""
    base, database = site
    events = Events(base + "/pages/items/events?format=json")
    delays = []
    try:
        for n in range(20):
            start = time.monotonic()
            shell(database, f"INSERT INTO items (id, name) VALUES ({20000 + n}, 'timed')")
            event = events.next()
            assert ops(event, "section-next")[0]["rowCount"] == ROWS + n + 1
            delays.append(event["at"] - start)
    finally:
        events.close()
    median = statistics.median(delays)
    print(f"\nsqlite3 write -> patch over {len(delays)} writes: p50 {median * 1000:.0f} ms, "
          f"max {max(delays) * 1000:.0f} ms (includes starting the sqlite3 process)")
    assert median < 1.0 and max(delays) < 1.5


def dom_state(driver):
    """The row ids the page shows, in order, and its next link's remaining count and text."""
    return driver.execute_script("""
        const section = document.querySelector('#section-all');
        const link = section.querySelector(':scope > a.tk-next');
        return {
          rows: [...section.querySelectorAll('.tk-rows > .tk-row')].map((row) => row.dataset.row),
          remaining: link ? Number(link.dataset.remaining) : 0,
          text: link ? link.textContent : null,
          href: link ? link.getAttribute('href') : null,
          version: document.querySelector('.tk-table').dataset.version,
        };
    """)


def fresh_state(base, path):
    with urllib.request.urlopen(base + path, timeout=10) as response:
        html = response.read().decode()
    rows = re.findall(r'class="tk-row" data-row="([^"]+)"', html)
    found = re.search(r'<a class="tk-next"[^>]*data-remaining="(\d+)"', html)
    return rows, int(found.group(1)) if found else 0


def assert_matches_a_fresh_page(base, database, state):
    """What the page shows is a prefix of the table in order, and its rows loaded plus rows to
    come equal a fresh page's."""
    rows, remaining = fresh_state(base, "/pages/items")
    truth = table_ids(database)
    assert state["rows"] == truth[:len(state["rows"])]
    assert rows == truth[:len(rows)]
    assert len(state["rows"]) + state["remaining"] == len(rows) + remaining == len(truth)


def test_a_browser_shows_new_rows_past_what_it_loaded_as_a_count_it_can_click(site):
    base, database = site
    driver = new_browser()
    try:
        driver.get(base + "/pages/items")
        assert wait_until(lambda: driver.execute_script("return document.querySelector('.tp-live')?.dataset.state") == "live", 5)
        before = dom_state(driver)
        assert len(before["rows"]) == PAGE_ROWS and before["remaining"] == ROWS - PAGE_ROWS

        # Past the window: the count grows, the link says so, no row appears.
        start = time.monotonic()
        shell(database, "INSERT INTO items (id, name) VALUES (5000, 'late')")
        grown = wait_until(lambda: (state := dom_state(driver))["remaining"] == ROWS + 1 - PAGE_ROWS and state, 2)
        assert grown, dom_state(driver)
        assert time.monotonic() - start < 1.0
        assert grown["rows"] == before["rows"]
        assert grown["text"] == "1 new row \u2014 show"
        assert not driver.find_elements("id", "row-5000")
        assert_matches_a_fresh_page(base, database, grown)

        # Inside the loaded part: in place.
        shell(database, "INSERT INTO items (id, name) VALUES (0, 'zero')")
        placed = wait_until(lambda: (state := dom_state(driver))["rows"][:1] == ["0"] and state, 2)
        assert placed, dom_state(driver)
        assert placed["rows"][1:] == before["rows"]
        assert_matches_a_fresh_page(base, database, placed)

        # Deleted in the loaded part, and past the window.
        shell(database, "DELETE FROM items WHERE id = 5; DELETE FROM items WHERE id = 1450")
        shrunk = wait_until(lambda: (state := dom_state(driver))["rows"][:6] == ["0", "1", "2", "3", "4", "6"] and state, 2)
        assert shrunk, dom_state(driver)
        assert shrunk["remaining"] == placed["remaining"] - 1
        assert_matches_a_fresh_page(base, database, shrunk)

        # The last row loaded goes: the link pages on after the row now last.
        last = shrunk["rows"][-1]
        shell(database, f"DELETE FROM items WHERE id = {last}")
        settled = wait_until(lambda: (state := dom_state(driver))["rows"][-1] != last and state, 2)
        assert settled and f"after={settled['rows'][-1]}&" in settled["href"]
        assert_matches_a_fresh_page(base, database, settled)

        # Clicking the link loads the next rows through the next-link mechanism, without gaps.
        driver.execute_script("document.querySelector('#section-all > a.tk-next').click()")
        loaded = wait_until(lambda: len((state := dom_state(driver))["rows"]) > len(settled["rows"]) and state, 5)
        assert loaded and loaded["text"] == "More rows"
        assert_matches_a_fresh_page(base, database, loaded)
        assert not console_errors(driver)
    finally:
        driver.quit()


def test_a_browser_on_a_small_table_places_a_new_row_between_its_neighbours(site):
    base, database = site
    driver = new_browser()
    try:
        driver.get(base + "/pages/small")
        assert wait_until(lambda: driver.execute_script("return document.querySelector('.tp-live')?.dataset.state") == "live", 5)
        rows = lambda: driver.execute_script("return [...document.querySelectorAll('.tk-row')].map((row) => row.dataset.row)")
        assert rows() == ["1", "2", "4", "5"]
        shell(database, "INSERT INTO small (id, name) VALUES (3, 'three'); INSERT INTO small (id, name) VALUES (6, 'six')")
        assert wait_until(lambda: rows() == ["1", "2", "3", "4", "5", "6"], 2), rows()
        assert not driver.find_elements("css selector", "#section-all > a.tk-next"), "a whole section needs no link"
        fresh, remaining = fresh_state(base, "/pages/small")
        assert rows() == fresh and remaining == 0
        assert not console_errors(driver)
    finally:
        driver.quit()
