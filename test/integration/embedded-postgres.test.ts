import { execFile as execFileCallback } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/connect.js';
import { placeEmbeddedPostgres, reachableBinaries } from '../../src/db/embedded-postgres-location.js';
import { loadBinaries, postgresUser, run } from '../../src/db/embedded-postgres-process.js';
import { freePort } from '../../src/net.js';
import { NoEmbeddedClusterError, type RunningEmbeddedPostgres, startEmbeddedPostgres } from '../../src/db/embedded-postgres.js';

const execFile = promisify(execFileCallback);
const TIMEOUT = { timeout: 120_000 };
const logger = pino({ level: 'silent' });

async function query<T extends pg.QueryResultRow>(connectionString: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

describe('embedded PostgreSQL data directory', TIMEOUT, () => {
  const dataDirs: string[] = [];
  const running: RunningEmbeddedPostgres[] = [];
  afterEach(async () => {
    for (const postgres of running.splice(0)) await postgres.stop().catch(() => undefined);
    for (const dir of dataDirs.splice(0)) await fs.rm(dir, { recursive: true, force: true });
  });

  async function newDataDir(): Promise<string> {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'qroute-embedded-test-'));
    dataDirs.push(dir);
    return dir;
  }
  async function start(dataDir: string, options?: { create?: boolean; reachablePlace?: string }): Promise<RunningEmbeddedPostgres> {
    const postgres = await startEmbeddedPostgres(dataDir, logger, options);
    running.push(postgres);
    return postgres;
  }
  async function clusterWithRow(): Promise<{ dataDir: string; postgres: RunningEmbeddedPostgres }> {
    const dataDir = await newDataDir();
    const postgres = await start(dataDir);
    await query(postgres.connectionString(), `create table kept (note text); insert into kept values ('still here')`);
    return { dataDir, postgres };
  }

  it.each([
    ['deleted', (file: string) => fs.rm(file)],
    ['not JSON', (file: string) => fs.writeFile(file, '{"port": 5')],
    ['missing its password', (file: string) => fs.writeFile(file, '{"port": 5432, "user": "qroute"}')],
  ])('keeps the data when postgres.json is %s, and sets new passwords instead', async (_, damage) => {
    const { dataDir, postgres } = await clusterWithRow();
    await postgres.stop();
    await damage(path.join(dataDir, 'postgres.json'));

    const again = await start(dataDir);
    expect(await query(again.connectionString(), 'select note from kept')).toEqual([{ note: 'still here' }]);
    expect(await query(again.connectionString(), 'select rolsuper from pg_roles where rolname = current_user')).toEqual([{ rolsuper: false }]);
    const settings = JSON.parse(await fs.readFile(path.join(dataDir, 'postgres.json'), 'utf8'));
    expect(settings).toMatchObject({ user: 'qroute', adminUser: 'qroute_admin', port: again.port });
  });

  it('refuses, and deletes nothing, when postgres.json is lost while the cluster runs', async () => {
    const { dataDir } = await clusterWithRow();
    await fs.rm(path.join(dataDir, 'postgres.json'));
    await expect(startEmbeddedPostgres(dataDir, logger)).rejects.toThrow(/is missing while the PostgreSQL in .* is running.*Nothing was deleted/s);
    await fs.access(path.join(dataDir, 'pg', 'PG_VERSION'));
  });

  it('refuses a data directory that holds files but no cluster (an initdb that died), and leaves them', async () => {
    const dataDir = await newDataDir();
    await fs.mkdir(path.join(dataDir, 'pg'));
    await fs.writeFile(path.join(dataDir, 'pg', 'base.tar'), 'precious');
    await expect(startEmbeddedPostgres(dataDir, logger)).rejects.toThrow(/no PG_VERSION.*Nothing was deleted/s);
    expect(await fs.readFile(path.join(dataDir, 'pg', 'base.tar'), 'utf8')).toBe('precious');
  });

  // As root, PostgreSQL runs as the postgres user, which cannot reach a clone in /root (mode 0700): `npm start` and
  // `npm test` there must work as they are.
  it.runIf(process.getuid?.() === 0)('as root, keeps the cluster of a DATA_DIR its user cannot reach where it can, linked from DATA_DIR, and says so', async () => {
    const parent = await newDataDir(); // mode 0700, owned by root: like /root
    const place = await newDataDir();
    await fs.chmod(place, 0o755);
    const dataDir = path.join(parent, 'data');
    const lines: string[] = [];
    const listening = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
    const postgres = await startEmbeddedPostgres(dataDir, listening, { reachablePlace: place });
    running.push(postgres);
    await query(postgres.connectionString(), `create table kept (note text); insert into kept values ('still here')`);
    const home = path.dirname(postgres.pgData);
    expect(path.dirname(home)).toBe(path.join(place, 'clusters'));
    expect(await fs.readlink(path.join(dataDir, 'pg'))).toBe(postgres.pgData);
    // (From a clone in /root, the line names the binaries too.)
    const said = lines.map((line) => JSON.parse(line).msg as string).find((msg) => msg.startsWith('embedded PostgreSQL runs as the postgres user'));
    expect(said).toMatch(new RegExp(`^embedded PostgreSQL runs as the postgres user, which cannot reach ${dataDir}( or [^:]+)?: ` +
      `its cluster is in ${home} \\(${dataDir}/pg links there\\)`));

    // Stopped and started again from the same DATA_DIR: the same cluster, through the link.
    await postgres.stop();
    const again = await start(dataDir, { create: false, reachablePlace: place });
    expect(again.pgData).toBe(postgres.pgData);
    expect(await query(again.connectionString(), 'select note from kept')).toEqual([{ note: 'still here' }]);
  });

  it.runIf(process.getuid?.() === 0)('as root, mirrors binaries its user cannot reach into a place it can, once per version', async () => {
    const closed = await newDataDir(); // mode 0700: like a clone's node_modules under /root
    const place = await newDataDir();
    await fs.chmod(place, 0o755);
    const packaged = await loadBinaries();
    const packageDir = path.dirname(path.dirname(path.dirname(packaged.initdb)));
    await execFile('cp', ['-a', '--link', packageDir, path.join(closed, 'linux-x64')]); // hard links: instant
    const inClosed = { initdb: path.join(closed, 'linux-x64', 'native', 'bin', 'initdb'), pg_ctl: '', postgres: '' };
    const runAs = await postgresUser();
    await expect(run(inClosed.initdb, ['--version'], runAs)).rejects.toThrow(/EACCES/);

    const mirrored = await reachableBinaries({ ...packaged, initdb: inClosed.initdb }, path.join(place, 'embedded-postgres'));
    expect(path.dirname(mirrored.initdb)).toMatch(new RegExp(`^${place}/embedded-postgres/[0-9][^/]*/bin$`));
    expect((await run(mirrored.initdb, ['--version'], runAs)).stdout).toMatch(/^initdb \(PostgreSQL\) \d+/);
    expect(await reachableBinaries({ ...packaged, initdb: inClosed.initdb }, path.join(place, 'embedded-postgres'))).toEqual(mirrored);
  });

  it('creates no cluster when told not to', async () => {
    const dataDir = path.join(await newDataDir(), 'typo');
    await expect(startEmbeddedPostgres(dataDir, logger, { create: false })).rejects.toBeInstanceOf(NoEmbeddedClusterError);
    await expect(fs.access(dataDir)).rejects.toThrow();
  });

  it('connects the service as a role that is not a superuser, owning what the migrations create', async () => {
    const dataDir = await newDataDir();
    const database = await openDatabase({ dataDir, databaseUrl: undefined }, { logger, stopEmbedded: 'always' });
    try {
      const rows = await query(database.connectionString, `select rolsuper, rolcreatedb, rolcreaterole from pg_roles where rolname = current_user`);
      expect(rows).toEqual([{ rolsuper: false, rolcreatedb: false, rolcreaterole: false }]);
      const owners = await query<{ owner: string }>(database.connectionString,
        `select distinct pg_get_userbyid(relowner) as owner from pg_class where relnamespace = 'public'::regnamespace`);
      expect(owners).toEqual([{ owner: 'qroute' }]);
    } finally {
      await database.close();
    }
  });

  it('connects the service over the Unix-domain socket in the cluster directory, and tools over TCP on 127.0.0.1', async () => {
    const dataDir = await newDataDir();
    // Relative, as DATA_DIR may be: the socket's directory is still found.
    const database = await openDatabase({ dataDir: path.relative(process.cwd(), dataDir), databaseUrl: undefined }, { logger, stopEmbedded: 'always' });
    try {
      // inet_server_addr() is null on a Unix-domain socket.
      expect(await query(database.connectionString, 'select inet_server_addr() as address')).toEqual([{ address: null }]);
      const settings = JSON.parse(await fs.readFile(path.join(dataDir, 'postgres.json'), 'utf8'));
      const stats = await fs.stat(path.join(dataDir, 'pg', `.s.PGSQL.${settings.port}`));
      expect(stats.isSocket()).toBe(true);
      // Only the cluster's owner can open the directory, so no other local user reaches the socket.
      expect((await fs.stat(path.join(dataDir, 'pg'))).mode & 0o077).toBe(0);
      // In DATA_DIR itself, which PostgreSQL's user can reach, even from a working directory it cannot (a clone in /root).
      expect((await fs.lstat(path.join(dataDir, 'pg'))).isDirectory()).toBe(true);
      const tcp = `postgres://${settings.user}:${encodeURIComponent(settings.password)}@127.0.0.1:${settings.port}/postgres`;
      expect(await query(tcp, 'select host(inet_server_addr()) as address')).toEqual([{ address: '127.0.0.1' }]);
    } finally {
      await database.close();
    }
  });

  it('uses TCP alone when the data directory is too deep for a socket path', async () => {
    const parent = await newDataDir();
    await fs.chmod(parent, 0o755); // PostgreSQL's own user must be able to reach the directory below
    const dataDir = path.join(parent, 'd'.repeat(100));
    const postgres = await start(dataDir);
    expect(postgres.localConnectionString()).toBe(postgres.connectionString());
    expect(await query(postgres.localConnectionString(), 'select host(inet_server_addr()) as address')).toEqual([{ address: '127.0.0.1' }]);
  });

  it('upgrades a cluster made when the service role was the superuser, keeping its tables usable', async () => {
    // What earlier versions made: initdb -U qroute, postgres.json with port, user and password only.
    const dataDir = await newDataDir();
    const { binaries, runAs } = await placeEmbeddedPostgres(dataDir);
    const password = randomBytes(12).toString('hex');
    const passwordFile = path.join(dataDir, 'pw');
    await fs.writeFile(passwordFile, `${password}\n`);
    if (runAs.uid !== undefined) await fs.chown(passwordFile, runAs.uid, runAs.gid!);
    await run(binaries.initdb, ['-D', path.join(dataDir, 'pg'), '-U', 'qroute', `--pwfile=${passwordFile}`, '--auth=scram-sha-256'], runAs);
    await fs.writeFile(path.join(dataDir, 'postgres.json'), JSON.stringify({ port: 0, user: 'qroute', password }));
    // Run once by hand as before: the superuser qroute creates the tables, as the old migrations did.
    const port = await freePort();
    const pgData = path.join(dataDir, 'pg');
    await run(binaries.pg_ctl, ['start', '-w', '-D', pgData, '-l', path.join(dataDir, 'legacy.log'), '-o', `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=''`], runAs);
    const legacyUrl = `postgres://qroute:${password}@127.0.0.1:${port}/postgres`;
    await query(legacyUrl, `create table kept (id serial primary key, note text); insert into kept (note) values ('still here')`);
    await run(binaries.pg_ctl, ['stop', '-w', '-D', pgData], runAs);

    const upgraded = await start(dataDir);
    const url = upgraded.connectionString();
    expect(await query(url, 'select rolsuper from pg_roles where rolname = current_user')).toEqual([{ rolsuper: false }]);
    expect(await query(url, `select current_user as user`)).toEqual([{ user: 'qroute' }]);
    await query(url, `insert into kept (note) values ('written after'); alter table kept add column extra text`);
    expect(await query(url, 'select note from kept order by id')).toEqual([{ note: 'still here' }, { note: 'written after' }]);
    expect(await query(upgraded.adminConnectionString(), 'select rolsuper from pg_roles where rolname = current_user')).toEqual([{ rolsuper: true }]);
    // A second start finds the new settings and changes nothing.
    await upgraded.stop();
    const again = await start(dataDir);
    expect(await query(again.connectionString(), 'select count(*)::int as n from kept')).toEqual([{ n: 2 }]);
  });
});
