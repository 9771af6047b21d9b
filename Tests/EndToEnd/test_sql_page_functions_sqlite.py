"""Random SELECTs over every function the server's SQLite offers, sent to the SQL page as an
anonymous visitor (issue 29): names written plain, quoted ("f", [f], `f`) and in odd case, with
arguments of every kind (huge and negative integers, long and hostile texts, blobs, NULL, nested
calls). After each request: the answer is 200 or a clear 4xx/503 (never another 5xx), the database
file and its folder are as they were (nothing written, no file made), the answer names no path of
the server's, and the server still answers; at the end its memory stayed under a bound."""
import hashlib
import json
import os
import sqlite3
import urllib.error
import urllib.parse
import urllib.request

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import start_server, stop_server

# VmHWM of the server after every example: the SQL page answers at most --sql-result-size (8 MiB)
# and no value may grow past it while a query runs.
RSS_BOUND_KB = 400 * 1024


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    directory = tmp_path_factory.mktemp("sqlfunctions")
    path = str(directory / "data" / "shop.db")
    os.makedirs(os.path.dirname(path))
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT, price REAL, picture BLOB)")
    db.executemany("INSERT INTO items VALUES (?, ?, ?, ?)", [(i, f"item {i}", i * 1.5, bytes([i])) for i in range(1, 20)])
    db.commit()
    db.close()
    process, base = start_server(directory, "--database", path)
    status, text = get(base, "select name, narg from pragma_function_list")
    assert status == 200, text
    functions = sorted({(row[0], row[1]) for row in json.loads(text)["rows"]})
    yield base, path, process, functions
    stop_server(process)


def get(base, sql):
    url = base + "/-/sql.json?" + urllib.parse.urlencode({"sql": sql, "_shape": "arrays"})
    try:
        with urllib.request.urlopen(url, timeout=60) as response:
            return response.status, response.read().decode(errors="replace")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(errors="replace")


def fingerprint(path):
    folder = os.path.dirname(path)
    with open(path, "rb") as file:
        digest = hashlib.sha256(file.read()).hexdigest()
    return digest, sorted(os.listdir(folder))


def high_water_kb(process):
    with open(f"/proc/{process.pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def spelled(name, style):
    return [name, name.upper(), '"' + name + '"', "[" + name + "]", "`" + name + "`", name.swapcase()][style]


texts = st.sampled_from(["''", "'x'", "'%'", "'%.*c'", "'%*d'", "'%.*c%.*c'", "'/etc/hostname'", "'main'", "'sqlite_master'", "'items'",
                         "'select 1'", "'attach ''/tmp/x'' as y'", "'\\u0000'", "'{\"a\":[1,2]}'", "'$.a'", "'ü✓'"])
# Large counts half the time: a length, a repeat or a width is where one call grows a value.
numbers = st.one_of(st.sampled_from(["0", "1", "-1", "2", "10", "1e308", "0.5", "NULL", "-9223372036854775808"]),
                    st.sampled_from(["1000000", "30000000", "300000000", "900000000", "2147483647", "9223372036854775807"]))
blobs = st.sampled_from(["x''", "x'00'", "x'deadbeef'", "zeroblob(4)", "picture"])
columns = st.sampled_from(["id", "name", "price", "picture"])


# Functions whose one call can make a large value or run long: drawn as often as all the others.
COSTLY = ["zeroblob", "randomblob", "printf", "format", "replace", "substr", "hex", "quote", "group_concat", "json_array",
          "json_group_array", "char", "upper", "lower", "trim", "instr", "like", "glob", "length", "unicode", "concat"]


@st.composite
def calls(draw, functions, depth=0):
    costly = [entry for entry in functions if entry[0] in COSTLY]
    name, narg = draw(st.sampled_from(costly if costly and draw(st.integers(0, 3)) > 0 else functions))
    count = draw(st.integers(0, 3)) if narg < 0 else narg
    arguments = []
    for _ in range(count):
        if depth < 2 and draw(st.integers(0, 4)) == 0:
            arguments.append(draw(calls(functions, depth + 1)))
        else:
            arguments.append(draw(st.one_of(numbers, texts, numbers, blobs, columns)))
    return spelled(name, draw(st.integers(0, 5))) + "(" + ", ".join(arguments) + ")"


@st.composite
def selects(draw, functions):
    terms = draw(st.lists(calls(functions), min_size=1, max_size=3))
    source = draw(st.sampled_from(["", " FROM items", " FROM items WHERE id < 3", " FROM items GROUP BY name"]))
    return "SELECT " + ", ".join(terms) + source


def test_random_function_calls_touch_nothing_and_never_fail_the_server(site):
    base, path, process, functions = site
    before = fingerprint(path)
    folder = os.path.dirname(os.path.abspath(path))
    statuses = {}

    @settings(max_examples=400, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck), database=None)
    @given(st.data())
    def check(data):
        sql = data.draw(selects(functions))
        status, text = get(base, sql)
        statuses[status] = statuses.get(status, 0) + 1
        assert status in (200, 400, 503), (sql, status, text[:500])
        assert folder not in text, sql
        assert fingerprint(path) == before, sql
        assert process.poll() is None, sql

    check()
    print("statuses", statuses, "VmHWM kB", high_water_kb(process))
    assert statuses.get(200, 0) > 20, statuses
    assert high_water_kb(process) < RSS_BOUND_KB, high_water_kb(process)
    # Still answering, and still reading the file as it was.
    status, text = get(base, "select count(*) from items")
    assert status == 200 and json.loads(text)["rows"] == [[19]]
