import { execFile as execFileCallback } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pino from 'pino';
import { createDatabase, type DatabaseTimeouts, migrateToLatest } from '../../src/db/database.js';
import { startEmbeddedPostgres, type RunningEmbeddedPostgres } from '../../src/db/embedded-postgres.js';
import { placeEmbeddedPostgres } from '../../src/db/embedded-postgres-location.js';
import { run } from '../../src/db/embedded-postgres-process.js';
import { readInfo, writeInfo } from '../../src/db/embedded-postgres-settings.js';
import type { Database } from '../../src/db/schema/index.js';
import { inject } from 'vitest';

const execFile = promisify(execFileCallback);

/**
 * A PostgreSQL cluster of the test file's own, for tests that stop, kill or freeze the database (the run's shared
 * cluster serves every other file at the same time). Same data directory and port across restarts, so pools
 * and listeners that were connected before reconnect to it by themselves.
 */
export interface OwnCluster {
  connectionString: string;
  /** As the superuser, for setup the service's role may not do (a tablespace, say). */
  adminConnectionString: string;
  /** The DATA_DIR the cluster lives in (its files are in `<dataDir>/pg`). */
  dataDir: string;
  /** A pool for the test's own checks (default timeouts). */
  db: Database;
  /** A pool with other timeouts, for an app under test; closed with the cluster. */
  pool(timeouts: DatabaseTimeouts): Database;
  /** `pg_ctl stop -m fast`. */
  stop(): Promise<void>;
  /** The postmaster gets SIGKILL, as in a crash; its backends exit when they notice. */
  kill(): Promise<void>;
  /**
   * `pg_ctl stop -m immediate`: every server process quits at once, with no checkpoint, and the next start runs
   * crash recovery. Commits whose WAL was not flushed yet (`synchronous_commit = off`) are forgotten.
   */
  crash(): Promise<void>;
  /** SIGSTOP to the postmaster and every backend: connections are accepted by the kernel and never answered. */
  freeze(): Promise<void>;
  thaw(): Promise<void>;
  /** Starts it again on the same data directory and port (retrying while a killed cluster's backends exit). */
  start(): Promise<void>;
  destroy(): Promise<void>;
}

export async function startOwnCluster(): Promise<OwnCluster> {
  const logger = pino({ level: 'silent' });
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'qroute-own-pg-'));
  const copied = await copyMigratedCluster(dataDir, logger);
  let postgres: RunningEmbeddedPostgres = await startEmbeddedPostgres(dataDir, logger);
  const connectionString = postgres.connectionString();
  const db = createDatabase(connectionString, { logger });
  // A copy of the run's migrated cluster is at the latest migration already; this finds nothing to do.
  if (!copied) await migrateToLatest(db, logger);
  const pools: Database[] = [db];
  let frozen: number[] = [];
  let killed: number[] = [];

  const postmasterPid = async () => Number((await fs.readFile(path.join(postgres.pgData, 'postmaster.pid'), 'utf8')).split('\n')[0]);
  const clusterPids = async () => {
    const pid = await postmasterPid();
    const { stdout } = await execFile('ps', ['-o', 'pid=', '--ppid', String(pid)]);
    return [pid, ...stdout.split('\n').map((line) => Number(line.trim())).filter((child) => child > 0)];
  };

  return {
    connectionString,
    adminConnectionString: postgres.adminConnectionString(),
    dataDir,
    db,
    pool: (timeouts) => {
      const pool = createDatabase(connectionString, { logger, timeouts });
      pools.push(pool);
      return pool;
    },
    stop: () => postgres.stop(),
    kill: async () => {
      killed = await clusterPids();
      process.kill(killed[0]!, 'SIGKILL');
    },
    crash: async () => {
      // The binaries and user startEmbeddedPostgres runs (as root, maybe copies outside a clone in /root).
      const { binaries, runAs, pgData } = await placeEmbeddedPostgres(dataDir);
      await run(binaries.pg_ctl, ['stop', '-w', '-m', 'immediate', '-D', pgData], runAs);
    },
    freeze: async () => {
      frozen = await clusterPids();
      for (const pid of frozen) process.kill(pid, 'SIGSTOP');
    },
    thaw: async () => {
      for (const pid of frozen) process.kill(pid, 'SIGCONT');
      frozen = [];
    },
    start: async () => {
      // A killed cluster's backends exit when they notice; until then the port and shared memory are theirs, and
      // a start would pick another port, which the pools connected before could never find.
      for (let waited = 0; killed.some(isAlive); waited += 50) {
        if (waited > 20_000) throw new Error(`backends of the killed cluster still running: ${killed.filter(isAlive).join(', ')}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      killed = [];
      for (let attempt = 1; ; attempt++) {
        try {
          postgres = await startEmbeddedPostgres(dataDir, logger);
          if (postgres.connectionString() !== connectionString) throw new Error('the restarted cluster moved to another port');
          return;
        } catch (error) {
          // After a SIGKILL the old backends hold the shared memory until they notice and exit.
          if (attempt >= 50) throw error;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      }
    },
    destroy: async () => {
      for (const pid of frozen) process.kill(pid, 'SIGCONT');
      await Promise.all(pools.map((pool) => pool.destroy().catch(() => undefined)));
      await postgres.stop().catch(() => undefined);
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Fills the empty `dataDir` with a copy of the run's migrated cluster (made by the first file that asks for one, in
 * the folder the global setup gives: initdb and the migrations are about 5 s of CPU, a copy of its 40 MB a tenth of
 * that). False when there is no such folder (a file run outside the integration project) or the cluster could not be
 * copied as files (as root with the cluster moved out of reach, `pg` is a link): then the caller makes its own.
 */
async function copyMigratedCluster(dataDir: string, logger: pino.Logger): Promise<boolean> {
  const templateDir = inject('ownClusterTemplate');
  if (!templateDir) return false;
  const source = await migratedClusterIn(templateDir, logger);
  if ((await fs.lstat(path.join(source, 'pg'))).isSymbolicLink()) return false;
  // -a keeps the files' owner (PostgreSQL's user when the tests run as root) and modes, which PostgreSQL checks.
  await execFile('cp', ['-a', `${source}/.`, dataDir]);
  // A port of its own: copies started at the same moment would all find the template's port free and race for it.
  const infoFile = path.join(dataDir, 'postgres.json');
  const read = await readInfo(infoFile);
  if (!('info' in read)) throw new Error(`the migrated cluster's ${infoFile} is ${read.problem}`);
  await writeInfo(infoFile, { ...read.info, port: 0 });
  return true;
}

/**
 * The data directory of a stopped, migrated cluster in `templateDir`, made once however many files ask at the same
 * time (in other workers): the first to create `building` makes it and writes `ready` (or `failed`, with why); the
 * others wait for either.
 */
async function migratedClusterIn(templateDir: string, logger: pino.Logger): Promise<string> {
  const source = path.join(templateDir, 'data');
  const ready = path.join(templateDir, 'ready');
  const failed = path.join(templateDir, 'failed');
  const builder = await fs.mkdir(path.join(templateDir, 'building')).then(() => true, (error: NodeJS.ErrnoException) => {
    if (error.code === 'EEXIST') return false;
    throw error;
  });
  if (builder) {
    try {
      const postgres = await startEmbeddedPostgres(source, logger);
      const db = createDatabase(postgres.connectionString(), { logger });
      try {
        await migrateToLatest(db, logger);
      } finally {
        await db.destroy();
        // A clean stop: the copies start without crash recovery and with no stale postmaster.pid.
        await postgres.stop();
      }
      await fs.writeFile(ready, '');
    } catch (error) {
      await fs.writeFile(failed, error instanceof Error ? (error.stack ?? error.message) : String(error));
      throw error;
    }
    return source;
  }
  for (let waited = 0; ; waited += 100) {
    if (await exists(ready)) return source;
    if (await exists(failed)) throw new Error(`the run's migrated cluster could not be made: ${await fs.readFile(failed, 'utf8')}`);
    if (waited > 120_000) throw new Error(`the run's migrated cluster in ${source} was not ready after two minutes`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function exists(file: string): Promise<boolean> {
  return fs.access(file).then(() => true, () => false);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
