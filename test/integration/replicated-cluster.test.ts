import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReplicatedCluster, replicatedClusterSkipReason, startReplicatedCluster } from '../support/replicated-cluster.js';

// The harness other tests of issue 29 stand on: if it quietly ran a session-mode pool or a replica that never
// replays, their assertions about the pool and replica lag would prove nothing.
const skipReason = replicatedClusterSkipReason();
if (skipReason) console.warn(skipReason);

describe.skipIf(skipReason !== undefined)('a replicated cluster (primary, streaming replica, PgBouncer)', () => {
  let cluster: ReplicatedCluster;
  const clients: pg.Client[] = [];
  const connect = async (url: string) => {
    const client = new pg.Client({ connectionString: url });
    client.on('error', () => undefined);
    await client.connect();
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    cluster = await startReplicatedCluster();
    const primary = await connect(cluster.directUrl);
    await primary.query('create table replicated_notes (id int primary key, body text not null)');
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.end().catch(() => undefined)));
    await cluster?.destroy();
  });

  it('reads on the replica what was written on the primary', async () => {
    const primary = await connect(cluster.directUrl);
    const replica = await connect(cluster.replicaUrl);
    await primary.query(`insert into replicated_notes values (1, 'written on the primary')`);
    await expect.poll(async () => (await replica.query('select body from replicated_notes where id = 1')).rows[0]?.body)
      .toBe('written on the primary');
    await expect(replica.query(`insert into replicated_notes values (2, 'on a replica')`)).rejects.toThrow(/read-only transaction/);
  });

  it('serves queries through PgBouncer, which does not keep a named prepared statement past its transaction', async () => {
    const pooled = await connect(cluster.pooledUrl);
    const other = await connect(cluster.pooledUrl);
    const named = { name: 'note_by_id', text: 'select $1::int as id' };
    expect((await pooled.query({ ...named, values: [1] })).rows).toEqual([{ id: 1 }]);
    // The other client's open transaction holds the server connection the statement was prepared on, so the next
    // transaction gets another, which never saw it (pg does not prepare a name it has prepared before).
    await other.query('begin');
    await other.query('select 1');
    await expect(pooled.query({ ...named, values: [2] })).rejects.toThrow(/prepared statement "note_by_id" does not exist/);
    const pools = await cluster.pgbouncerShow('POOLS');
    expect(pools.find((pool) => pool.database === 'postgres' && pool.user === 'qroute')).toMatchObject({ pool_mode: 'transaction', sv_active: 1 });
    await other.query('commit');
  });

  it('stops replaying while replay is paused, and catches up once resumed', async () => {
    const primary = await connect(cluster.directUrl);
    const replica = await connect(cluster.replicaUrl);
    const replicaAdmin = await connect(cluster.replicaAdminUrl);
    await cluster.pauseReplay();
    await primary.query(`insert into replicated_notes values (3, 'written while replay is paused')`);
    const { rows } = await primary.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn');
    // Received but not replayed: the replica has the row's WAL and still does not show it.
    await expect.poll(async () => (await replicaAdmin.query('select pg_last_wal_receive_lsn() >= $1::pg_lsn as received', [rows[0]!.lsn])).rows[0].received)
      .toBe(true);
    expect((await replica.query('select count(*)::int as n from replicated_notes where id = 3')).rows[0].n).toBe(0);
    await cluster.resumeReplay();
    await cluster.waitForReplay();
    expect((await replica.query('select body from replicated_notes where id = 3')).rows[0]?.body).toBe('written while replay is paused');
  });

  it('catches up after the replica was stopped, from the WAL its slot kept', async () => {
    const primary = await connect(cluster.directUrl);
    const primaryAdmin = await connect(cluster.adminUrl);
    await cluster.stopReplica();
    await primary.query(`insert into replicated_notes values (4, 'written while the replica was down')`);
    // Into a new WAL segment and past a checkpoint: without the slot the primary could recycle what the stopped
    // replica has not seen.
    await primaryAdmin.query('select pg_switch_wal()');
    await primaryAdmin.query('checkpoint');
    await cluster.startReplica();
    await cluster.waitForReplay();
    const replica = await connect(cluster.replicaUrl);
    expect((await replica.query('select body from replicated_notes where id = 4')).rows[0]?.body).toBe('written while the replica was down');
  });
});
