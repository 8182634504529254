import { execFile as execFileCallback } from 'node:child_process';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { createGzip } from 'node:zlib';
import pg from 'pg';
import type { Logger } from 'pino';
import { placeEmbeddedPostgres } from '../db/embedded-postgres-location.js';
import { startEmbeddedPostgres } from '../db/embedded-postgres.js';
import { syncDirectory, syncFile } from '../durable-files.js';
import { SECRET_KEY_FILE } from '../webhooks/secret-box.js';
import { UsageError } from './args.js';
import { unloggedExcludes, unloggedMembers } from './unlogged-files.js';

const execFile = promisify(execFileCallback);

/**
 * Backups of the embedded PostgreSQL, taken while the server runs. The embedded packages ship no pg_dump or
 * pg_basebackup (only initdb, pg_ctl, postgres), and a system pg_dump of another major version refuses the
 * server, so this is PostgreSQL's own low-level base backup: `pg_backup_start`, a copy of the data directory,
 * `pg_backup_stop`, and the WAL written meanwhile; the restored cluster replays that WAL at its first start and
 * is then consistent as of the backup's end. A temporary replication slot holds that WAL until it is copied, so
 * a checkpoint during the backup cannot recycle it. The archive is a gzipped tar made with the system's tar, so an
 * operator can look into it with ordinary tools.
 */

/** DATA_DIR files besides the cluster that a restored service needs: its passwords, the webhook secrets' key. */
const SERVICE_FILES = ['postgres.json', SECRET_KEY_FILE];

/**
 * What PostgreSQL's documentation says to leave out of a base backup: files of the running server (pid, sockets,
 * shared memory, temporary and statistics files), and pg_wal, whose segments from the backup's start are added
 * after it. The directories stay (empty), since the server expects them.
 */
const EXCLUDED = [
  'pg/postmaster.pid', 'pg/postmaster.opts', 'pg/.s.PGSQL.*', 'pg/pg_wal/*', 'pg/pg_replslot/*', 'pg/pg_dynshmem/*',
  'pg/pg_notify/*', 'pg/pg_serial/*', 'pg/pg_snapshots/*', 'pg/pg_stat_tmp/*', 'pg/pg_subtrans/*', '*/pgsql_tmp*',
  'pg/backup_label', 'pg/tablespace_map', 'pg/current_logfiles',
];

export interface BackupSummary {
  backup: string;
  bytes: number;
  startLsn: string;
  stopLsn: string;
  walSegments: number;
}

export async function backupEmbedded(dataDir: string, outFile: string, logger: Logger): Promise<BackupSummary> {
  const out = path.resolve(outFile);
  await refuseExisting(out);
  const embedded = await startEmbeddedPostgres(dataDir, logger, { create: false });
  // The cluster's own directory: DATA_DIR/pg may be a link to it (embedded-postgres-location.ts), which tar would
  // store as a link.
  const { pgData } = embedded;
  const clusterParent = path.dirname(pgData);
  const clusterName = path.basename(pgData);
  // Stored as pg/ whatever the cluster's own directory is called (an operator's DATA_DIR/pg may link to
  // /mnt/disk/pgdata), which is where the restore and the backup_label below expect it.
  const asPg = clusterName === 'pg' ? [] : [`--transform=s,^${clusterName.replace(/[\\.*[\]^$,&]/g, '\\$&')}\\(/\\|$\\),pg\\1,`];
  // Next to the output, so the finished archive is renamed into place, never seen half-written under its name.
  const staging = await fs.mkdtemp(path.join(path.dirname(out), '.qroute-backup-'));
  const tarFile = path.join(staging, 'backup.tar');
  const admin = new pg.Client({ connectionString: embedded.adminConnectionString() });
  let sessionOpen = false;
  try {
    await admin.connect();
    sessionOpen = true;
    if ((await fs.readdir(path.join(pgData, 'pg_tblspc'))).length > 0) {
      throw new UsageError('this cluster has tablespaces of its own, which the backup does not copy; back it up with pg_basebackup');
    }
    // Temporary: dropped when this session ends, however it ends.
    await admin.query("select pg_create_physical_replication_slot('qroute_backup_' || pg_backend_pid(), true, true)");
    const { rows: [start] } = await admin.query<{ lsn: string; wal: string }>(
      "select lsn::text, pg_walfile_name(lsn) as wal from pg_backup_start('qroute admin backup', true) as lsn");
    const extras = await present(dataDir, SERVICE_FILES);
    // Exit status 1: a file changed while it was read. Expected while the server writes; the WAL replayed at the
    // restored cluster's first start repairs it (which is why the backup copies the WAL at all).
    // Unlogged relations' files are left out but their init forks, as pg_basebackup leaves them out: the restore
    // starts them empty from those, and scan_visitors' pages are the day's visitor hashes (unlogged-files.ts).
    const excluded = [...EXCLUDED, ...(await unloggedExcludes(pgData))]
      .map((pattern) => (pattern.startsWith('pg/') ? `${clusterName}/${pattern.slice(3)}` : pattern));
    await tar(['-cf', tarFile, ...asPg, ...excluded.map((pattern) => `--exclude=${pattern}`), '-C', clusterParent, clusterName, '-C', dataDir, ...extras],
      { allowChanged: true });
    // An unlogged relation given new files while tar ran (made, or rewritten by VACUUM FULL, REINDEX or a
    // migration) was not among the patterns: what tar took of it goes again, before the archive is compressed.
    const leftIn = unloggedMembers((await tar(['-tf', tarFile])).split('\n'));
    if (leftIn.length > 0) await tar(['--delete', '-f', tarFile, ...leftIn]);
    const { rows: [stop] } = await admin.query<{ lsn: string; wal: string; labelfile: string }>(
      'select s.lsn::text, pg_walfile_name(s.lsn) as wal, s.labelfile from pg_backup_stop(false) as s');

    const labelDir = path.join(staging, 'label');
    await fs.mkdir(path.join(labelDir, 'pg'), { recursive: true });
    await fs.writeFile(path.join(labelDir, 'pg', 'backup_label'), stop!.labelfile);
    await tar(['-rf', tarFile, '-C', labelDir, 'pg/backup_label']);
    // The segments from the backup's start to its end (the slot keeps them; pg_backup_stop switched to a new
    // segment, so none of them is written any more), and the timelines' history files.
    const wal = (await fs.readdir(path.join(pgData, 'pg_wal')))
      .filter((name) => (/^[0-9A-F]{24}$/.test(name) && name >= start!.wal && name <= stop!.wal) || name.endsWith('.history'));
    for (const needed of [start!.wal, stop!.wal]) {
      if (!wal.includes(needed)) throw new Error(`the WAL segment ${needed} the backup needs is missing from ${pgData}/pg_wal; nothing was written`);
    }
    await tar(['-rf', tarFile, ...asPg, '-C', clusterParent, ...wal.map((name) => `${clusterName}/pg_wal/${name}`)]);
    sessionOpen = false;
    await admin.end(); // drops the slot: the WAL is in the archive

    // Compressed in the staging directory (removed below whatever happens), then renamed into place.
    const compressed = path.join(staging, 'backup.tar.gz');
    await pipeline(createReadStream(tarFile), createGzip(), createWriteStream(compressed, { mode: 0o600 }));
    // On disk before it takes its name, and the name on disk before we say it is done: a crash of the machine must
    // not leave a truncated archive under the name of a finished backup.
    await syncFile(compressed);
    await fs.rename(compressed, out);
    await syncDirectory(path.dirname(out));
    const bytes = (await fs.stat(out)).size;
    return { backup: out, bytes, startLsn: start!.lsn, stopLsn: stop!.lsn, walSegments: wal.filter((name) => !name.endsWith('.history')).length };
  } finally {
    if (sessionOpen) await admin.end().catch(() => undefined); // a backup left unfinished ends with its session
    await fs.rm(staging, { recursive: true, force: true });
    if (embedded.startedHere) await embedded.stop();
  }
}

export interface RestoreSummary {
  /** The DATA_DIR now holding the restored cluster (started once, and stopped again). */
  restored: string;
}

/**
 * Unpacks a backup into a DATA_DIR that holds no cluster, then starts the cluster once so it replays the WAL
 * (a restore that would not start fails here, not at the next `npm start`), and stops it again.
 */
export async function restoreEmbedded(dataDir: string, inFile: string, logger: Logger): Promise<RestoreSummary> {
  const source = path.resolve(inFile);
  await fs.access(source).catch(() => {
    throw new UsageError(`there is no file ${source}`);
  });
  const pgData = path.join(dataDir, 'pg');
  const entries = await fs.readdir(pgData).catch(() => [] as string[]);
  if (entries.length > 0 || (await present(dataDir, SERVICE_FILES)).length > 0) {
    throw new UsageError(`${dataDir} already holds a database; restore into a new DATA_DIR (or move this one aside first). Nothing was changed`);
  }
  // As root, pg may be made a link to a directory PostgreSQL's user can reach: tar unpacks into it.
  const { runAs, home } = await placeEmbeddedPostgres(dataDir);
  await tar(['-xzf', source, '-C', dataDir, '--no-same-owner', '--keep-directory-symlink']);
  if (!(await present(pgData, ['backup_label', 'PG_VERSION'])).includes('backup_label')) {
    throw new UsageError(`${source} is not a backup made by "admin backup" (it has no pg/backup_label); ${dataDir} now holds what it unpacked`);
  }
  // Left out of the archive with their contents; the server expects them.
  for (const dir of ['pg_wal/archive_status', 'pg_wal/summaries']) await fs.mkdir(path.join(pgData, dir), { recursive: true, mode: 0o700 });
  if (runAs.uid !== undefined) {
    for (const dir of new Set([dataDir, home])) await execFile('chown', ['-R', `${runAs.uid}:${runAs.gid ?? runAs.uid}`, dir]);
  }
  const embedded = await startEmbeddedPostgres(dataDir, logger, { create: false });
  await embedded.stop();
  return { restored: dataDir };
}

async function refuseExisting(file: string): Promise<void> {
  const exists = await fs.access(file).then(() => true, () => false);
  if (exists) throw new UsageError(`${file} exists; choose another --out (a backup never overwrites a file)`);
  const directory = await fs.stat(path.dirname(file)).then((stats) => stats.isDirectory(), () => false);
  if (!directory) throw new UsageError(`there is no directory ${path.dirname(file)} to write the backup in`);
}

async function present(dir: string, names: string[]): Promise<string[]> {
  const found = await Promise.all(names.map((name) => fs.access(path.join(dir, name)).then(() => name, () => undefined)));
  return found.filter((name): name is string => name !== undefined);
}

/** Runs tar; returns what it printed (`-t` lists members, one a line). */
async function tar(args: string[], options: { allowChanged?: boolean } = {}): Promise<string> {
  try {
    // 64 MiB: a listing of a few hundred thousand files.
    return (await execFile('tar', args, { maxBuffer: 64 * 1024 * 1024 })).stdout;
  } catch (error) {
    const { code, stderr } = error as { code?: unknown; stderr?: string };
    if (options.allowChanged && code === 1) return '';
    throw new Error(`tar ${args[0]} failed${typeof code === 'number' ? ` (exit ${code})` : ''}: ${(stderr ?? String(error)).trim()}`, { cause: error });
  }
}
