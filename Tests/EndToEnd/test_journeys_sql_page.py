"""A person's journeys through the SQL page and a canned query in Chromium with JavaScript on, at a
laptop's and a phone's width, on SQLite and on PostgreSQL (`--database postgresql://…`). On the SQL
page they open /-/sql, type a query with a named parameter, run it and see a field for
the parameter appear, fill it in and see the rows (equal to SQLite's), then try a statement that
would write and read why it is refused. From the index they open a canned query of the
configuration file (`--config`), whose table titles and hidden table the index shows too, fill its
parameter and see its rows; then they watch it live and see a count change when an order is
added by the `sqlite3` shell or `psql`; and they type a query of their own on the SQL page, watch
it live, and see its count change the same way. Each step is checked by what the person sees, and the page
never scrolls sideways, never logs a console error but the refusal's own 400."""
import json
import sqlite3
import urllib.parse

import pytest
from selenium.webdriver.common.by import By

import subprocess

from conftest import psql, reader_url, start_server, stop_server, wait_until
from journey import SIZE_IDS, SIZES, check_step, live, navigate, read_only_database_site, set_size
from test_journeys_database_tools import make_orders, sqlite_rows

SQL = "select status, count(*) as n, sum(total) as total\nfrom orders\nwhere customer = :customer\ngroup by status\norder by status"


CONFIG = {
    "tables": {"orders": {"title": "Orders", "description": "Every order, one a row"}, "hidden_notes": {"hidden": True}},
    "queries": {"by_customer": {
        "title": "Orders of a customer", "description": "Their orders by status",
        "sql": "select status, count(*) as n, sum(total) as total from orders where customer = :customer group by status order by status",
    }},
}


def write_config(directory):
    path = directory / "site.json"
    path.write_text(json.dumps(CONFIG))
    return str(path)


def make_shop(path):
    make_orders(path)
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE hidden_notes (id INTEGER PRIMARY KEY, note TEXT)")


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def shop(request, tmp_path_factory):
    """(base URL, a function running a query on the served database and returning its rows as
    (text, int, float) tuples, what the page says to a DELETE, the database's kind, a function
    running SQL as another client would: the `sqlite3` shell or `psql`)."""
    if request.param == "sqlite":
        config = write_config(tmp_path_factory.mktemp("journey-sql-config"))
        for base, database, _ in read_only_database_site(tmp_path_factory, "journey-sql-page", make_shop, "--config", config):
            yield (base, lambda sql: sqlite_rows(database, sql), "Only SELECT statements are allowed: this one would delete rows.", "sqlite",
                   lambda sql: subprocess.run(["sqlite3", str(database), sql], check=True))
        return
    from test_live_queries import copy_orders_to_postgres
    from test_postgres_tables import drop_database, fresh_database
    cluster = request.getfixturevalue("postgres_cluster")
    url = fresh_database(cluster, "pg_sql_journey")
    path = tmp_path_factory.mktemp("journey-sql-page-pg") / "orders.sqlite"
    make_orders(path)
    copy_orders_to_postgres(path, url, "CREATE TABLE hidden_notes (id integer PRIMARY KEY, note text)")

    def rows_of(sql):
        return [(status, int(n), float(total)) for status, n, total in
                (line.split("|") for line in psql(url, sql).splitlines() if line)]
    process, base = start_server(path.parent, "--database", url, "--watch", "--config", write_config(path.parent), "--sql-url", reader_url(url),
                                 anonymous_writes=False)
    yield (base, rows_of, "Only SELECT statements are allowed (SELECT, WITH, VALUES, TABLE, EXPLAIN): this one begins with DELETE.", "postgresql",
           lambda sql: psql(url, sql))
    stop_server(process)
    drop_database(cluster, "pg_sql_journey")


def shown_rows(browser):
    return browser.execute_script(
        "return [...document.querySelectorAll('.tp-sql-result tbody tr')].map((row) => [...row.cells].map((cell) => cell.textContent))")


def type_sql(browser, sql):
    area = browser.find_element(By.CSS_SELECTOR, "textarea[name='sql']")
    area.clear()
    area.send_keys(sql)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_type_sql_fill_a_parameter_and_see_the_rows(shop, browser, size):
    base, rows_of, refusal, kind, _ = shop
    set_size(browser, size)
    browser.get(base + "/-/sql")
    assert browser.find_element(By.TAG_NAME, "h1").text == "SQL"
    assert browser.find_elements(By.CSS_SELECTOR, ".tp-sql-result") == [], "no result before a query"
    check_step(browser, f"sql-1-empty-{kind}", size)

    # Typed SQL with a parameter: running it shows a field for the parameter, and no rows yet.
    type_sql(browser, SQL)
    navigate(browser, browser.find_element(By.CSS_SELECTOR, ".tp-sql-form button[type='submit']").click)
    field = browser.find_element(By.CSS_SELECTOR, ".tp-sql-parameters input[name='customer']")
    assert field.is_displayed() and field.get_attribute("value") == ""
    assert browser.find_element(By.CSS_SELECTOR, "label[for='%s']" % field.get_attribute("id")).text == "customer"
    assert browser.find_element(By.CSS_SELECTOR, ".tp-sql-summary").text.startswith("0 rows")
    assert browser.find_element(By.CSS_SELECTOR, "textarea[name='sql']").get_attribute("value") == SQL

    # Filled in: the rows are SQLite's.
    field.send_keys("Grace Hopper")
    navigate(browser, browser.find_element(By.CSS_SELECTOR, ".tp-sql-form button[type='submit']").click)
    expected = rows_of(SQL.replace(":customer", "'Grace Hopper'"))
    assert [[cells[0], int(cells[1]), float(cells[2])] for cells in shown_rows(browser)] == [list(row) for row in expected]
    assert [cell.text for cell in browser.find_elements(By.CSS_SELECTOR, ".tp-sql-result th")] == ["status", "n", "total"]
    summary = browser.find_element(By.CSS_SELECTOR, ".tp-sql-summary").text
    assert summary.startswith(f"{len(expected)} rows")
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(browser.current_url).query)
    assert query == {"sql": [SQL.replace("\n", "\r\n")], "customer": ["Grace Hopper"]}
    json_link = browser.find_element(By.LINK_TEXT, "JSON").get_attribute("href")
    assert urllib.parse.urlsplit(json_link).path == "/-/sql.json"
    check_step(browser, f"sql-2-rows-{kind}", size)

    # A statement that would write is refused, saying why, and changes nothing.
    type_sql(browser, "delete from orders")
    navigate(browser, browser.find_element(By.CSS_SELECTOR, ".tp-sql-form button[type='submit']").click)
    error = browser.find_element(By.CSS_SELECTOR, ".tp-sql-error")
    assert error.is_displayed() and error.text == refusal
    assert browser.find_elements(By.CSS_SELECTOR, ".tp-sql-result") == []
    check_step(browser, f"sql-3-refused-{kind}", size, expected_error="400")
    assert rows_of("select 'all', count(*), 0 from orders") == [("all", 300, 0.0)]


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_a_canned_query_from_the_index(shop, browser, size):
    base, rows_of, _, kind, write = shop
    set_size(browser, size)
    browser.get(base + "/")
    titles = [element.text for element in browser.find_elements(By.CSS_SELECTOR, ".tp-pages strong")]
    assert "Orders" in titles and "orders" not in titles and "hidden_notes" not in titles
    assert titles[-2:] == ["SQL", "Orders of a customer"]
    assert "Every order, one a row" in browser.find_element(By.CSS_SELECTOR, ".tp-pages").text
    check_step(browser, f"canned-1-index-{kind}", size)

    navigate(browser, browser.find_element(By.PARTIAL_LINK_TEXT, "Orders of a customer").click)
    assert urllib.parse.urlsplit(browser.current_url).path == "/-/queries/by_customer"
    assert browser.find_element(By.TAG_NAME, "h1").text == "Orders of a customer"
    assert browser.find_element(By.CSS_SELECTOR, ".tp-sql-description").text == "Their orders by status"
    assert browser.find_element(By.CSS_SELECTOR, ".tp-sql-code").text == CONFIG["queries"]["by_customer"]["sql"]
    assert browser.find_elements(By.CSS_SELECTOR, "textarea") == [], "a canned query's SQL is not for editing"
    field = browser.find_element(By.CSS_SELECTOR, ".tp-sql-parameters input[name='customer']")
    field.send_keys("Ada Lovelace")
    navigate(browser, browser.find_element(By.CSS_SELECTOR, ".tp-sql-form button[type='submit']").click)
    expected = rows_of(CONFIG["queries"]["by_customer"]["sql"].replace(":customer", "'Ada Lovelace'"))
    assert len(expected) == 5
    assert [[cells[0], int(cells[1]), float(cells[2])] for cells in shown_rows(browser)] == [list(row) for row in expected]
    assert urllib.parse.parse_qs(urllib.parse.urlsplit(browser.current_url).query) == {"customer": ["Ada Lovelace"]}
    check_step(browser, f"canned-2-rows-{kind}", size)

    navigate(browser, browser.find_element(By.LINK_TEXT, "Watch live").click)
    assert urllib.parse.urlsplit(browser.current_url).path == "/pages/queries~2Fby_customer"
    assert wait_until(lambda: live(browser), 5), "the live page's stream opens"

    def count_of(status):
        return shown_count(browser, status, "n")
    before = count_of("paid")
    assert before == dict((row[0], row[1]) for row in expected)["paid"]
    check_step(browser, f"canned-3-live-{kind}", size)
    write("insert into orders (customer, status, total) values ('Ada Lovelace', 'paid', 10)")
    assert wait_until(lambda: count_of("paid") == before + 1, 3), "the changed group shows its new count"
    assert count_of("shipped") == dict((row[0], row[1]) for row in expected)["shipped"]
    check_step(browser, f"canned-4-live-changed-{kind}", size)


def shown_count(browser, status, column):
    """The value of `column` in the live page's row of `status`, or None before the row shows."""
    return browser.execute_script(
        "const row = [...document.querySelectorAll(\".tk-row[data-kind='record']\")]"
        ".find((row) => row.querySelector(\"[data-field='status'] .tk-field-value\").textContent === arguments[0]);"
        "const cell = row && row.querySelector(`[data-field='${arguments[1]}'] .tk-field-value`);"
        "return cell && Number(cell.textContent)", status, column)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_type_sql_and_watch_it_live(shop, browser, size):
    base, rows_of, _, kind, write = shop
    set_size(browser, size)
    browser.get(base + "/-/sql")
    type_sql(browser, "SELECT status, count(*) AS n FROM orders GROUP BY status")
    navigate(browser, browser.find_element(By.CSS_SELECTOR, ".tp-sql-form button[type='submit']").click)
    expected = dict((status, n) for status, n, _ in rows_of("select status, count(*), 0 from orders group by status"))
    assert {cells[0]: int(cells[1]) for cells in shown_rows(browser)} == expected

    navigate(browser, browser.find_element(By.LINK_TEXT, "Watch live").click)
    assert urllib.parse.urlsplit(browser.current_url).path == "/pages/-~2Fsql"
    assert wait_until(lambda: live(browser), 5), "the live page's stream opens"
    assert shown_count(browser, "paid", "n") == expected["paid"]
    check_step(browser, f"sql-live-1-{kind}", size)
    write("insert into orders (customer, status, total) values ('Grace Hopper', 'paid', 10)")
    assert wait_until(lambda: shown_count(browser, "paid", "n") == expected["paid"] + 1, 3), "the changed group shows its new count"
    assert shown_count(browser, "shipped", "n") == expected["shipped"]
    check_step(browser, f"sql-live-2-changed-{kind}", size)

    # Back to the SQL page, the SQL in its field.
    navigate(browser, browser.find_element(By.LINK_TEXT, "Edit the SQL").click)
    assert urllib.parse.urlsplit(browser.current_url).path == "/-/sql"
    assert browser.find_element(By.CSS_SELECTOR, "textarea[name='sql']").get_attribute("value") == "SELECT status, count(*) AS n FROM orders GROUP BY status"
