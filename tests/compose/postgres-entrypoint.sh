#!/bin/sh
# As the official image does on an empty volume: a cluster whose superuser is POSTGRES_USER with
# POSTGRES_PASSWORD, a database POSTGRES_DB, and password logins from the network.
set -eu
mkdir -p "$PGDATA" /run/postgresql
chown -R postgres:postgres "$PGDATA" /run/postgresql
chmod 700 "$PGDATA"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  printf '%s\n' "$POSTGRES_PASSWORD" >/tmp/pwfile
  chown postgres /tmp/pwfile
  runuser -u postgres -- initdb -D "$PGDATA" -U "$POSTGRES_USER" --pwfile=/tmp/pwfile --auth-host=scram-sha-256 --auth-local=trust >/dev/null
  rm /tmp/pwfile
  echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
  runuser -u postgres -- pg_ctl -D "$PGDATA" -w -o "-c listen_addresses=''" start >/dev/null
  runuser -u postgres -- createdb -U "$POSTGRES_USER" "$POSTGRES_DB"
  runuser -u postgres -- pg_ctl -D "$PGDATA" -w stop >/dev/null
fi
# setpriv execs, so PostgreSQL itself is process 1 and gets `docker stop`'s SIGTERM (runuser would stay in between).
exec setpriv --reuid=postgres --regid=postgres --init-groups postgres -D "$PGDATA" -c listen_addresses="*"
