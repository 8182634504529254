import { sql } from 'kysely';
import pg from 'pg';
import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { setWebhook } from '../../src/webhooks/webhook-settings.js';
import { scanCountsOf } from '../../src/codes/scan-counts.js';
import { createDatabase } from '../../src/db/database.js';
import { idPattern, newId } from '../../src/ids.js';
import { freePort } from '../../src/net.js';
import { CodeLookup } from '../../src/redirect/code-lookup.js';
import { prepareScanBatch, ScanBatchWriter, type ScanEvent, writeScanBatch } from '../../src/redirect/scan-batch.js';
import { DEFAULT_SCAN_RECORDER_OPTIONS, ScanRecorder } from '../../src/redirect/scan-recorder.js';
import { scanCreatedBody } from '../../src/webhooks/payload.js';
import type { TestDatabase } from '../support/database.js';
import { IPHONE_SAFARI } from '../support/scan.js';
import { createTestAccount, type TestAccount, type TestApp, useTestApp } from '../support/test-app.js';
import { createTestCode } from '../support/factories.js';

const silent = pino({ level: 'silent' });
let database: TestDatabase;
let app: TestApp;
let owner: TestAccount;

useTestApp((started) => ({ database, app } = started));
beforeAll(async () => {
  owner = await createTestAccount(database.db, app);
  await setWebhook(database.db, app.box, { accountId: owner.accountId, url: 'http://127.0.0.1:9/hooks', allowPrivate: true });
});

const createCode = (name = 'Poster') => createTestCode(owner, { name });

function scanOf(code: { id: string; slug: string }, overrides: Partial<ScanEvent> = {}): ScanEvent {
  return {
    codeId: code.id,
    accountId: owner.accountId,
    at: new Date(),
    device: 'mobile',
    os: 'iOS',
    browser: 'Mobile Safari',
    destinationUrl: 'https://example.com/',
    referrerHost: null,
    country: null,
    region: null,
    city: null,
    language: null,
    visitor: null,
    bot: false,
    ...overrides,
  };
}

async function scanCount(codeId: string) {
  return (await scanCountsOf(database.db, codeId)).scans;
}

async function scanRows(codeId: string) {
  return database.db.selectFrom('scans').select(['group_id', 'referrer_host']).where('qr_code_id', '=', codeId).execute();
}

function phoneScan(slug: string, referer?: string) {
  return fetch(`${app.origin}/r/${slug}`, {
    redirect: 'manual',
    headers: { 'User-Agent': IPHONE_SAFARI, ...(referer && { Referer: referer }) },
    signal: AbortSignal.timeout(15_000),
  });
}

/**
 * A real lock in the way of the batches holding a scan from `host`: a trigger (the test's own) makes writing that
 * scan wait for an advisory lock another session holds, as a runaway session holding what a batch needs would.
 * Batches without such a scan go through. `release` ends the lock and removes the trigger.
 */
async function blockScansFrom(host: string) {
  await sql`create function wait_for_test_lock() returns trigger language plpgsql as $$
    begin perform pg_advisory_xact_lock(4242); return new; end $$`.execute(database.db);
  await sql`create trigger scans_wait_for_test_lock before insert on scan_groups for each row
    when (new.referrer_host = ${sql.lit(host)}) execute function wait_for_test_lock()`.execute(database.db);
  const locker = new pg.Client({ connectionString: database.connectionString });
  await locker.connect();
  await locker.query('begin');
  await locker.query('select pg_advisory_xact_lock(4242)');
  return {
    release: async () => {
      await locker.query('rollback');
      await locker.end();
      await sql`drop trigger scans_wait_for_test_lock on scan_groups`.execute(database.db);
      await sql`drop function wait_for_test_lock()`.execute(database.db);
    },
  };
}

describe('writing a scan batch', () => {
  it('records its scans, counts and webhooks once, however often the same batch is written', async () => {
    const code = await createCode();
    const batch = prepareScanBatch([scanOf(code), scanOf(code), scanOf(code, { bot: true })]);
    await writeScanBatch(database.db, batch);
    await writeScanBatch(database.db, batch); // as after a commit whose answer was lost
    expect(await scanCount(code.id)).toBe(2);
    expect(await scanRows(code.id)).toHaveLength(2);
    const deliveries = await database.db.selectFrom('webhook_deliveries').select('id').where('qr_code_id', '=', code.id).execute();
    expect(deliveries).toHaveLength(2);
    for (const { id } of deliveries) expect(id).toMatch(idPattern('whd'));
  });


  it('stores each scan of a mixed batch as it was, with its own time, counts and webhook', async () => {
    const [poster, flyer] = [await createCode('Poster'), await createCode('Flyer')];
    const base = Date.parse('2026-11-23T12:00:00.000Z');
    const at = (ms: number) => new Date(base + ms);
    const scans = [
      scanOf(poster, { at: at(1) }),
      scanOf(flyer, { at: at(2), device: 'tablet', os: 'Android', browser: 'Chrome', destinationUrl: 'https://example.com/b' }),
      scanOf(poster, { at: at(3), referrerHost: 'news.example' }),
      scanOf(poster, { at: at(4), bot: true }),
      scanOf(poster, { at: at(5) }),
      scanOf(poster, { at: at(6), referrerHost: '' }),
      scanOf(flyer, { at: at(7), bot: true }),
    ];
    await writeScanBatch(database.db, prepareScanBatch(scans));

    const stored = await database.db
      .selectFrom('scans')
      .select(['qr_code_id', 'created_at', 'device', 'os', 'browser', 'destination_url', 'referrer_host'])
      .where('qr_code_id', 'in', [poster.id, flyer.id])
      .orderBy('created_at')
      .execute();
    expect(stored).toEqual(
      scans
        .filter((scan) => !scan.bot)
        .map((scan) => ({
          qr_code_id: scan.codeId, created_at: scan.at, device: scan.device, os: scan.os, browser: scan.browser,
          destination_url: scan.destinationUrl, referrer_host: scan.referrerHost,
        })),
    );
    expect(await scanCountsOf(database.db, poster.id)).toEqual({ scans: 4, botScans: 1 });
    expect(await scanCountsOf(database.db, flyer.id)).toEqual({ scans: 1, botScans: 1 });
    const bodies = await database.db.selectFrom('webhook_deliveries').select('body').where('qr_code_id', 'in', [poster.id, flyer.id]).execute();
    expect(bodies.map(({ body }) => (JSON.parse(body) as { createdAt: string }).createdAt).sort()).toEqual(
      scans.filter((scan) => !scan.bot).map((scan) => scan.at.toISOString()),
    );
  });

  it('leaves out the outbox for accounts without a webhook, and still queues one for a webhook set a moment ago', async () => {
    const other = await createTestAccount(database.db, app);
    const code = await createTestCode(other, { name: 'Leaflet' });
    const scan = () => scanOf(code, { accountId: other.accountId });
    const deliveries = async () => (await database.db.selectFrom('webhook_deliveries').select('id').where('qr_code_id', '=', code.id).execute()).length;
    let clock = 0;
    const writer = new ScanBatchWriter(database.db, () => clock);

    await writer.write(prepareScanBatch([scan(), scan()]));
    expect(writer.stats).toEqual({ withoutWebhooks: 1, withWebhooks: 0, rewrittenWithWebhooks: 0 });
    expect([await scanCount(code.id), await deliveries()]).toEqual([2, 0]);

    // The writer believes this account has no webhook: the statement finds it and the batch is written with it.
    await setWebhook(database.db, app.box, { accountId: other.accountId, url: 'http://127.0.0.1:9/hooks', allowPrivate: true });
    const batch = prepareScanBatch([scan(), { ...scan(), bot: true }, scan()]);
    await writer.write(batch);
    expect(writer.stats).toEqual({ withoutWebhooks: 1, withWebhooks: 0, rewrittenWithWebhooks: 1 });
    expect([await scanCount(code.id), await deliveries()]).toEqual([4, 2]);

    // Now remembered: the next batch goes straight to the full statement; a batch written twice counts once.
    await writer.write(batch);
    await writer.write(prepareScanBatch([scan()]));
    expect(writer.stats).toEqual({ withoutWebhooks: 1, withWebhooks: 2, rewrittenWithWebhooks: 1 });
    expect([await scanCount(code.id), await deliveries()]).toEqual([5, 3]);
    expect(await scanCountsOf(database.db, code.id)).toEqual({ scans: 5, botScans: 1 });

    // Forgotten after a minute: the statement without the outbox is tried again, and finds the webhook again.
    clock += 60_001;
    await writer.write(prepareScanBatch([scan()]));
    expect(writer.stats).toEqual({ withoutWebhooks: 1, withWebhooks: 2, rewrittenWithWebhooks: 2 });
    expect([await scanCount(code.id), await deliveries()]).toEqual([6, 4]);
  });

  it('stores the webhook body JSON.stringify gives, byte for byte, whatever the name holds, routed or not', async () => {
    const name = 'Caf\u00e9 "quoted" \\ back\u2028 \ud83d\ude00 </script>';
    const code = await createCode(name);
    const at = new Date();
    const routed = [
      { ruleId: null, variant: null },
      { ruleId: 'rul_"\u2028x', variant: null },
      { ruleId: null, variant: 1 },
    ];
    // One scan a millisecond apart per routing, so each has its own group and delivery.
    const scans = routed.map((routing, i) => scanOf(code, { at: new Date(at.getTime() + i), device: 'tablet', os: 'Android', browser: 'Chrome', country: 'DE', language: 'de', ...routing }));
    await writeScanBatch(database.db, prepareScanBatch(scans));
    const deliveries = await database.db.selectFrom('webhook_deliveries').select(['id', 'body', 'created_at']).where('qr_code_id', '=', code.id).orderBy('created_at').execute();
    expect(deliveries).toHaveLength(3);
    for (const [i, delivery] of deliveries.entries()) {
      expect(delivery.id).toMatch(idPattern('whd'));
      // Stamped with the scan's millisecond, as newId would stamp it.
      expect(delivery.id.slice(4, 15)).toBe(newId('whd', scans[i]!.at.getTime() * 1000).slice(4, 15));
      expect(delivery.body).toBe(
        scanCreatedBody({ deliveryId: delivery.id, qrCodeId: code.id, slug: code.slug, name, device: 'tablet', os: 'Android', browser: 'Chrome', at: scans[i]!.at, country: 'DE', language: 'de', unique: null, ...routed[i]! }),
      );
    }
  });
});

describe('a batch that is slow to commit', () => {
  it('does not hold up a scan that arrives meanwhile: under light load a second batch is written beside it', async () => {
    const stuck = await createCode('Stuck');
    const other = await createCode('Other');
    const recorder = new ScanRecorder(database.db, silent, { ...DEFAULT_SCAN_RECORDER_OPTIONS, commitTimeoutMs: 60_000 });
    const blocked = await blockScansFrom('slow.example');
    let slowCommitted = false;
    try {
      const slow = recorder.record(scanOf(stuck, { referrerHost: 'slow.example' })).then(() => (slowCommitted = true));
      // Its batch is in the database, waiting for the lock.
      await expect.poll(async () => (await sql<{ n: number }>`select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted and database = (select oid from pg_database where datname = current_database())`.execute(database.db)).rows[0]!.n).toBe(1);
      await recorder.record(scanOf(other, { referrerHost: 'meanwhile.example' }));
      expect((await scanRows(other.id)).map((r) => r.referrer_host)).toEqual(['meanwhile.example']);
      expect(slowCommitted).toBe(false);
      expect(recorder.isLive).toBe(true);
      await blocked.release();
      await slow;
      expect(await scanRows(stuck.id)).toHaveLength(1);
    } finally {
      await blocked.release().catch(() => undefined);
      await recorder.stop(5_000);
    }
  });
});

describe('a batch that does not commit in time', () => {
  it('answers its scans, commits other codes\' scans before their 302 while it waits, and counts every scan once', async () => {
    const stuck = await createCode('Stuck');
    const other = await createCode('Other');
    await phoneScan(stuck.slug); // both cached before the lock
    await phoneScan(other.slug);

    const blocked = await blockScansFrom('blocked.example');
    try {
      const answer = await phoneScan(stuck.slug, 'https://blocked.example/');
      expect(answer.status).toBe(302); // answered after the commit timeout, not when the lock goes
      expect(app.redirect.recorder.isLive).toBe(false);
      const meanwhile = await Promise.all(Array.from({ length: 10 }, () => phoneScan(stuck.slug)));
      expect(meanwhile.every((res) => res.status === 302)).toBe(true);

      // The database still answers, so redirects wait for commits again; the stuck backlog waits beside them.
      await expect.poll(() => app.redirect.recorder.isLive, { timeout: 10_000 }).toBe(true);
      const live = await phoneScan(other.slug, 'https://committed-first.example/');
      expect(live.status).toBe(302);
      expect((await scanRows(other.id)).map((r) => r.referrer_host)).toContain('committed-first.example');
      expect(app.redirect.recorder.backlog).toBeGreaterThan(0);
    } finally {
      await blocked.release();
    }
    await expect.poll(() => app.redirect.recorder.backlog, { timeout: 10_000 }).toBe(0);
    expect(await scanCount(stuck.id)).toBe(12);
    expect(await scanRows(stuck.id)).toHaveLength(12);
    const deliveries = await database.db.selectFrom('webhook_deliveries').select('id').where('qr_code_id', '=', stuck.id).execute();
    expect(deliveries).toHaveLength(12);
  });
});

describe('scans offered while the database refuses connections', () => {
  it('answers twice its memory bound at once, keeps the bound in memory (to a batch) and counts the rest as dropped', async () => {
    // The mechanism at a tenth of the default bound (SCAN_MEMORY_LIMIT, 100,000): the same batches and counts with a
    // tenth of the work, so the test's time holds on a slower machine. Floods past the default bound, at full speed,
    // are scripts/bench/journal-outage.ts's rounds with the journal off.
    const maxBuffered = 10_000;
    const unreachable = createDatabase(`postgres://nobody:x@127.0.0.1:${await freePort()}/none`, { logger: silent });
    const recorder = new ScanRecorder(unreachable, silent, { ...DEFAULT_SCAN_RECORDER_OPTIONS, maxBuffered, retryDelayMs: 60_000 });
    const code = { id: 'qr_00000000000000000000000000', slug: 'AAAAAAAA' };
    try {
      // All at once: on a healthy path they would all wait for the same first commit.
      await Promise.all(Array.from({ length: 2 * maxBuffered }, () => recorder.record(scanOf(code))));
      expect(recorder.isLive).toBe(false);
      // Whole batches are dropped, so what is kept is within one batch of the bound.
      expect(recorder.backlog).toBeLessThanOrEqual(maxBuffered);
      expect(recorder.backlog).toBeGreaterThan(maxBuffered - DEFAULT_SCAN_RECORDER_OPTIONS.maxBatch);
      expect(recorder.backlog + recorder.stats.dropped).toBe(2 * maxBuffered);
    } finally {
      await recorder.stop(0);
      await unreachable.destroy();
    }
  });
});

describe('a scan the database refuses whatever happens', () => {
  it('is dropped on its own, counted and logged (without its visitor hash), and the scans around it are written', async () => {
    const code = await createCode();
    const logLines: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void logLines.push(line) });
    const recorder = new ScanRecorder(database.db, logger, { ...DEFAULT_SCAN_RECORDER_OPTIONS, retryDelayMs: 20 });
    // A NUL character: PostgreSQL text cannot hold it (22P05, a data exception), whatever batch it is in.
    const refused = scanOf(code, { device: 'mobile\u0000', visitor: 'f'.repeat(32) });
    try {
      // The others have visitors too: the refusal's error (its context quotes the batch's JSON) is logged as well.
      const visitors = Array.from({ length: 7 }, (_, n) => `${'e'.repeat(31)}${n}`); // as visitorHash makes them: 32 hex digits
      await Promise.all([...visitors.map((visitor) => recorder.record(scanOf(code, { visitor }))), recorder.record(refused)]);
      await expect.poll(() => recorder.backlog, { timeout: 10_000 }).toBe(0);
      expect(recorder.stats.dropped).toBe(1);
      expect(await scanCount(code.id)).toBe(7);
      expect(recorder.isLive).toBe(true);
      // The scan is logged for the operator, but a visitor hash must not outlive its day, and logs do.
      const dropped = logLines.find((line) => line.includes('keeps refusing was dropped'));
      expect(dropped).toContain(code.id);
      for (const visitor of [...visitors, refused.visitor!]) expect(logLines.join('')).not.toContain(visitor);
    } finally {
      await recorder.stop(1_000);
    }
  });
});

describe('the slug cache', () => {
  async function lookupWithNotifications(options: { maxEntries: number; maxGoneEntries: number }) {
    const lookup = new CodeLookup(database.db, { ttlMs: 60_000, lookupTimeoutMs: 5_000, unknownLookupTimeoutMs: 5_000, ...options });
    lookup.setNotificationsLive(true); // trust entries: a change made behind its back shows whether one was kept
    return lookup;
  }
  const repoint = (id: string, url: string) =>
    database.db.updateTable('qr_codes').set({ destination_url: url }).where('id', '=', id).execute();
  const destinationOf = async (lookup: CodeLookup, slug: string) => {
    const target = await lookup.resolve(slug);
    return target.state === 'active' ? target.destinationUrl : target.state;
  };

  it('keeps live codes when thousands of unknown slugs are scanned', async () => {
    const code = await createCode();
    const lookup = await lookupWithNotifications({ maxEntries: 10, maxGoneEntries: 10 });
    await lookup.resolve(code.slug);
    await repoint(code.id, 'https://changed.example/');
    for (let i = 0; i < 1_000; i++) {
      expect((await lookup.resolve(`${String(i).padStart(4, '0')}ZZZZ`)).state).toBe('gone');
    }
    expect(await destinationOf(lookup, code.slug)).toBe('https://example.com/'); // still the cached entry
  });

  it('drops the least recently scanned code first', async () => {
    const [a, b, c] = [await createCode(), await createCode(), await createCode()];
    const lookup = await lookupWithNotifications({ maxEntries: 2, maxGoneEntries: 2 });
    await lookup.resolve(a.slug);
    await lookup.resolve(b.slug);
    await lookup.resolve(a.slug); // a is now more recent than b
    await lookup.resolve(c.slug); // evicts b
    await repoint(a.id, 'https://a-changed.example/');
    await repoint(b.id, 'https://b-changed.example/');
    expect(await destinationOf(lookup, a.slug)).toBe('https://example.com/');
    expect(await destinationOf(lookup, b.slug)).toBe('https://b-changed.example/');
  });

  it('reads a changed code again at once, so it is cached with its new destination before the next scan', async () => {
    const code = await createCode();
    const lookup = await lookupWithNotifications({ maxEntries: 10, maxGoneEntries: 10 });
    await lookup.resolve(code.slug);
    await repoint(code.id, 'https://changed.example/');
    lookup.invalidate(code.slug); // as the change's notice does
    await expect.poll(() => lookup.fresh(code.slug)).toMatchObject({ destinationUrl: 'https://changed.example/' });
  });

  it('reads again when its code changes during the lookup, and caches what it read after the change', async () => {
    const code = await createCode();
    const lookup = await lookupWithNotifications({ maxEntries: 10, maxGoneEntries: 10 });
    const scan = lookup.resolve(code.slug); // in flight: its read may predate the change
    lookup.invalidate(code.slug);
    await scan;
    expect(lookup.fresh(code.slug)).toMatchObject({ destinationUrl: 'https://example.com/' });
  });
});

describe('what an anonymous scanner can make us store', () => {
  it('keeps no referrer host longer than a host can be', async () => {
    const code = await createCode();
    const res = await phoneScan(code.slug, `https://${'a'.repeat(63)}.${'b'.repeat(8000)}.example/`);
    expect(res.status).toBe(302);
    const rows = await scanRows(code.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.referrer_host).toBeNull();
  });
});
