#!/bin/sh
# The replica of compose.yaml's `scale` profile: on its first start (an empty volume) a base backup of the primary
# through its slot, with standby.signal and primary_conninfo written by pg_basebackup -R; then the image's own
# entrypoint runs PostgreSQL as a hot standby, which streams from the primary from then on.
set -eu
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  mkdir -p "$PGDATA"
  chown postgres:postgres "$PGDATA"
  chmod 700 "$PGDATA"
  until pg_isready --host "$PRIMARY_HOST" --port 5432 --quiet; do
    echo "waiting for the primary at $PRIMARY_HOST"
    sleep 2
  done
  PGPASSWORD="$REPLICATION_PASSWORD" gosu postgres pg_basebackup --host "$PRIMARY_HOST" --port 5432 --username replicator \
    --pgdata "$PGDATA" --wal-method stream --slot replica1 --write-recovery-conf --checkpoint fast --progress
fi
# Feedback: the primary keeps the rows a long read here (an export, analytics) still needs instead of replay
# cancelling the read.
exec docker-entrypoint.sh postgres -c hot_standby=on -c hot_standby_feedback=on
