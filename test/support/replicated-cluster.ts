import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { startEmbeddedPostgres, type RunningEmbeddedPostgres } from '../../src/db/embedded-postgres.js';
import { placeEmbeddedPostgres } from '../../src/db/embedded-postgres-location.js';
import { readInfo, writeInfo } from '../../src/db/embedded-postgres-settings.js';
import { freePort } from '../../src/net.js';
import { PGBOUNCER_BINARY, pgbouncerInstalled, startPgBouncer } from '../../scripts/cluster/pgbouncer.mjs';
import { makeStandby, waitForStreaming } from '../../scripts/cluster/standby.mjs';
import { type OwnCluster, startOwnCluster } from './own-cluster.js';

/**
 * The production topology of issue 29 on this machine, with real processes: a primary (a copy of the run's migrated
 * cluster, as own-cluster.ts makes), a streaming replica of it made with the low-level backup API, and PgBouncer in
 * transaction mode in front of the primary. What qroute's settings point at: `pooledUrl` is DATABASE_URL,
 * `directUrl` DATABASE_DIRECT_URL, `replicaUrl` DATABASE_READ_URL.
 */
export interface ReplicatedCluster {
  /** The primary, as the service's role: what DATABASE_DIRECT_URL points at. */
  directUrl: string;
  /** The primary through PgBouncer (transaction mode), as the service's role: DATABASE_URL. */
  pooledUrl: string;
  /** The streaming replica, as the service's role: DATABASE_READ_URL. */
  replicaUrl: string;
  /** The primary as the superuser. */
  adminUrl: string;
  /** The replica as the superuser. */
  replicaAdminUrl: string;
  /** PgBouncer's admin console (the `pgbouncer` database). */
  pgbouncerAdminUrl: string;
  /** The primary's own controls (stop, kill, freeze...), as own-cluster.ts gives them. */
  primary: OwnCluster;
  /** pg_wal_replay_pause() on the replica; resolves once replay has stopped (not only been asked to). */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** `pg_ctl stop -m fast` on the replica; its slot keeps the WAL it will need. */
  stopReplica(): Promise<void>;
  /** Starts the replica again on the same port and waits until it streams. */
  startReplica(): Promise<void>;
  /** Resolves once the replica has replayed everything the primary had written when it was called. */
  waitForReplay(timeoutMs?: number): Promise<void>;
  /** `SHOW <what>` on PgBouncer's admin console (POOLS, STATS, CLIENTS, SERVERS...): its rows. */
  pgbouncerShow(what: string): Promise<Record<string, unknown>[]>;
  /** Stops every process and removes every file, whatever state the cluster is in. */
  destroy(): Promise<void>;
}

export interface ReplicatedClusterOptions {
  /** PgBouncer's default_pool_size: server connections per database and user (default 4, so tests see sharing). */
  poolSize?: number;
}

/** Why the cluster cannot start here, or undefined: PgBouncer is missing outside CI (.ci/run installs it in CI). */
export function replicatedClusterSkipReason(): string | undefined {
  if (pgbouncerInstalled() || process.env.CI) return undefined;
  return `PgBouncer is not installed (${PGBOUNCER_BINARY}; apt-get install pgbouncer): the replicated-cluster tests are skipped`;
}

const SLOT = 'replica';

export async function startReplicatedCluster(options: ReplicatedClusterOptions = {}): Promise<ReplicatedCluster> {
  const logger = pino({ level: 'silent' });
  // Undone in reverse order, on destroy or when a step fails midway: nothing started is left running.
  const undo: (() => Promise<unknown>)[] = [];
  const undoAll = async () => {
    for (const step of undo.splice(0).reverse()) await step().catch(() => undefined);
  };
  try {
    const primary = await startOwnCluster();
    undo.push(() => primary.destroy());
    const adminUrl = primary.adminConnectionString;

    const replicaDir = await fs.mkdtemp(path.join(os.tmpdir(), 'qroute-replica-pg-'));
    undo.push(() => fs.rm(replicaDir, { recursive: true, force: true }));
    const { runAs, pgData } = await placeEmbeddedPostgres(replicaDir);
    await makeStandby({ primaryAdminUrl: adminUrl, standbyPgData: pgData, runAs, slot: SLOT });
    // The same roles and passwords as the primary (they are in the copy); a port of its own.
    const read = await readInfo(path.join(primary.dataDir, 'postgres.json'));
    if (!('info' in read)) throw new Error(`the primary's postgres.json is ${read.problem}`);
    const info = read.info;
    await writeInfo(path.join(replicaDir, 'postgres.json'), { ...info, port: 0 });
    let replica: RunningEmbeddedPostgres = await startEmbeddedPostgres(replicaDir, logger, { create: false });
    undo.push(() => replica.stop());
    await waitForStreaming(adminUrl, SLOT);

    const pgbouncerDir = await fs.mkdtemp(path.join(os.tmpdir(), 'qroute-pgbouncer-'));
    undo.push(() => fs.rm(pgbouncerDir, { recursive: true, force: true }));
    const pgbouncer = await startPgBouncer({
      dir: pgbouncerDir,
      port: await freePort(),
      server: { host: '127.0.0.1', port: Number(new URL(primary.connectionString).port) },
      users: [{ name: info.user, password: info.password }, { name: info.adminUser!, password: info.adminPassword! }],
      adminUser: info.adminUser!,
      runAs,
      poolSize: options.poolSize ?? 4,
    });
    undo.push(() => pgbouncer.stop());

    const replicaPort = replica.port;
    return {
      directUrl: primary.connectionString,
      pooledUrl: pgbouncer.url(info.user, info.password),
      replicaUrl: replica.connectionString(),
      adminUrl,
      replicaAdminUrl: replica.adminConnectionString(),
      pgbouncerAdminUrl: pgbouncer.adminUrl,
      primary,
      pauseReplay: async () => {
        await query(replica.adminConnectionString(), 'select pg_wal_replay_pause()');
        await until(async () => (await query(replica.adminConnectionString(), 'select pg_get_wal_replay_pause_state() as state'))[0]!.state === 'paused',
          10_000, 'replay on the replica did not pause');
      },
      resumeReplay: async () => {
        await query(replica.adminConnectionString(), 'select pg_wal_replay_resume()');
      },
      stopReplica: () => replica.stop(),
      startReplica: async () => {
        replica = await startEmbeddedPostgres(replicaDir, logger, { create: false });
        if (replica.port !== replicaPort) throw new Error(`the replica came back on port ${replica.port} instead of ${replicaPort}`);
        await waitForStreaming(adminUrl, SLOT);
      },
      waitForReplay: async (timeoutMs = 10_000) => {
        const [{ lsn }] = (await query(adminUrl, 'select pg_current_wal_lsn()::text as lsn')) as [{ lsn: string }];
        await until(async () => (await query(replica.adminConnectionString(), 'select pg_last_wal_replay_lsn() >= $1::pg_lsn as done', [lsn]))[0]!.done === true,
          timeoutMs, `the replica did not replay up to ${lsn} (is replay paused?)`);
      },
      pgbouncerShow: (what) => pgbouncer.show(what),
      destroy: undoAll,
    };
  } catch (error) {
    await undoAll();
    throw error;
  }
}

async function query(url: string, text: string, values: unknown[] = []): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return (await client.query(text, values)).rows as Record<string, unknown>[];
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function until(condition: () => Promise<boolean>, timeoutMs: number, failure: string): Promise<void> {
  for (const started = Date.now(); !(await condition()); await new Promise((resolve) => setTimeout(resolve, 20))) {
    if (Date.now() - started > timeoutMs) throw new Error(`${failure} within ${timeoutMs} ms`);
  }
}
