#!/bin/sh
# First start: a cluster owned by POSTGRES_USER with POSTGRES_PASSWORD (scram-sha-256 from other
# hosts, trust on the container's own socket), and the database POSTGRES_DB. Later starts keep it.
set -eu
user=${POSTGRES_USER:-postgres}
database=${POSTGRES_DB:-$user}
if [ ! -s "$PGDATA/PG_VERSION" ]; then
    printf '%s\n' "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is required}" > /tmp/password
    initdb -D "$PGDATA" -U "$user" --pwfile=/tmp/password --auth-local=trust --auth-host=scram-sha-256 -E UTF8 > /dev/null
    rm -f /tmp/password
    echo "host all all 0.0.0.0/0 scram-sha-256" >> "$PGDATA/pg_hba.conf"
    pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start > /dev/null
    [ "$database" = postgres ] || createdb -U "$user" "$database"
    pg_ctl -D "$PGDATA" -m fast -w stop > /dev/null
fi
exec postgres -D "$PGDATA" -c listen_addresses='*'
