#!/bin/sh
# Run once by the postgres image when it creates the primary's cluster (/docker-entrypoint-initdb.d/): a role that may
# only replicate, allowed in from the compose network, and the slot that keeps the WAL the replica still needs while
# it is down. PostgreSQL 17's defaults (wal_level = replica, max_wal_senders = 10) need no change.
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" -v password="$REPLICATION_PASSWORD" <<'SQL'
CREATE ROLE replicator WITH REPLICATION LOGIN PASSWORD :'password';
SELECT pg_create_physical_replication_slot('replica1');
SQL
# The image lets every database in from anywhere with a password, but "all" does not cover replication connections.
echo "host replication replicator all scram-sha-256" >> "$PGDATA/pg_hba.conf"
