import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daySecret, deletePastVisitorDays, utcDay, VisitorDays } from '../../src/audience/visitor-days.js';
import type { Database } from '../../src/db/schema/index.js';
import { createVisitorDaysJob } from '../../src/maintenance/visitor-days-job.js';
import { prepareScanBatch, type ScanEvent, writeScanBatch } from '../../src/redirect/scan-batch.js';
import { setWebhook } from '../../src/webhooks/webhook-settings.js';
import { createTestCode } from '../support/factories.js';
import { IPHONE_SAFARI } from '../support/scan.js';
import { createTestAccount, type TestAccount, type TestApp, useTestApp } from '../support/test-app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * What a scan records about its audience (docs/dashboard/audience.md), through the real service behind a trusted
 * proxy (TRUST_PROXY=loopback, so a test names the scanner's address in X-Forwarded-For), with the embedded DB-IP
 * Lite Country database. The clock starts at a fixed midday and a test moves it by whole days: no waiting.
 */

const DAY_MS = 86_400_000;
const ANDROID_CHROME = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';
const START = Date.UTC(2030, 0, 15, 12);
const began = Date.now();
let days = 0;
const now = () => START + days * DAY_MS + (Date.now() - began);

/** Every line the servers log, at every level. */
const logLines: string[] = [];
const logger = pino({ level: 'trace' }, { write: (line: string) => void logLines.push(line) });
const tuning = { now, logger };

let app: TestApp;
let second: TestApp;
let db: Database;
let owner: TestAccount;
let receiver: WebhookReceiver;

useTestApp(
  async (started) => {
    app = started.app;
    db = started.database.db;
    second = await started.startAnother({ trustProxy: 'loopback' }, tuning);
    owner = await createTestAccount(db, app);
  },
  { trustProxy: 'loopback' },
  { tuning },
);
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver?.close();
});

/** A scan from `ip` as a phone behind the proxy; resolves once it is answered (and so committed). */
async function scanFrom(on: TestApp, slug: string, ip: string, init: { userAgent?: string; language?: string } = {}): Promise<void> {
  const response = await fetch(`${on.origin}/r/${slug}`, {
    redirect: 'manual',
    headers: {
      'X-Forwarded-For': ip,
      'User-Agent': init.userAgent ?? IPHONE_SAFARI,
      ...(init.language !== undefined && { 'Accept-Language': init.language }),
    },
  });
  expect(response.status).toBe(302);
}

/** The code's scans through the API, oldest first. */
async function scansOf(code: { id: string }) {
  return (await owner.client.listQrCodeScans(code.id)).data.reverse();
}

describe('a scan', () => {
  it('records the country of real public addresses from the embedded database, no region or city, and the first language', async () => {
    const code = await createTestCode(owner, { name: 'World poster' });
    const visits: Array<[string, string | undefined, string | null, string | null]> = [
      ['8.8.8.8', 'en-US,en;q=0.9', 'US', 'en'],
      ['193.99.144.80', 'de-DE,de;q=0.9,en;q=0.8', 'DE', 'de'],
      ['80.67.169.12', 'fr', 'FR', 'fr'],
      ['133.242.0.3', 'ja-JP', 'JP', 'ja'],
      ['200.160.2.3', 'pt_BR', 'BR', 'pt'],
      ['2a00:1450:4001:80b::200e', '*', 'DE', null],
      ['10.1.2.3', undefined, null, null], // a private address is nowhere
    ];
    for (const [ip, language] of visits) await scanFrom(app, code.slug, ip, { language });
    const scans = await scansOf(code);
    expect(scans.map(({ country, region, city, language }) => [country, region, city, language])).toEqual(
      visits.map(([, , country, language]) => [country, null, null, language]),
    );
    expect(scans.every((scan) => scan.unique === true)).toBe(true);
  });

  it('is unique only as a visitor\'s first scan of the code that UTC day: same address and browser count once, another browser again', async () => {
    const code = await createTestCode(owner, { name: 'Unique poster' });
    const other = await createTestCode(owner, { name: 'Other poster' });
    await scanFrom(app, code.slug, '193.99.144.80');
    await scanFrom(app, code.slug, '193.99.144.80');
    await scanFrom(app, code.slug, '193.99.144.80', { userAgent: ANDROID_CHROME });
    await scanFrom(app, code.slug, '8.8.8.8');
    await scanFrom(app, code.slug, '8.8.8.8');
    await scanFrom(app, other.slug, '8.8.8.8'); // another code: its own first scan
    expect((await scansOf(code)).map((scan) => scan.unique)).toEqual([true, false, true, true, false]);
    expect((await scansOf(other)).map((scan) => scan.unique)).toEqual([true]);
    expect(await owner.client.getQrCode(code.id)).toMatchObject({ scanCount: 5, uniqueScanCount: 3 });

    // The next UTC day everybody is a new visitor again, under the new day's secret: the same person's hash differs.
    const yesterday = utcDay(now());
    days += 1;
    await scanFrom(app, code.slug, '193.99.144.80');
    await scanFrom(app, code.slug, '193.99.144.80');
    expect((await scansOf(code)).slice(-2).map((scan) => scan.unique)).toEqual([true, false]);
    expect(await owner.client.getQrCode(code.id)).toMatchObject({ scanCount: 7, uniqueScanCount: 4 });
    const { rows: hashes } = await sql<{ day: string; visitor: string }>`
      select day::text as day, encode(visitor, 'hex') as visitor from scan_visitors where qr_code_id = ${code.id}`.execute(db);
    const before = hashes.filter((row) => row.day === yesterday).map((row) => row.visitor);
    const after = hashes.filter((row) => row.day > yesterday).map((row) => row.visitor);
    expect([before.length, after.length]).toEqual([3, 1]);
    expect(before).not.toContain(after[0]);
  });

  it('is unique exactly once across two instances on one database, whichever answers', async () => {
    const code = await createTestCode(owner, { name: 'Two instances poster' });
    const visitors = ['8.8.8.8', '193.99.144.80', '80.67.169.12'];
    // Every visitor scans four times, on both instances, at once.
    await Promise.all(visitors.flatMap((ip) => [app, second, app, second].map((on) => scanFrom(on, code.slug, ip))));
    const scans = await scansOf(code);
    expect(scans).toHaveLength(12);
    expect(scans.filter((scan) => scan.unique === true)).toHaveLength(3);
    expect(new Set(scans.filter((scan) => scan.unique === true).map((scan) => scan.country))).toEqual(new Set(['US', 'DE', 'FR']));
    expect(await owner.client.getQrCode(code.id)).toMatchObject({ scanCount: 12, uniqueScanCount: 3 });
  });

  it('tells a webhook its country, language and whether it was unique', async () => {
    const subscriber = await createTestAccount(db, app);
    await setWebhook(db, app.box, { accountId: subscriber.accountId, url: receiver.url, allowPrivate: true });
    const code = await createTestCode(subscriber, { name: 'Webhook poster' });
    await scanFrom(app, code.slug, '80.67.169.12', { language: 'fr-FR,fr;q=0.9' });
    await scanFrom(app, code.slug, '80.67.169.12', { language: 'fr-FR,fr;q=0.9' });
    const bodies = (await receiver.waitFor(2, 10_000)).map((request) => JSON.parse(request.rawBody.toString('utf8')) as Record<string, unknown>);
    expect(bodies.map(({ country, language, unique }) => ({ country, language, unique })).sort((a, b) => Number(b.unique) - Number(a.unique))).toEqual([
      { country: 'FR', language: 'fr', unique: true },
      { country: 'FR', language: 'fr', unique: false },
    ]);
  });
});

describe('a batch of scans', () => {
  it('decides uniqueness in its own statement, once: written again it changes nothing; unknown visitors and forgotten days are null', async () => {
    const code = await createTestCode(owner, { name: 'Batch poster' });
    const day = utcDay(now());
    await daySecret(db, day);
    const at = new Date(now());
    const longAgo = new Date(Date.UTC(2029, 0, 1, 12)); // a day whose secret is gone: replayed from a journal late
    const scanOf = (overrides: Partial<ScanEvent>): ScanEvent => ({
      codeId: code.id, accountId: owner.accountId, at, device: 'mobile', os: 'iOS', browser: 'Mobile Safari',
      destinationUrl: 'https://example.com/', referrerHost: null, country: 'DE', region: null, city: null, language: 'de', visitor: null, bot: false,
      ...overrides,
    });
    const batch = prepareScanBatch([
      scanOf({ visitor: 'a'.repeat(32) }),
      scanOf({ visitor: 'a'.repeat(32) }),
      scanOf({ visitor: 'b'.repeat(32) }),
      scanOf({ visitor: null }),
      scanOf({ visitor: 'c'.repeat(32), at: longAgo }),
    ]);
    await writeScanBatch(db, batch);
    await writeScanBatch(db, batch); // its answer was lost: written again
    const groups = await db.selectFrom('scan_groups').select(['is_unique', 'times']).where('qr_code_id', '=', code.id).orderBy('id').execute();
    expect(groups.map((group) => `${group.is_unique}:${group.times?.length ?? 1}`).sort()).toEqual(['false:1', 'null:1', 'null:1', 'true:2']);
    const { rows } = await sql<{ visitors: number }>`select count(*)::int as visitors from scan_visitors where qr_code_id = ${code.id}`.execute(db);
    expect(rows[0]!.visitors).toBe(2);
    expect(await owner.client.getQrCode(code.id)).toMatchObject({ scanCount: 5, uniqueScanCount: 2 });
  });
});

describe('the day\'s visitor secret and visitors', () => {
  it('are shared by the instances, and destroyed once the UTC day has ended', async () => {
    const code = await createTestCode(owner, { name: 'Forgotten poster' });
    await scanFrom(app, code.slug, '133.242.0.3');
    await scanFrom(second, code.slug, '133.242.0.3');
    const today = utcDay(now());
    const rowsOf = async (day: string) => {
      const { rows } = await sql<{ secrets: number; visitors: number }>`
        select (select count(*) from visitor_secrets where day = ${day}::date)::int as secrets,
               (select count(*) from scan_visitors where day = ${day}::date)::int as visitors`.execute(db);
      return rows[0];
    };
    expect(await rowsOf(today)).toMatchObject({ secrets: 1 });
    expect((await rowsOf(today))!.visitors).toBeGreaterThan(0);

    // The day ends (plus the grace for its last batches): the job every server runs destroys both.
    days += 1;
    await createVisitorDaysJob({ db, logger, now }).runOnce();
    expect(await rowsOf(today)).toEqual({ secrets: 0, visitors: 0 });
    // The scans themselves stay, with what they were.
    expect((await scansOf(code)).map((scan) => [scan.country, scan.unique])).toEqual([['JP', true], ['JP', false]]);
  });

  it('cannot be made again for a day that is over by the database\'s clock, whose job destroys what is left of it', async () => {
    const code = await createTestCode(owner, { name: 'Yesterday poster' });
    // The database's real clock, not this file's (years ahead): a day ended long ago gets no new secret.
    const over = '2021-03-01';
    expect(await daySecret(db, over)).toBeNull();
    // A row such a day left (the job has not run since) is not handed out either, and the job deletes it, the
    // day's visitors with it, by the database's clock; this file's day (still to come by that clock) is kept.
    await sql`insert into visitor_secrets (day, secret) values (${over}::date, ${Buffer.alloc(32, 1)})`.execute(db);
    await sql`insert into scan_visitors (day, qr_code_id, visitor) values (${over}::date, ${code.id}, ${Buffer.alloc(16, 2)})`.execute(db);
    expect(await daySecret(db, over)).toBeNull();
    const today = utcDay(now());
    expect(await daySecret(db, today)).toBeInstanceOf(Buffer);
    await deletePastVisitorDays(db);
    const { rows } = await sql<{ day: string; secrets: number; visitors: number }>`
      select d.day::text as day, (select count(*) from visitor_secrets s where s.day = d.day)::int as secrets,
             (select count(*) from scan_visitors v where v.day = d.day)::int as visitors
      from (values (${over}::date), (${today}::date)) as d(day) order by d.day`.execute(db);
    expect(rows.map(({ day, secrets }) => [day, secrets])).toEqual([[over, 0], [today, 1]]);
    expect(rows[0]!.visitors).toBe(0);
  });

  it('is kept in memory for its own day only', async () => {
    let clock = Date.UTC(2031, 5, 1, 12);
    const days = new VisitorDays(db, logger, { now: () => clock });
    const first = await days.secretFor(new Date(clock));
    expect(first).toBeInstanceOf(Buffer);
    expect(days.secretFor(new Date(clock))).toBe(first); // from memory: no promise, no database
    clock += DAY_MS;
    const next = await days.secretFor(new Date(clock));
    expect(next).toBeInstanceOf(Buffer);
    expect(next!.equals(first!)).toBe(false);
    // The past day's is gone from memory: a scan of that day gets no secret (and so no visitor).
    expect(days.secretFor(new Date(clock - DAY_MS))).toBeNull();
    days.stop();
  });
});

describe('the scanner\'s IP address', () => {
  it('is nowhere in the database nor in the servers\' log after scans from known addresses', async () => {
    const code = await createTestCode(owner, { name: 'Private poster' });
    const addresses = ['203.0.113.77', '193.99.144.80', '133.242.0.3', '2a00:1450:4001:80b::200e'];
    for (const ip of addresses) await scanFrom(app, code.slug, ip, { language: 'de' });
    for (const ip of addresses) await scanFrom(second, code.slug, ip, { userAgent: ANDROID_CHROME });
    expect((await scansOf(code)).length).toBe(8);

    const dump = await dumpEveryRow(db);
    expect(dump).toContain(code.id); // the dump does hold the scans
    const logs = logLines.join('');
    expect(logs).toContain('"part":"redirect"'); // and the log the redirect part's lines
    for (const ip of [...addresses, '8.8.8.8', '80.67.169.12', '200.160.2.3']) {
      for (const form of spellings(ip)) {
        expect(dump, ip).not.toContain(form);
        expect(logs, ip).not.toContain(form);
      }
    }
  });
});

/**
 * What pg_dump's data section holds: every row of every table, as text (bytea as hex). pg_dump itself is not used:
 * the embedded PostgreSQL packages ship none, and a system pg_dump of another major version refuses the server
 * (src/cli/backup.ts says the same), so a fresh CI machine has no pg_dump that works.
 */
async function dumpEveryRow(database: Database): Promise<string> {
  const { rows: tables } = await sql<{ name: string }>`
    select format('%I.%I', n.nspname, c.relname) as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relkind in ('r', 'p', 'm') and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg_toast%'`.execute(database);
  expect(tables.map((table) => table.name)).toEqual(expect.arrayContaining(['public.scan_groups', 'public.scan_visitors', 'public.webhook_deliveries']));
  const parts: string[] = [];
  for (const { name } of tables) {
    const { rows } = await sql<{ text: string | null }>`select string_agg(t::text, E'\n') as text from ${sql.raw(name)} t`.execute(database);
    parts.push(`-- ${name}\n${rows[0]?.text ?? ''}`);
  }
  return parts.join('\n');
}

/** An address as text, and as the hex of its bytes (how bytea or a packed number would show it). */
function spellings(ip: string): string[] {
  if (ip.includes(':')) return [ip, ip.toUpperCase()];
  const bytes = Buffer.from(ip.split('.').map(Number));
  return [ip, bytes.toString('hex'), String(bytes.readUInt32BE(0))];
}
