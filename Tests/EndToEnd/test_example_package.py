"""The example package `Examples/Bookshelf`, a program of its own that depends on this checkout by
path, as README's "Your own page" shows it: its page answers in HTML and JSON in both layouts, a
select is pushed live to every viewer, a cover loaded by a background task arrives as a patch, and
SIGTERM stops it with exit 0. README's code blocks are the example's files, byte for byte.

`make test` builds the example's sources first, as the root package's `Bookshelf` target (the same
files, without compiling every dependency again in the example's own build folder); run alone, this
file builds it when the binary is missing. `BOOKSHELF_BINARY` names another build, e.g.
`Examples/Bookshelf/.build/debug/Bookshelf` after `swift build --package-path Examples/Bookshelf`."""
import http.client
import json
import os
import re
import subprocess
import time
import urllib.error
import urllib.request

import pytest
from conftest import ROOT, example_binary, post, running_example, session_headers, wait_until

EXAMPLE = os.path.join(ROOT, "Examples", "Bookshelf")


@pytest.fixture()
def bookshelf(tmp_path):
    """The example on a port of its choosing (read from its `listening on` line); yields the base URL."""
    for found in running_example(example_binary("Bookshelf"), tmp_path, r"listening on http://[^\s]*:(\d+)"):
        yield f"http://127.0.0.1:{found.group(1)}"


def get(url, headers=None):
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=10) as response:
        return response.status, response.headers.get("Content-Type", ""), response.read()


def page(base, query=""):
    status, _, body = get(f"{base}/pages/books.json{query}")
    assert status == 200
    return json.loads(body)


def rows(document):
    return {row["id"]: row for section in document["sections"] for row in section["rows"]}


class Subscriber:
    """A page's event stream (`?format=json`), read when a test waits for a patch."""

    def __init__(self, base, query=""):
        self.connection = http.client.HTTPConnection(base.removeprefix("http://"), timeout=10)
        self.connection.request("GET", f"/pages/books/events?format=json{query}", headers={"Accept": "text/event-stream"})
        self.response = self.connection.getresponse()
        assert self.response.status == 200
        self.event = None
        # The server writes `retry:` first: from then on the subscription is in place.
        while not self.response.readline().startswith(b"retry:"):
            pass

    def replaced(self, row_id, predicate, timeout):
        """Reads patches until a `replace` op for `row_id` whose row data satisfies `predicate`
        arrives, and returns it; None after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            self.connection.sock.settimeout(left)
            try:
                line = self.response.readline().decode()
            except TimeoutError:
                return None
            if not line:
                return None
            if line.startswith("event:"):
                self.event = line.removeprefix("event:").strip()
            elif line.startswith("data:") and self.event == "patch":
                for op in json.loads(line.removeprefix("data:"))["ops"]:
                    if op["op"] == "replace" and op["row"] == row_id and predicate(op["data"]):
                        return op
        return None

    def close(self):
        self.connection.close()


def test_the_readme_shows_the_example_files_as_they_are():
    # Each block in README that follows `<!-- Examples/… -->` must be that file, whole.
    readme = open(os.path.join(ROOT, "README.md")).read()
    blocks = re.findall(r"<!-- (Examples/[^ ]+) -->\n```swift\n(.*?)```\n", readme, re.S)
    assert {path for path, _ in blocks} >= {
        "Examples/Bookshelf/Sources/Bookshelf/main.swift",
        "Examples/Bookshelf/Sources/Bookshelf/BookshelfPage.swift",
    }
    for path, code in blocks:
        assert code == open(os.path.join(ROOT, path)).read(), f"README's copy of {path} differs from the file"


def test_the_page_answers_in_html_and_json_in_both_layouts(bookshelf):
    status, content_type, html = get(bookshelf + "/pages/books")
    assert status == 200 and content_type.startswith("text/html")
    text = html.decode()
    assert "The Hobbit" in text and "Don Quixote" in text
    assert "My library" in text, "the site's title is in the bar"
    assert "/public/table-pages.js" in text, "the page's script comes with the library"

    listed = page(bookshelf)
    assert listed["title"] == "Bookshelf"
    assert len(listed["sections"]) == 1 and len(rows(listed)) == 20

    by_genre = page(bookshelf, "?layout=genres")
    assert [(section["id"], section["header"]) for section in by_genre["sections"]] == [
        ("fantasy", "Fantasy"), ("science-fiction", "Science fiction"), ("mystery", "Mystery"), ("classics", "Classics"),
    ]
    assert rows(by_genre).keys() == rows(listed).keys()

    with pytest.raises(urllib.error.HTTPError) as refused:
        get(bookshelf + "/pages/books.json?layout=shelves")
    assert refused.value.code == 400

    status, content_type, cover = get(bookshelf + "/public/bookshelf/cover.svg")
    assert status == 200 and content_type.startswith("image/svg+xml") and cover.startswith(b"<svg")


def test_a_select_is_pushed_live_to_every_viewer(bookshelf, tmp_path):
    assert rows(page(bookshelf))["book-3"].get("accessory") != "checkmark"
    # Writing needs an actor: sign in with the link the example logged.
    link = re.search(r"open: (http://\S+/-/signin\?token=\S+)", (tmp_path / "example.log").read_text()).group(1)
    signed_in = session_headers(link, bookshelf + "/pages/books")
    viewers = [Subscriber(bookshelf), Subscriber(bookshelf)]
    try:
        status, body = post(bookshelf + "/pages/books/rows/book-3/select", headers=signed_in)
        assert status == 200 and json.loads(body)["ok"] is True
        for viewer in viewers:
            assert viewer.replaced("book-3", lambda row: row.get("accessory") == "checkmark", 10), "a viewer was not sent the book marked read"
        assert rows(page(bookshelf))["book-3"]["accessory"] == "checkmark"
    finally:
        for viewer in viewers:
            viewer.close()


def test_a_cover_loaded_in_the_background_arrives_as_a_patch(bookshelf):
    # Subscribing from the version the page was read at replays anything published since, so a
    # cover that loads between the read and the subscription is not missed.
    document = page(bookshelf)
    loading = [row["id"] for row in rows(document).values() if row.get("badge") == "cover loading"]
    assert loading, "every cover had loaded before the page was first read"
    viewer = Subscriber(bookshelf, f"&lastEventId={document['version']}")
    try:
        op = viewer.replaced(loading[0], lambda row: "image" in row, 20)
        assert op, f"{loading[0]}'s cover never arrived"
        assert op["data"]["image"]["url"] == "/public/bookshelf/cover.svg"
        assert "badge" not in op["data"]
    finally:
        viewer.close()
