import { sql } from 'kysely';
import { foldScans } from '../../src/analytics/scan-rollup.js';
import pino from 'pino';
import { beforeEach, describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/db/database.js';
import { createPruningJob } from '../../src/maintenance/pruning-job.js';
import { pruneExpired } from '../../src/maintenance/prune.js';
import { type TestDatabase, useTestDatabase } from '../support/database.js';

const DAY = 24 * 3600 * 1000;

describe('pruning expired rows', () => {
  let database: TestDatabase;
  useTestDatabase((created) => (database = created));

  beforeEach(async () => {
    await sql`truncate accounts, qr_codes, qr_code_scan_increments, scan_groups, webhook_deliveries, webhook_attempts, idempotency_keys, write_rate_events, scan_batches cascade`.execute(database.db);
    await sql`insert into accounts (id, name, plan) values ('acc_1', 'Acme', 'business')`.execute(database.db);
    await sql`insert into qr_codes (id, account_id, name, slug, destination_url, scan_count, created_at, updated_at)
      values ('qr_1', 'acc_1', 'Poster', 'AAAAAAAA', 'https://example.com', 5, now(), now())`.execute(database.db);
  });

  const ago = (ms: number) => new Date(Date.now() - ms);
  async function delivery(id: string, status: string, completedAgo: number | null, attempts: number) {
    await sql`insert into webhook_deliveries (id, account_id, event, body, status, created_at, completed_at)
      values (${id}, 'acc_1', 'qrcode.scanned', '{}', ${status}, ${ago((completedAgo ?? 0) + DAY)}, ${completedAgo === null ? null : ago(completedAgo)})`.execute(database.db);
    for (let n = 1; n <= attempts; n++) {
      await sql`insert into webhook_attempts (delivery_id, attempt_number, started_at, url, latency_ms) values (${id}, ${n}, now(), 'https://h.example', 5)`.execute(database.db);
    }
  }
  async function ids(table: string, column = 'id'): Promise<string[]> {
    const { rows } = await sql<{ id: string }>`select ${sql.ref(column)}::text as id from ${sql.table(table)} order by 1`.execute(database.db);
    return rows.map((row) => row.id);
  }

  it('deletes finished deliveries and their attempts past WEBHOOK_DELIVERY_RETENTION_DAYS, never pending ones', async () => {
    await delivery('whd_old_ok', 'succeeded', 31 * DAY, 2);
    await delivery('whd_old_failed', 'failed', 40 * DAY, 3);
    await delivery('whd_recent', 'succeeded', 29 * DAY, 1);
    await delivery('whd_pending', 'pending', null, 4); // created 1 day ago
    await sql`update webhook_deliveries set created_at = now() - interval '400 days' where id = 'whd_pending'`.execute(database.db);

    const counts = await pruneExpired(database.db, { webhookDeliveryDays: 30, scanDays: undefined }, 2);
    expect(counts).toMatchObject({ webhookDeliveries: 2, webhookAttempts: 5 });
    expect(await ids('webhook_deliveries')).toEqual(['whd_pending', 'whd_recent']);
    expect(await ids('webhook_attempts', 'delivery_id')).toEqual(['whd_pending', 'whd_pending', 'whd_pending', 'whd_pending', 'whd_recent']);
  });

  it('deletes idempotency keys past their 24 h, write-rate events past an hour and scan batch ids past 30 days', async () => {
    await sql`insert into idempotency_keys (account_id, key, request_hash, created_at) values
      ('acc_1', 'old', 'h', ${ago(25 * 3600_000)}), ('acc_1', 'fresh', 'h', ${ago(23 * 3600_000)})`.execute(database.db);
    await sql`insert into write_rate_events (account_id, at) values ('acc_1', ${ago(2 * 3600_000)}), ('acc_1', ${ago(2 * 3600_000)}), ('acc_1', now())`.execute(database.db);
    await sql`insert into scan_batches (id, committed_at) values ('old', ${ago(31 * DAY)}), ('recent', ${ago(29 * DAY)})`.execute(database.db);

    const counts = await pruneExpired(database.db, { webhookDeliveryDays: 30, scanDays: undefined }, 1);
    expect(counts).toMatchObject({ idempotencyKeys: 1, writeRateEvents: 2, scanBatches: 1, scans: 0 });
    expect(await ids('idempotency_keys', 'key')).toEqual(['fresh']);
    expect(await ids('write_rate_events', 'account_id')).toEqual(['acc_1']);
    expect(await ids('scan_batches')).toEqual(['recent']);
  });

  async function scans(...daysAgo: number[]) {
    for (const days of daysAgo) {
      await sql`insert into scans (qr_code_id, created_at, device, os, browser) values ('qr_1', ${ago(days * DAY)}, 'mobile', 'iOS', 'Safari')`.execute(database.db);
    }
  }

  it('keeps every scan when SCAN_RETENTION_DAYS is unset', async () => {
    await scans(3000, 400, 1);
    await pruneExpired(database.db, { webhookDeliveryDays: 30, scanDays: undefined });
    expect(await ids('scan_groups')).toHaveLength(3);
  });

  it('deletes scans older than SCAN_RETENTION_DAYS once the analytics rollup counts them, and leaves the lifetime counter as it is', async () => {
    await scans(400, 200, 91, 89, 1);
    // Not yet in the analytics rollup: kept, whatever their age, so the charts never lose them.
    expect(await pruneExpired(database.db, { webhookDeliveryDays: 30, scanDays: 90 }, 2)).toMatchObject({ scans: 0 });
    await foldScans(database.db);
    const counts = await pruneExpired(database.db, { webhookDeliveryDays: 30, scanDays: 90 }, 2);
    expect(counts).toMatchObject({ scans: 3 });
    const { rows } = await sql<{ days: number }>`select round(extract(epoch from now() - created_at) / 86400)::int as days from scans order by group_id`.execute(database.db);
    expect(rows.map((row) => row.days)).toEqual([89, 1]);
    const code = await database.db.selectFrom('qr_codes').select('scan_count').executeTakeFirstOrThrow();
    expect(Number(code.scan_count)).toBe(5);
  });

  it('deletes old scans that came after newer ones (history imported, a clock set wrong): by time, not by id', async () => {
    // Three codes, so that with batches of 2 the codes come in more than one statement too.
    for (const id of ['qr_2', 'qr_3']) {
      await sql`insert into qr_codes (id, account_id, name, slug, destination_url, created_at, updated_at)
        values (${id}, 'acc_1', 'Flyer', ${`B${id}BBBB`}, 'https://example.com', now(), now())`.execute(database.db);
    }
    await scans(1, 2, 3, 4, 5);
    for (const [code, days] of [['qr_3', 300], ['qr_1', 400], ['qr_3', 200], ['qr_2', 100], ['qr_1', 95]] as const) {
      await sql`insert into scans (qr_code_id, created_at, device, os, browser) values (${code}, ${ago(days * DAY)}, 'mobile', 'iOS', 'Safari')`.execute(database.db);
    }
    await foldScans(database.db);
    const counts = await pruneExpired(database.db, { webhookDeliveryDays: 30, scanDays: 90 }, 2);
    expect(counts).toMatchObject({ scans: 5 });
    const { rows } = await sql<{ days: number }>`select round(extract(epoch from now() - created_at) / 86400)::int as days from scans order by group_id`.execute(database.db);
    expect(rows.map((row) => row.days)).toEqual([1, 2, 3, 4, 5]);
  });

  it('lets one process prune at a time: another one skips while the lock is held', async () => {
    await delivery('whd_old', 'succeeded', 31 * DAY, 1);
    const holder = await database.db.connection().execute(async (session) => {
      await sql`select pg_advisory_lock(hashtextextended('qroute:prune', 0))`.execute(session);
      const skipped = await pruneExpired(database.db, { webhookDeliveryDays: 30, scanDays: undefined });
      await sql`select pg_advisory_unlock(hashtextextended('qroute:prune', 0))`.execute(session);
      return skipped;
    });
    expect(holder).toBeUndefined();
    expect(await ids('webhook_deliveries')).toEqual(['whd_old']);
    expect(await pruneExpired(database.db, { webhookDeliveryDays: 30, scanDays: undefined })).toMatchObject({ webhookDeliveries: 1 });
  });

  it('runs shortly after start, and logs a failure instead of crashing', async () => {
    await delivery('whd_old', 'succeeded', 31 * DAY, 1);
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
    const job = createPruningJob({ db: database.db, logger, firstRunDelayMs: 10, retention: { webhookDeliveryDays: 30, scanDays: undefined, intervalMs: 3_600_000 } });
    job.start();
    await expect.poll(() => ids('webhook_deliveries'), { timeout: 10_000 }).toEqual([]);
    await job.stop();

    // Nothing listens on port 1: every run fails to connect.
    const unreachable = createDatabase('postgres://qroute:x@127.0.0.1:1/postgres', { logger: pino({ level: 'silent' }) });
    const failing = createPruningJob({ db: unreachable, logger, retention: { webhookDeliveryDays: 30, scanDays: undefined, intervalMs: 3_600_000 } });
    try {
      await failing.runOnce();
    } finally {
      await unreachable.destroy();
    }
    expect(lines.join('')).toContain('pruning failed');
  });
});
