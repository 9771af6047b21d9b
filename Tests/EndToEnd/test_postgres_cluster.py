"""The private PostgreSQL cluster the scale-out tests start (scripts/postgres-cluster) works on this machine."""
from conftest import psql


def test_a_private_cluster_gives_each_test_its_own_database(postgres_database):
    psql(postgres_database, "CREATE TABLE t (id integer PRIMARY KEY, title text)")
    psql(postgres_database, "INSERT INTO t VALUES (1, 'one'), (2, 'two')")
    assert psql(postgres_database, "SELECT string_agg(title, ',' ORDER BY id) FROM t").strip() == "one,two"
    assert psql(postgres_database, "SHOW listen_addresses").strip() == "127.0.0.1"
