import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, migrateToLatest } from '../../src/db/database.js';
import { startEmbeddedPostgres, type RunningEmbeddedPostgres } from '../../src/db/embedded-postgres.js';
import type { Database } from '../../src/db/schema/index.js';
import { createTestAccount, startTestApp, type TestApp } from '../support/test-app.js';

// This file stops and restarts PostgreSQL, so it runs its own cluster instead of the run's shared one.
const logger = pino({ level: 'silent' });
let dataDir: string;
let postgres: RunningEmbeddedPostgres;
let db: Database;
let app: TestApp;

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'qroute-outage-'));
  postgres = await startEmbeddedPostgres(dataDir, logger);
  db = createDatabase(postgres.connectionString(), { logger });
  await migrateToLatest(db, logger);
  app = await startTestApp({ db, connectionString: postgres.connectionString() });
});
afterAll(async () => {
  await app?.close();
  await db?.destroy();
  await postgres?.stop();
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe('PostgreSQL stopped during scanning', () => {
  it('keeps redirecting from the cache and records every answered scan once the database is back', async () => {
    const owner = await createTestAccount(db, app);
    const { data } = await owner.client.raw.POST('/qrcodes', { body: { name: 'Station poster', url: 'https://example.com/' } });
    const code = data!.data;
    const scanOnce = () =>
      fetch(`${app.origin}/r/${code.slug}`, { redirect: 'manual', headers: { 'User-Agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) Mobile/15E148' } })
        .then((res) => res.status);

    const statuses: number[] = [];
    const scanFor = async (ms: number) => {
      const end = Date.now() + ms;
      while (Date.now() < end) statuses.push(...(await Promise.all(Array.from({ length: 5 }, scanOnce))));
    };

    await scanFor(300);
    await postgres.stop();
    const outageStart = statuses.length;
    await scanFor(2_000);
    const duringOutage = statuses.slice(outageStart);
    postgres = await startEmbeddedPostgres(dataDir, logger); // same data directory, same port
    await scanFor(300);

    expect(duringOutage.length).toBeGreaterThan(0);
    expect(duringOutage.every((status) => status === 302)).toBe(true);
    expect(statuses.every((status) => status === 302)).toBe(true);
    await expect
      .poll(async () => (await db.selectFrom('qr_codes').select('scan_count').where('id', '=', code.id).executeTakeFirst())?.scan_count,
        { timeout: 20_000, interval: 200 })
      .toBe(statuses.length);
    const rows = await db.selectFrom('scans').select((eb) => eb.fn.countAll<string>().as('n')).where('qr_code_id', '=', code.id)
      .executeTakeFirstOrThrow();
    expect(Number(rows.n)).toBe(statuses.length);
    expect(app.redirect.recorder.stats.dropped).toBe(0);
  }, 60_000);
});
