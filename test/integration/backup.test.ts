import { execFile as execFileCallback } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/db/database.js';
import { startEmbeddedPostgres } from '../../src/db/embedded-postgres.js';
import type { Database } from '../../src/db/schema/index.js';
import { restoreEmbedded } from '../../src/cli/backup.js';
import { runBackupCommand } from '../../src/cli/commands.js';
import { runCliJson } from '../support/cli.js';
import { startOwnCluster, type OwnCluster } from '../support/own-cluster.js';
import { scan } from '../support/scan.js';
import { createTestAccount, startTestApp } from '../support/test-app.js';
import { createTestCode } from '../support/factories.js';

const execFile = promisify(execFileCallback);

// The CLI works on the embedded database in DATA_DIR: the file's own cluster is one, running as under a server.
let cluster: OwnCluster;
let workDir: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  cluster = await startOwnCluster();
  workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'qroute-backup-test-'));
  // The PostgreSQL user (when the tests run as root) must reach the restored DATA_DIR.
  await fs.chmod(workDir, 0o755);
  const { DATABASE_URL: _unused, ...inherited } = process.env;
  env = { ...inherited, DATA_DIR: cluster.dataDir };
  // Rows in most tables: an account, a key, codes with their destinations, scans and their webhook-free batches.
  const app = await startTestApp({ db: cluster.db, connectionString: cluster.connectionString });
  const owner = await createTestAccount(cluster.db, app);
  for (const name of ['Poster', 'Flyer']) {
    const code = await createTestCode(owner, { name });
    for (let i = 0; i < 3; i++) expect(await scan(app, code.slug)).toBe(302);
  }
  await app.close();
}, 120_000);
afterAll(async () => {
  await cluster?.destroy();
  if (workDir) await fs.rm(workDir, { recursive: true, force: true });
});

async function rowCounts(db: Database): Promise<Record<string, number>> {
  // A partition's rows are counted with its table (scan_groups is partitioned by month).
  const { rows: tables } = await sql<{ name: string }>`
    select relname as name from pg_class
    where relnamespace = 'public'::regnamespace and relkind in ('r', 'p') and not relispartition order by 1`.execute(db);
  const counts: Record<string, number> = {};
  for (const { name } of tables) {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(name)}`.execute(db);
    counts[name] = rows[0]!.n;
  }
  return counts;
}

async function unloggedTables(db: Database): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select relname as name from pg_class where relkind = 'r' and relpersistence = 'u' and relnamespace = 'public'::regnamespace`.execute(db);
  return rows.map((r) => r.name);
}

/** Every unlogged relation with files (tables, their indexes and TOAST), and where those are in the cluster. */
async function unloggedRelationFiles(db: Database): Promise<Array<{ name: string; file: string }>> {
  const { rows } = await sql<{ name: string; file: string }>`
    select relname as name, pg_relation_filepath(oid) as file from pg_class
    where relpersistence = 'u' and pg_relation_filepath(oid) is not null order by 1`.execute(db);
  return rows;
}

describe('admin backup and admin restore (embedded database)', () => {
  it('backs up the running database while it is written and restores it into a new DATA_DIR with the same rows in every table', async () => {
    const before = await rowCounts(cluster.db);
    expect(before).toMatchObject({ accounts: 1, qr_codes: 2 });
    expect(Object.values(before).filter((n) => n > 0).length).toBeGreaterThan(5);
    const { id: codeId } = await cluster.db.selectFrom('qr_codes').select('id').executeTakeFirstOrThrow();

    // Scans keep arriving, ten to a transaction, all through the backup: the copy holds whole transactions only.
    let writing = true;
    const writer = (async () => {
      while (writing) {
        await sql`insert into scan_groups (qr_code_id, device, os, browser, first_at)
          select ${codeId}, 'mobile', 'iOS', 'Mobile Safari', now() from generate_series(1, 10)`.execute(cluster.db);
      }
    })();
    const file = path.join(workDir, 'qroute.tar.gz');
    let backup;
    try {
      backup = await runCliJson(['backup', '--out', file], env);
    } finally {
      writing = false;
      await writer;
    }
    expect(backup).toMatchObject({ backup: file, walSegments: expect.any(Number) });
    expect((await fs.stat(file)).size).toBe(backup.bytes);
    // The archive holds no page of the day's visitor hashes: of every unlogged relation (scan_visitors, its
    // primary key index, ...) only the init fork the restore rebuilds it from, though its other files are on disk.
    const members = (await execFile('tar', ['-tzf', file])).stdout.split('\n');
    const unloggedFiles = await unloggedRelationFiles(cluster.db);
    expect(unloggedFiles.map(({ name }) => name)).toEqual(expect.arrayContaining(['scan_visitors', 'scan_visitors_pkey']));
    for (const { name, file: relationFile } of unloggedFiles) {
      await fs.access(path.join(cluster.dataDir, 'pg', relationFile));
      expect(members, name).toContain(`pg/${relationFile}_init`);
      const forks = new RegExp(`^pg/${relationFile}(_fsm|_vm)?(\\.\\d+)?$`);
      expect(members.filter((member) => forks.test(member)), name).toEqual([]);
    }
    const { rows: [secrets] } = await sql<{ file: string }>`select pg_relation_filepath('visitor_secrets') as file`.execute(cluster.db);
    expect(members).toContain(`pg/${secrets!.file}`);
    const after = await rowCounts(cluster.db);
    expect(after.scan_groups).toBeGreaterThan(before.scan_groups!);

    const restoredDir = path.join(workDir, 'restored');
    // What `admin restore --in` runs (in this process: one CLI start less).
    expect(await runBackupCommand({ databaseUrl: undefined, dataDir: restoredDir }, ['restore', '--in', file], pino({ level: 'silent' }))).toEqual({ restored: restoredDir });
    const restored = await startEmbeddedPostgres(restoredDir, pino({ level: 'silent' }), { create: false });
    const db = createDatabase(restored.connectionString(), { logger: pino({ level: 'silent' }) });
    try {
      const copy = await rowCounts(db);
      // Unlogged tables (the day's visitor hashes) come back empty, as after a crash: a backup carries none of them.
      const unlogged = await unloggedTables(db);
      expect(unlogged).toContain('scan_visitors');
      expect(before.scan_visitors).toBeGreaterThan(0);
      for (const name of unlogged) expect(copy[name], name).toBe(0);
      const logged = (counts: Record<string, number>) => Object.fromEntries(Object.entries(counts).filter(([name]) => !unlogged.includes(name)));
      expect(logged({ ...copy, scan_groups: before.scan_groups! })).toEqual(logged(before));
      expect(copy.scan_groups).toBeGreaterThanOrEqual(before.scan_groups!);
      expect(copy.scan_groups).toBeLessThanOrEqual(after.scan_groups!);
      expect((copy.scan_groups! - before.scan_groups!) % 10).toBe(0);
    } finally {
      await db.destroy();
      await restored.stop();
    }
  }, 60_000);

  it('refuses to restore over a database or back up over a file, and points DATABASE_URL users to their PostgreSQL tools', async () => {
    const logger = pino({ level: 'silent' });
    const archive = path.join(workDir, 'any.tar.gz');
    await fs.writeFile(archive, '');
    await expect(restoreEmbedded(cluster.dataDir, archive, logger)).rejects.toThrow(/already holds a database.*Nothing was changed/);
    await expect(runBackupCommand({ databaseUrl: undefined, dataDir: cluster.dataDir }, ['backup', '--out', path.join(workDir, 'no', 'x.tar.gz')], logger))
      .rejects.toThrow(/no directory/);
    await expect(runBackupCommand({ databaseUrl: undefined, dataDir: cluster.dataDir }, ['backup', '--out', archive], logger)).rejects.toThrow(/exists/);
    const external = { databaseUrl: cluster.connectionString, dataDir: cluster.dataDir };
    await expect(runBackupCommand(external, ['backup', '--out', path.join(workDir, 'x.tar.gz')], logger)).rejects.toThrow(/pg_dump/);
  });
});
