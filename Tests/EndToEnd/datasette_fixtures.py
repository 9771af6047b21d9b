"""Datasette's own test database, `fixtures.db`, made at test time from Datasette's source on PyPI.

Datasette 0.65.5's sdist leaves its tests/fixtures.py out, so the tables come from the module that
replaced it, `datasette/fixtures.py` of the 1.0a41 wheel (the same tables as 0.65's, plus `units`).
The wheel is downloaded once with pip into `.build/datasette-fixtures/` and read from there after
(the second run needs no network); nothing of Datasette's is kept in this repository."""
import os
import subprocess
import sys
import zipfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CACHE = os.path.join(ROOT, ".build", "datasette-fixtures")
SOURCE_VERSION = "1.0a41"
WHEEL = f"datasette-{SOURCE_VERSION}-py3-none-any.whl"


def fixtures_source():
    """The text of Datasette's fixtures module, from the cached wheel (downloaded when missing)."""
    wheel = os.path.join(CACHE, WHEEL)
    if not os.path.exists(wheel):
        os.makedirs(CACHE, exist_ok=True)
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", f"datasette=={SOURCE_VERSION}", "-d", CACHE],
                       check=True, timeout=600)
    with zipfile.ZipFile(wheel) as archive:
        return archive.read("datasette/fixtures.py").decode()


def write_fixtures(path):
    """Writes Datasette's fixture tables to a new SQLite file at `path`."""
    # The module marks functions for 1.0's documentation with a decorator 0.65.5 spells
    # differently; it changes nothing else, so it is left out here.
    source = fixtures_source().replace("from datasette.utils import documented",
                                       "def documented(*_, **__):\n    return lambda function: function")
    namespace = {"__name__": "datasette_fixtures_module"}
    exec(compile(source, "datasette/fixtures.py", "exec"), namespace)
    namespace["write_fixture_database"](str(path))
