"""Tables named like TablePages' own pages still get pages of their own (issue 29, item 12): a table
`-/sql` beside the live SQL page (`/pages/-~2Fsql`), a table `queries/top` beside the canned query
`top` (`/pages/queries~2Ftop`), and a table named as the first one's encoded name. Each table is
listed on the index under its own URL, answers its own rows there as HTML and JSON, and the built-in
pages keep answering theirs. And the SQL page does not tell a visitor where the file is on disk."""
import json
import sqlite3
import urllib.parse
from html import unescape

import pytest

from conftest import start_server, stop_server
from test_database_names import get, index_links

RESERVED = ["-/sql", "queries/top", "queries~2Ftop", "-/events"]


def quote(name):
    return '"' + name.replace('"', '""') + '"'


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    directory = tmp_path_factory.mktemp("reserved")
    path = str(directory / "reserved.db")
    db = sqlite3.connect(path)
    for name in RESERVED:
        db.execute(f"CREATE TABLE {quote(name)} (pk INTEGER PRIMARY KEY, content TEXT)")
        db.executemany(f"INSERT INTO {quote(name)} VALUES (?, ?)", [(i, f"{name} row {i}") for i in (1, 2)])
    db.commit()
    db.close()
    (directory / "site.json").write_text(json.dumps({"queries": {"top": {"sql": "select 'the canned query' as answer"}}}))
    process, base = start_server(directory, "--database", path, "--config", str(directory / "site.json"))
    yield base, path
    stop_server(process)


@pytest.mark.parametrize("name", RESERVED)
def test_a_table_named_like_a_builtin_page_has_its_own_page(site, name):
    base, _ = site
    links = index_links(base)
    assert name in links, links
    page = links[name]
    status, text = get(base, page + ".json")
    assert status == 200, (page, text)
    rows = json.loads(text)["sections"][0]["rows"]
    assert [row["fields"]["content"] for row in rows] == [f"{name} row 1", f"{name} row 2"]
    status, html = get(base, page)
    assert status == 200 and f"{name} row 2" in unescape(html)
    status, text = get(base, page + "/rows/2.json")
    assert status == 200 and json.loads(text)["fields"]["content"] == f"{name} row 2"


def test_every_table_page_has_a_url_of_its_own(site):
    base, _ = site
    links = index_links(base)
    assert len({links[name] for name in RESERVED}) == len(RESERVED)


def test_the_builtin_pages_keep_their_urls(site):
    base, _ = site
    status, text = get(base, "/pages/-~2Fsql.json?" + urllib.parse.urlencode({"sql": "select 41 + 1 as answer"}))
    assert status == 200, text
    assert json.loads(text)["sections"][-1]["rows"][0]["fields"]["answer"] == 42
    status, text = get(base, "/pages/queries~2Ftop.json")
    assert status == 200, text
    assert "the canned query" in text


def test_the_sql_page_does_not_name_the_file_on_disk(site):
    base, path = site
    for sql in ["select * from pragma_database_list", "pragma database_list"]:
        status, text = get(base, "/-/sql.json?" + urllib.parse.urlencode({"sql": sql}))
        assert status == 400, (sql, status, text)
        assert path not in text
