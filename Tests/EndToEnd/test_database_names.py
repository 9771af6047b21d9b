"""Every table name works at every URL of `/pages/`: a name with `/`, `.`, `%`, `?`, `#`, spaces,
unicode, or one that ends like a format (`x.csv`, `x.json` beside a table `x`) has its HTML, JSON,
CSV, NDJSON, row and section URLs, and the index links to them. CSV keeps NULL, empty text and an
empty blob apart, and Python's csv reader reads every row of it (datasette_corpus.py's file)."""
import csv
import io
import json
import re
import sqlite3
import urllib.error
import urllib.parse
import urllib.request
from html import unescape

import pytest

from conftest import start_server, stop_server
from datasette_corpus import ODD_NAMES, build


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    directory = tmp_path_factory.mktemp("names")
    path = str(directory / "corpus.db")
    build(path)
    process, base = start_server(directory, "--database", path)
    yield base, path
    stop_server(process)


def get(base, path, accept=None):
    request = urllib.request.Request(base + path, headers={"Accept": accept} if accept else {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def index_links(base):
    status, html = get(base, "/")
    assert status == 200
    return {unescape(m.group(2)): unescape(m.group(1)) for m in re.finditer(r'<li><a href="([^"]+)"><strong>([^<]*)</strong>', html)}


@pytest.mark.parametrize("name", ODD_NAMES)
def test_every_url_of_an_odd_name_answers_for_that_table(site, name):
    base, _ = site
    links = index_links(base)
    assert name in links, links
    page = links[name]
    status, html = get(base, page)
    assert status == 200 and f"{name} row 1".replace("&", "&amp;") in html, (page, status)
    status, text = get(base, page + ".json")
    assert status == 200, (page, text)
    document = json.loads(text)
    section = document["sections"][0]
    assert [row["fields"]["content"] for row in section["rows"]] == [f"{name} row {i}" for i in (1, 2, 3)]
    status, text = get(base, page + ".csv")
    assert status == 200
    assert list(csv.reader(io.StringIO(text))) == [["pk", "content"]] + [[str(i), f"{name} row {i}"] for i in (1, 2, 3)]
    status, text = get(base, page + ".ndjson")
    assert status == 200
    assert [json.loads(line)["content"] for line in text.splitlines()] == [f"{name} row {i}" for i in (1, 2, 3)]
    status, text = get(base, page + "/rows/2")
    assert status == 200 and f"{name} row 2" in unescape(text), (page, status)
    status, text = get(base, page + "/rows/2.json")
    assert status == 200 and json.loads(text)["fields"]["content"] == f"{name} row 2"
    status, text = get(base, page + "/sections/all.json?after=1&limit=1")
    assert status == 200
    assert [row["id"] for row in json.loads(text)["rows"]] == ["2"]
    # JSON by Accept, the page's own `next` link, and the links the page itself writes.
    status, text = get(base, page + "?limit=1", accept="application/json")
    assert status == 200
    next_link = json.loads(text)["sections"][0]["next"]
    status, text = get(base, next_link)
    assert status == 200 and [row["id"] for row in json.loads(text)["rows"]] == ["2"]
    for link in set(re.findall(r'href="(/pages/[^"?]+)', html)):
        assert get(base, unescape(link))[0] == 200, link


def test_a_table_and_one_named_like_its_csv_are_two_pages(site):
    base, _ = site
    links = index_links(base)
    assert links["x"] != links["x.csv"] and links["x.csv"] != links["x"] + ".csv"
    status, text = get(base, links["x"] + ".csv")
    assert status == 200 and "x row 1" in text and "x.csv row 1" not in text
    status, text = get(base, links["x.csv"] + ".json")
    assert status == 200 and json.loads(text)["title"] == "x.csv"


def test_csv_keeps_null_empty_text_and_an_empty_blob_apart_and_every_row_reads(site):
    base, path = site
    links = index_links(base)
    status, text = get(base, links["one_column"] + ".csv")
    assert status == 200
    lines = text.split("\r\n")
    assert lines[:6] == ["v", "\\N", '""', "\\x", "x", "0"]
    with sqlite3.connect(path) as db:
        count = db.execute("SELECT count(*) FROM one_column").fetchone()[0]
    assert len(list(csv.reader(io.StringIO(text)))) == count + 1
    status, text = get(base, links["no_pk"] + ".csv")
    rows = list(csv.reader(io.StringIO(text)))
    with sqlite3.connect(path) as db:
        assert len(rows) == db.execute("SELECT count(*) FROM no_pk").fetchone()[0] + 1
    # NULLs, then empty text, an empty blob, 0.0, 0 and empty text in an untyped column.
    assert text.split("\r\n")[1:3] == [",,,,", '"",\\x,0,0,""']


def test_every_row_and_group_of_keys_that_end_like_a_format_has_its_pages(site):
    base, _ = site
    links = index_links(base)
    page = links["compound_pk"]
    status, text = get(base, page + ".json?limit=1000")
    assert status == 200
    rows = json.loads(text)["sections"][0]["rows"]
    assert any(row["fields"]["a"] == "report.json" for row in rows)
    for row in rows:
        row_path = page + "/rows/" + urllib.parse.quote(row["id"], safe="")
        status, html = get(base, row_path)
        assert status == 200 and "tk-row-page" in html, row_path
        status, text = get(base, row_path + ".json")
        assert status == 200 and json.loads(text)["fields"] == row["fields"], row_path
    # Sections by a column whose values end like formats.
    status, text = get(base, page + ".json?group=a&limit=2")
    assert status == 200
    for section in json.loads(text)["sections"]:
        section_path = page + "/sections/" + urllib.parse.quote(section["id"], safe="")
        assert get(base, section_path + "?group=a")[0] == 200, section_path
        status, text = get(base, section_path + ".json?group=a")
        assert status == 200 and json.loads(text)["rows"][0]["id"] == section["rows"][0]["id"], section_path
