// A streaming replica of a running PostgreSQL, made without pg_basebackup: the embedded package ships only initdb,
// pg_ctl and postgres, and Debian's pg_basebackup (15) refuses an 18 server. The low-level backup API does the same
// (https://www.postgresql.org/docs/18/continuous-archiving.html#BACKUP-LOWLEVEL-BASE-BACKUP): pg_backup_start on a
// session kept open, a copy of the data directory, pg_backup_stop, whose backup_label goes into the copy. Shared by
// `npm run cluster` (scripts/cluster.mjs) and the tests' harness (test/support/replicated-cluster.ts).
import fs from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';

/** Directories whose contents a base backup leaves out (the directories themselves stay): the docs' list. */
const EMPTIED = new Set(['pg_wal', 'pg_dynshmem', 'pg_notify', 'pg_replslot', 'pg_serial', 'pg_snapshots', 'pg_stat_tmp', 'pg_subtrans']);
/** Files a base backup leaves out: the running server's own, and what pg_backup_stop or we write into the copy. */
const SKIPPED = new Set(['postmaster.pid', 'postmaster.opts', 'postgresql.auto.conf.tmp', 'current_logfiles', 'pg_internal.init',
  'backup_label', 'backup_label.old', 'tablespace_map', 'backup_manifest', 'standby.signal', 'recovery.signal']);

/**
 * Makes `standbyPgData` (missing or empty) a standby of the primary `primaryAdminUrl` reaches (a superuser, which
 * may also replicate: initdb's pg_hba.conf lets replication in from 127.0.0.1, and PostgreSQL 18's defaults
 * `wal_level = replica`, `max_wal_senders = 10` need no change). A physical replication slot named `slot` keeps
 * the WAL the standby needs from the backup's start, and while it is stopped. `runAs` ({ uid, gid } or {}): who
 * owns the copy, PostgreSQL's user when we are root.
 * @param {{ primaryAdminUrl: string, standbyPgData: string, runAs: { uid?: number, gid?: number }, slot: string,
 *   connectHost?: string, hotStandbyFeedback?: boolean }} options
 * @returns {Promise<{ bytes: number }>}
 */
export async function makeStandby({ primaryAdminUrl, standbyPgData, runAs, slot, connectHost = '127.0.0.1', hotStandbyFeedback = true }) {
  if (!/^[a-z0-9_]+$/.test(slot)) throw new Error(`a replication slot name is lower-case letters, digits and _: "${slot}"`);
  const existing = await fs.readdir(standbyPgData).catch((error) => (error.code === 'ENOENT' ? [] : Promise.reject(error)));
  if (existing.length > 0) throw new Error(`${standbyPgData} is not empty; a standby is made only into an empty directory`);
  const client = new pg.Client({ connectionString: primaryAdminUrl });
  client.on('error', () => undefined); // a session that dies fails its next query instead
  await client.connect();
  try {
    const source = (await client.query("select current_setting('data_directory') as dir")).rows[0].dir;
    if ((await fs.readdir(path.join(source, 'pg_tblspc'))).length > 0) throw new Error(`${source} has tablespaces, which a standby made here cannot copy`);
    // Immediately reserving: the slot holds WAL from now on, before the backup's checkpoint.
    await client.query(`select pg_create_physical_replication_slot($1, true)
      where not exists (select 1 from pg_replication_slots where slot_name = $1)`, [slot]);
    // fast: an immediate checkpoint rather than one spread over checkpoint_timeout's half.
    await client.query('select pg_backup_start($1, fast => true)', [`standby ${slot}`]);
    let bytes;
    try {
      bytes = await copyDataDirectory(source, standbyPgData, runAs);
    } catch (error) {
      await client.query('select pg_backup_stop(wait_for_archive => false)').catch(() => undefined);
      throw error;
    }
    // No WAL archive: the standby streams what it needs through the slot instead of waiting for archived segments.
    const stopped = (await client.query('select labelfile, spcmapfile from pg_backup_stop(wait_for_archive => false)')).rows[0];
    const { user, password, port } = parseUrl(primaryAdminUrl);
    const conninfo = [`host=${conninfoValue(connectHost)}`, `port=${port}`, `user=${conninfoValue(user)}`,
      `password=${conninfoValue(password)}`, `application_name=${slot}`].join(' ');
    const settings = [
      '',
      '# A standby of the primary (scripts/cluster/standby.mjs)',
      `primary_conninfo = ${configValue(conninfo)}`,
      `primary_slot_name = ${configValue(slot)}`,
      // The primary keeps rows a long read on the standby still needs, instead of replay cancelling the read.
      `hot_standby_feedback = ${hotStandbyFeedback ? 'on' : 'off'}`,
      '',
    ].join('\n');
    await writeOwned(path.join(standbyPgData, 'backup_label'), stopped.labelfile, runAs);
    if (stopped.spcmapfile) await writeOwned(path.join(standbyPgData, 'tablespace_map'), stopped.spcmapfile, runAs);
    await fs.appendFile(path.join(standbyPgData, 'postgresql.auto.conf'), settings);
    // Last: a directory with standby.signal is a complete standby (isStandby).
    await writeOwned(path.join(standbyPgData, 'standby.signal'), '', runAs);
    return { bytes };
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * `complete`: a standby `makeStandby` finished (its standby.signal is written last); `none`: no cluster there;
 * `incomplete`: files of one that did not finish, which cannot be started.
 */
export async function standbyState(pgData) {
  const has = (name) => fs.access(path.join(pgData, name)).then(() => true, () => false);
  if (await has('standby.signal')) return 'complete';
  const entries = await fs.readdir(pgData).catch(() => []);
  return entries.length === 0 ? 'none' : 'incomplete';
}

/** Drops the slot `makeStandby` made (a standby that is gone for good would otherwise keep WAL forever). */
export async function dropSlot(primaryAdminUrl, slot) {
  const client = new pg.Client({ connectionString: primaryAdminUrl });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query('select pg_drop_replication_slot(slot_name) from pg_replication_slots where slot_name = $1 and not active', [slot]);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Resolves once the primary lists the standby named `applicationName` as streaming (pg_stat_replication), or throws
 * after `timeoutMs` with what it last saw.
 */
export async function waitForStreaming(primaryAdminUrl, applicationName, timeoutMs = 30_000) {
  const client = new pg.Client({ connectionString: primaryAdminUrl });
  client.on('error', () => undefined);
  await client.connect();
  try {
    let state = 'not connected';
    for (const started = Date.now(); Date.now() - started < timeoutMs; await sleep(50)) {
      const { rows } = await client.query('select state from pg_stat_replication where application_name = $1', [applicationName]);
      state = rows[0]?.state ?? 'not connected';
      if (state === 'streaming') return;
    }
    throw new Error(`the standby ${applicationName} is not streaming after ${timeoutMs} ms (pg_stat_replication: ${state})`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Copies a running cluster's files: files that vanish while it copies (a WAL segment recycled, a temporary file)
 * are skipped, as pg_basebackup does; replay from the backup's start makes the copy consistent. Returns the bytes.
 */
async function copyDataDirectory(from, to, runAs, relative = '') {
  await fs.mkdir(to, { mode: 0o700, recursive: true });
  await own(to, runAs);
  let bytes = 0;
  const entries = await fs.readdir(from, { withFileTypes: true }).catch((error) => (error.code === 'ENOENT' ? [] : Promise.reject(error)));
  for (const entry of entries) {
    const name = entry.name;
    const source = path.join(from, name);
    const target = path.join(to, name);
    const inside = relative ? `${relative}/${name}` : name;
    if (entry.isDirectory()) {
      if (name === 'pgsql_tmp') continue;
      if (EMPTIED.has(inside)) {
        await fs.mkdir(target, { mode: 0o700 });
        await own(target, runAs);
        continue;
      }
      bytes += await copyDataDirectory(source, target, runAs, inside);
    } else if (entry.isFile()) {
      // Only regular files: the cluster's Unix-domain socket and its lock file may live in the data directory.
      if (SKIPPED.has(inside) || name.startsWith('.s.PGSQL.') || name.startsWith('pgsql_tmp')) continue;
      try {
        await fs.copyFile(source, target);
      } catch (error) {
        if (error.code === 'ENOENT') continue;
        throw error;
      }
      await fs.chmod(target, 0o600);
      await own(target, runAs);
      bytes += (await fs.stat(target)).size;
    }
  }
  return bytes;
}

async function writeOwned(file, text, runAs) {
  await fs.writeFile(file, text, { mode: 0o600 });
  await own(file, runAs);
}

async function own(file, runAs) {
  if (runAs.uid !== undefined) await fs.chown(file, runAs.uid, runAs.gid ?? runAs.uid);
}

function parseUrl(url) {
  const parsed = new URL(url);
  return { user: decodeURIComponent(parsed.username), password: decodeURIComponent(parsed.password), port: parsed.port || '5432' };
}

/** A libpq connection-string value, quoted. */
function conninfoValue(value) {
  return `'${String(value).replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** A postgresql.conf string value. */
function configValue(value) {
  return `'${String(value).replace(/'/g, "''")}'`;
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
