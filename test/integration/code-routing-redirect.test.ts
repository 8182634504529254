import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { exportScansCsv } from '../../src/analytics/index.js';
import { scanCountsOf } from '../../src/codes/scan-counts.js';
import type { Database } from '../../src/db/schema/index.js';
import { setWebhook } from '../../src/webhooks/webhook-settings.js';
import { createTestCode, createTestTypedCode, setTestRouting } from '../support/factories.js';
import { IPHONE_SAFARI } from '../support/scan.js';
import { CHANGE_NOTICE_TIMEOUT_MS, createTestAccount, type TestAccount, type TestApp, useTestApp } from '../support/test-app.js';

/**
 * The redirect of a code with routing and a schedule (issue 28, docs/integrating/short-links.md): where a scan is
 * sent, what it records, and what it answers before its start, after its expiry and past its scan limit. Two
 * instances on one database behind a trusted proxy (TRUST_PROXY=loopback: a test names the scanner's address in
 * X-Forwarded-For, placed by the shipped DB-IP Lite database). Routing is put on a code as the API stores it
 * (setTestRouting); the row's change trigger announces it to both instances' caches.
 */

const ANDROID_CHROME = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const US = '8.8.8.8';
const DE = '193.99.144.80';
const HOUR = 3_600_000;

let app: TestApp;
let second: TestApp;
let db: Database;
let owner: TestAccount;

useTestApp(
  async (started) => {
    app = started.app;
    db = started.database.db;
    second = await started.startAnother({ trustProxy: 'loopback' });
    owner = await createTestAccount(db, app);
  },
  { trustProxy: 'loopback' },
);

async function scanFrom(on: TestApp, slug: string, init: { ip?: string; userAgent?: string; method?: string } = {}) {
  const response = await fetch(`${on.origin}/r/${slug}`, {
    method: init.method ?? 'GET',
    redirect: 'manual',
    headers: { 'X-Forwarded-For': init.ip ?? US, 'User-Agent': init.userAgent ?? IPHONE_SAFARI },
  });
  return { status: response.status, location: response.headers.get('location'), headers: response.headers, body: await response.text() };
}

/** The code's scans as the `scans` view holds them, oldest first. */
async function storedScans(codeId: string) {
  return db.selectFrom('scans').select(['destination_url', 'rule_id', 'variant', 'os', 'country'])
    .where('qr_code_id', '=', codeId).orderBy('created_at').orderBy('group_id').orderBy('position').execute();
}

/** Scans from two instances until `ready` holds for an answer: the change notice reaches each cache a moment after the commit. */
async function untilBoth(slug: string, ready: (answer: Awaited<ReturnType<typeof scanFrom>>) => boolean, init: Parameters<typeof scanFrom>[2] = {}) {
  for (const on of [app, second]) await expect.poll(async () => ready(await scanFrom(on, slug, { ...init, method: 'HEAD' })), { timeout: CHANGE_NOTICE_TIMEOUT_MS, interval: 20 }).toBe(true);
}

describe('a code with routing rules', () => {
  it('sends an iPhone and an Android phone to their rules, records each rule, and tells the webhook and the CSV', async () => {
    const subscriber = await createTestAccount(db, app);
    await setWebhook(db, app.box, { accountId: subscriber.accountId, url: 'http://127.0.0.1:9/hooks', allowPrivate: true });
    const code = await createTestCode(subscriber, { url: 'https://example.com/default' });
    const routing = (await setTestRouting(db, code.id, {
      routing: {
        rules: [
          { name: 'iPhones', when: { os: ['iOS'] }, destinationUrl: 'https://example.com/ios' },
          { name: 'Android', when: { os: ['Android'] }, destinationUrl: 'https://example.com/android' },
        ],
      },
    }))!;
    await untilBoth(code.slug, (answer) => answer.location === 'https://example.com/ios');
    const [ios, android] = routing.rules.map((rule) => rule.id);

    expect((await scanFrom(app, code.slug)).location).toBe('https://example.com/ios');
    expect((await scanFrom(second, code.slug, { userAgent: ANDROID_CHROME })).location).toBe('https://example.com/android');
    expect((await scanFrom(app, code.slug, { userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Firefox/128.0' })).location).toBe('https://example.com/default');

    expect(await storedScans(code.id)).toEqual([
      { destination_url: 'https://example.com/ios', rule_id: ios, variant: null, os: 'iOS', country: 'US' },
      { destination_url: 'https://example.com/android', rule_id: android, variant: null, os: 'Android', country: 'US' },
      { destination_url: 'https://example.com/default', rule_id: null, variant: null, os: 'Windows', country: 'US' },
    ]);
    const bodies = (await db.selectFrom('webhook_deliveries').select('body').where('qr_code_id', '=', code.id).orderBy('created_at').execute())
      .map((row) => JSON.parse(row.body) as Record<string, unknown>);
    expect(bodies.map(({ os, ruleId, variant }) => ({ os, ruleId, variant }))).toEqual([
      { os: 'iOS', ruleId: ios, variant: null },
      { os: 'Android', ruleId: android, variant: null },
      { os: 'Windows', ruleId: null, variant: null },
    ]);
    let csv = '';
    for await (const chunk of await exportScansCsv(db, { accountId: subscriber.accountId, codeId: code.id })) csv += chunk;
    expect(csv.trim().split('\r\n').map((line) => line.split(',').slice(-2))).toEqual([['rule_id', 'variant'], [ios, ''], [android, ''], ['', '']]);
  });

  it('routes by the country of the scanner\'s address, and a page or an APP code only when a rule matches', async () => {
    const code = await createTestCode(owner, { url: 'https://example.com/world' });
    const wifi = await createTestTypedCode(db, { accountId: owner.accountId, keyId: owner.keyId }, { type: 'WIFI' });
    const germany = { rules: [{ when: { countries: ['DE'] }, destinationUrl: 'https://example.com/de' }] };
    await setTestRouting(db, code.id, { routing: germany });
    await setTestRouting(db, wifi.id, { routing: germany });
    const appCode = await createTestTypedCode(db, { accountId: owner.accountId, keyId: owner.keyId }, { type: 'APP' });
    await setTestRouting(db, appCode.id, { routing: germany });
    await untilBoth(code.slug, (answer) => answer.location === 'https://example.com/de', { ip: DE });
    await untilBoth(wifi.slug, (answer) => answer.location === 'https://example.com/de', { ip: DE });

    expect((await scanFrom(second, code.slug, { ip: DE })).location).toBe('https://example.com/de');
    expect((await scanFrom(second, code.slug, { ip: US })).location).toBe('https://example.com/world');
    expect((await scanFrom(app, wifi.slug, { ip: DE })).location).toBe('https://example.com/de');
    const page = await scanFrom(app, wifi.slug, { ip: US });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect((await storedScans(wifi.id)).map((scan) => [scan.country, scan.rule_id !== null])).toEqual([['DE', true], ['US', false]]);
    // An APP code's default is still the store for the phone's system.
    await untilBoth(appCode.slug, (answer) => answer.location === 'https://example.com/de', { ip: DE });
    const store = (await scanFrom(app, appCode.slug, { ip: US })).location;
    expect(store).toBe('https://apps.apple.com/app/id1');
    expect((await scanFrom(app, appCode.slug, { ip: US, userAgent: ANDROID_CHROME })).location).toBe('https://play.google.com/store/apps/details?id=x');
  });

  it('keeps each visitor on one split variant through the real short URL, and records the variant it sent them to', async () => {
    const code = await createTestCode(owner, { url: 'https://example.com/a' });
    await setTestRouting(db, code.id, {
      routing: { rules: [], split: [{ destinationUrl: 'https://example.com/a', weight: 50 }, { destinationUrl: 'https://example.com/b', weight: 50 }] },
    });
    // Public addresses of different places: each its own visitor.
    const visitors = [US, DE, '80.67.169.12', '133.242.0.3', '1.1.1.1', '9.9.9.9', '208.67.222.222', '77.88.8.8'];
    await untilBoth(code.slug, (answer) => answer.location !== null);
    const answers = await Promise.all(visitors.flatMap((ip) => [app, second, app].map(async (on) => [ip, (await scanFrom(on, code.slug, { ip })).location] as const)));
    const byVisitor = new Map<string, Set<string | null>>();
    for (const [ip, location] of answers) byVisitor.set(ip, (byVisitor.get(ip) ?? new Set()).add(location));
    for (const [ip, locations] of byVisitor) expect([ip, locations.size]).toEqual([ip, 1]);
    const stored = await storedScans(code.id);
    expect(stored).toHaveLength(visitors.length * 3);
    for (const scan of stored) expect(scan.destination_url).toBe(scan.variant === 0 ? 'https://example.com/a' : 'https://example.com/b');
    expect(stored.every((scan) => scan.rule_id === null && (scan.variant === 0 || scan.variant === 1))).toBe(true);
  });

  it('is seen changed by the next scan on another instance', async () => {
    const code = await createTestCode(owner, { url: 'https://example.com/plain' });
    expect((await scanFrom(second, code.slug)).location).toBe('https://example.com/plain');
    await setTestRouting(db, code.id, { routing: { rules: [{ when: { devices: ['mobile'] }, destinationUrl: 'https://example.com/phones' }] } });
    await expect.poll(async () => (await scanFrom(second, code.slug, { method: 'HEAD' })).location, { timeout: CHANGE_NOTICE_TIMEOUT_MS, interval: 20 }).toBe('https://example.com/phones');
    await setTestRouting(db, code.id, { routing: null });
    await expect.poll(async () => (await scanFrom(second, code.slug, { method: 'HEAD' })).location, { timeout: CHANGE_NOTICE_TIMEOUT_MS, interval: 20 }).toBe('https://example.com/plain');
  });
});

describe('a scheduled code', () => {
  it('answers before its start, after its expiry and with an expired URL without counting a scan or queueing a webhook', async () => {
    const subscriber = await createTestAccount(db, app);
    await setWebhook(db, app.box, { accountId: subscriber.accountId, url: 'http://127.0.0.1:9/hooks', allowPrivate: true });
    const code = await createTestCode(subscriber, { url: 'https://example.com/offer' });

    await setTestRouting(db, code.id, { activeFrom: new Date(Date.now() + HOUR) });
    await untilBoth(code.slug, (answer) => answer.status === 404);
    const early = await scanFrom(app, code.slug);
    expect(early.status).toBe(404);
    expect(early.body).toContain('This code is not active yet');
    expect(early.body).toContain('name="viewport"');
    expect(early.headers.get('cache-control')).toBe('no-store');
    expect(early.headers.get('x-robots-tag')).toBe('noindex');
    expect(early.headers.get('content-security-policy')).toContain("default-src 'none'");

    await setTestRouting(db, code.id, { activeFrom: new Date(Date.now() - 2 * HOUR), expiresAt: new Date(Date.now() - HOUR) });
    await untilBoth(code.slug, (answer) => answer.status === 410);
    const expired = await scanFrom(second, code.slug);
    expect(expired.status).toBe(410);
    expect(expired.body).toContain('This code has expired');
    expect(expired.headers.get('cache-control')).toBe('no-store');

    await setTestRouting(db, code.id, { expiredUrl: 'https://example.com/offer-ended' });
    await untilBoth(code.slug, (answer) => answer.status === 302);
    expect(await scanFrom(app, code.slug)).toMatchObject({ status: 302, location: 'https://example.com/offer-ended' });
    expect(await scanFrom(second, code.slug, { userAgent: GOOGLEBOT })).toMatchObject({ status: 302, location: 'https://example.com/offer-ended' });

    // Active again (its expiry moved on): only now is a scan counted and sent.
    await setTestRouting(db, code.id, { expiresAt: new Date(Date.now() + HOUR) });
    await untilBoth(code.slug, (answer) => answer.location === 'https://example.com/offer');
    expect(await scanFrom(app, code.slug)).toMatchObject({ status: 302, location: 'https://example.com/offer' });
    expect(await scanCountsOf(db, code.id)).toEqual({ scans: 1, botScans: 0 });
    expect(await db.selectFrom('webhook_deliveries').select('id').where('qr_code_id', '=', code.id).execute()).toHaveLength(1);
  });

  it('lets exactly scanLimit of 200 concurrent scans across two instances reach the destination, and answers the rest as expired', async () => {
    const code = await createTestCode(owner, { url: 'https://example.com/first-37' });
    const limit = 37;
    await setTestRouting(db, code.id, { scanLimit: limit });
    await untilBoth(code.slug, () => true);
    // HEAD scans record nothing: the limit is untouched until now.
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => scanFrom(i % 2 ? app : second, code.slug, { ip: `8.8.${i % 4}.${i}` })));
    const count = (status: number, location: string | null = null) => answers.filter((a) => a.status === status && a.location === location).length;
    expect({ reached: count(302, 'https://example.com/first-37'), expired: count(410) }).toEqual({ reached: limit, expired: 200 - limit });
    expect((await owner.client.getQrCode(code.id)).scanCount).toBe(limit);
    expect(await storedScans(code.id)).toHaveLength(limit);
    // A bot never consumes the limit; once it is reached, it is answered as expired too.
    expect((await scanFrom(app, code.slug, { userAgent: GOOGLEBOT })).status).toBe(410);
    expect(await scanCountsOf(db, code.id)).toEqual({ scans: limit, botScans: 0 });
  });

  it('answers 503 when its scan limit cannot be decided in time, and counts nothing for it', async () => {
    const code = await createTestCode(owner, { url: 'https://example.com/limited' });
    await setTestRouting(db, code.id, { scanLimit: 5 });
    await untilBoth(code.slug, () => true);
    // Another transaction holds the code's row: the admission cannot be decided within SCAN_COMMIT_TIMEOUT_MS (as
    // when the database does not answer), and a limited scan is never journaled without a decision.
    let release!: () => void;
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holding = db.transaction().execute(async (trx) => {
      await sql`select id from qr_codes where id = ${code.id} for update`.execute(trx);
      locked();
      await new Promise<void>((resolve) => (release = resolve));
    });
    await isLocked;
    try {
      const answer = await scanFrom(app, code.slug);
      expect([answer.status, answer.body]).toEqual([503, 'Temporarily unavailable, please scan again.']);
    } finally {
      release();
      await holding;
    }
    // Its transaction ended itself before the 503: nothing committed late once the lock was gone.
    expect(await scanCountsOf(db, code.id)).toEqual({ scans: 0, botScans: 0 });
    expect(await scanFrom(app, code.slug)).toMatchObject({ status: 302, location: 'https://example.com/limited' });
    expect(await scanCountsOf(db, code.id)).toEqual({ scans: 1, botScans: 0 });
  });
});
