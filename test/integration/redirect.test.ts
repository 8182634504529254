import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { TestDatabase } from '../support/database.js';
import { CHANGE_NOTICE_TIMEOUT_MS, createTestAccount, type TestAccount, type TestApp, useTestApp } from '../support/test-app.js';
import { IPHONE_SAFARI } from '../support/scan.js';
import { scanCountsOf } from '../../src/codes/scan-counts.js';
import { createTestCode } from '../support/factories.js';

let database: TestDatabase;
let app: TestApp;
let second: TestApp;
let owner: TestAccount;

useTestApp(async (started) => {
  ({ database, app } = started);
  second = await started.startAnother(); // another instance on the same database, with its own cache
  owner = await createTestAccount(database.db, app);
});


async function scan(target: TestApp, path: string, init: { method?: string; userAgent?: string; referer?: string } = {}) {
  return fetch(`${target.origin}${path}`, {
    method: init.method ?? 'GET',
    redirect: 'manual',
    headers: { 'User-Agent': init.userAgent ?? IPHONE_SAFARI, ...(init.referer && { Referer: init.referer }) },
  });
}

const createCode = (url = 'https://example.com/spring') => createTestCode(owner, { url });

/**
 * Scans `path` on `target` until it answers `status`, and says how many scans it answered with a 302 on the way:
 * until the invalidation notice arrives the instance may still serve its cached copy, and every scan it answers is
 * a scan it records (that is the point), so a count of recorded scans must include them.
 */
async function scanUntil(target: TestApp, path: string, status: number, timeout: number) {
  let answered = 0;
  await expect.poll(async () => {
    const res = await scan(target, path);
    if (res.status === 302) answered += 1;
    return res.status;
  }, { timeout, interval: 20 }).toBe(status);
  return { answered };
}

async function scans(id: string) {
  const { data } = await owner.client.raw.GET('/qrcodes/{id}/scans', { params: { path: { id } } });
  return data!;
}

describe('GET /r/<slug>', () => {
  it('answers 302 to the destination, uncacheable and not indexable, and records the scan before answering', async () => {
    const code = await createCode();
    const res = await scan(app, `/r/${code.slug}`, { referer: 'https://news.example.org/article?id=1' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('https://example.com/spring');
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.headers.get('x-robots-tag')).toBe('noindex');
    // No waiting: the scan is committed by the time the 302 arrives.
    const recorded = await scans(code.id);
    expect(recorded.total).toBe(1);
    expect(recorded.data[0]).toMatchObject({ device: 'mobile', os: 'iOS', browser: 'Mobile Safari' });
    const row = await database.db.selectFrom('scans').selectAll().where('qr_code_id', '=', code.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ destination_url: 'https://example.com/spring', referrer_host: 'news.example.org' });
  });

  it('matches /R/ and the slug in any case, with or without a trailing slash or query', async () => {
    const code = await createCode();
    for (const path of [`/R/${code.slug}`, `/r/${code.slug.toLowerCase()}`, `/R/${code.slug}/`, `/r/${code.slug}?src=poster`]) {
      const res = await scan(app, path);
      expect(res.status, path).toBe(302);
      expect(res.headers.get('location')).toBe(code.destinationUrl);
    }
    expect((await scans(code.id)).total).toBe(4);
  });

  it('answers HEAD like GET and records nothing', async () => {
    const code = await createCode();
    const res = await scan(app, `/r/${code.slug}`, { method: 'HEAD' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(code.destinationUrl);
    expect((await scans(code.id)).total).toBe(0);
  });

  it('follows a destination change on the very next scan, on every instance', async () => {
    const code = await createCode('https://example.com/before');
    // Warm both caches.
    expect((await scan(app, `/r/${code.slug}`)).headers.get('location')).toBe('https://example.com/before');
    expect((await scan(second, `/r/${code.slug}`)).headers.get('location')).toBe('https://example.com/before');
    await owner.client.raw.PATCH('/qrcodes/{id}', { params: { path: { id: code.id } }, body: { url: 'https://example.com/after' } });
    // The NOTIFY is delivered on commit; give it the round trip to the other connection.
    await expect.poll(async () => (await scan(second, `/r/${code.slug}`)).headers.get('location'), { timeout: CHANGE_NOTICE_TIMEOUT_MS, interval: 20 })
      .toBe('https://example.com/after');
    expect((await scan(app, `/r/${code.slug}`)).headers.get('location')).toBe('https://example.com/after');
    const served = await database.db.selectFrom('scans').select('destination_url').where('qr_code_id', '=', code.id)
      .orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    expect(served.destination_url).toBe('https://example.com/after');
  });

  it('answers a paused code with a 404 page saying so, records nothing, and redirects again once resumed', async () => {
    const code = await createCode();
    await scan(second, `/r/${code.slug}`);
    await owner.client.raw.PATCH('/qrcodes/{id}', { params: { path: { id: code.id } }, body: { active: false } });
    const { answered } = await scanUntil(second, `/r/${code.slug}`, 404, CHANGE_NOTICE_TIMEOUT_MS);
    const paused = await scan(app, `/r/${code.slug}`);
    expect(paused.status).toBe(404);
    expect(paused.headers.get('cache-control')).toBe('no-store');
    expect(paused.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await paused.text()).toContain('paused');
    expect((await scans(code.id)).total).toBe(1 + answered);

    await owner.client.raw.PATCH('/qrcodes/{id}', { params: { path: { id: code.id } }, body: { active: true } });
    await expect.poll(async () => (await scan(second, `/r/${code.slug}`)).status, { timeout: CHANGE_NOTICE_TIMEOUT_MS, interval: 20 }).toBe(302);
    expect((await scan(app, `/r/${code.slug}`)).status).toBe(302);
  });

  it('answers deleted and unknown slugs with a 404 page and records nothing', async () => {
    const code = await createCode();
    await scan(second, `/r/${code.slug}`);
    await owner.client.raw.DELETE('/qrcodes/{id}', { params: { path: { id: code.id } } });
    const { answered } = await scanUntil(second, `/r/${code.slug}`, 404, CHANGE_NOTICE_TIMEOUT_MS);
    const deleted = await scan(app, `/r/${code.slug}`);
    const page = await deleted.text();
    expect(page).toContain('not found');
    // The page's one stylesheet is allowed by its hash, and nothing else inline is.
    const style = /<style>([^<]*)<\/style>/.exec(page)![1]!;
    expect(deleted.headers.get('content-security-policy')).toBe(
      `default-src 'none'; style-src 'sha256-${createHash('sha256').update(style).digest('base64')}'`,
    );
    for (const path of ['/r/ZZZZZZZZ', '/r/', '/r/abc', '/r/ILOU1234', '/r/%00', `/r/${'A'.repeat(5000)}`]) {
      const res = await scan(app, path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
    expect((await scanCountsOf(database.db, code.id)).scans).toBe(1 + answered);
  });

  it('resolves a code created on another instance straight away', async () => {
    await scan(second, '/r/00000000'); // an unknown slug, cached as gone
    const code = await createCode();
    expect((await scan(second, `/r/${code.slug}`)).status).toBe(302);
  });

  it('answers other methods with 405', async () => {
    const code = await createCode();
    const res = await scan(app, `/r/${code.slug}`, { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
  });
});

describe('user agents', () => {
  const table: Array<[string, string, { device: string; os: string; browser: string } | 'bot']> = [
    ['iPhone Safari', IPHONE_SAFARI, { device: 'mobile', os: 'iOS', browser: 'Mobile Safari' }],
    ['Android Chrome', 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36', { device: 'mobile', os: 'Android', browser: 'Chrome' }],
    ['iPad', 'Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1', { device: 'tablet', os: 'iOS', browser: 'Mobile Safari' }],
    ['Windows Edge', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.2592.87', { device: 'desktop', os: 'Windows', browser: 'Edge' }],
    ['macOS Firefox', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:127.0) Gecko/20100101 Firefox/127.0', { device: 'desktop', os: 'Mac OS', browser: 'Firefox' }],
    ['a smart TV', 'Mozilla/5.0 (SMART-TV; Linux; Tizen 6.0) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/4.0 Chrome/76.0.3809.146 TV Safari/537.36', { device: 'smarttv', os: 'Tizen', browser: 'Samsung Internet' }],
    ['curl', 'curl/8.5.0', 'bot'],
    ['Googlebot', 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'bot'],
    ['Slackbot', 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)', 'bot'],
    ['WhatsApp preview', 'WhatsApp/2.23.20.0', 'bot'],
    ['no user agent', '', 'bot'],
  ];

  it.each(table)('classifies %s', async (_label, userAgent, expected) => {
    const code = await createCode();
    const res = await scan(app, `/r/${code.slug}`, { userAgent });
    expect(res.status).toBe(302); // bots are redirected too
    const recorded = await scans(code.id);
    const counters = await scanCountsOf(database.db, code.id);
    if (expected === 'bot') {
      expect(recorded).toEqual({ total: 0, data: [] });
      expect(counters).toEqual({ scans: 0, botScans: 1 });
    } else {
      expect(recorded.total).toBe(1);
      expect(recorded.data[0]).toMatchObject(expected);
      expect(counters).toEqual({ scans: 1, botScans: 0 });
    }
  });
});

describe('scan durability and counting', () => {
  it('counts every one of 1005 concurrent scans of one code and lists the newest 1000', async () => {
    const code = await createCode();
    const batches = 5;
    for (let b = 0; b < batches; b++) {
      const results = await Promise.all(Array.from({ length: 201 }, (_, i) => scan(i % 2 ? app : second, `/r/${code.slug}`)));
      expect(results.every((r) => r.status === 302)).toBe(true);
    }
    const recorded = await scans(code.id);
    expect(recorded.total).toBe(1005);
    expect(recorded.data).toHaveLength(1000);
    const times = recorded.data.map((s) => Date.parse(s.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const { count } = await database.db.selectFrom('scans').select((eb) => eb.fn.countAll<number>().as('count'))
      .where('qr_code_id', '=', code.id).executeTakeFirstOrThrow();
    expect(Number(count)).toBe(1005);
  });

  it('writes concurrent scans in shared transactions (group commit)', async () => {
    const code = await createCode();
    const before = app.redirect.recorder.stats.batches;
    await Promise.all(Array.from({ length: 200 }, () => scan(app, `/r/${code.slug}`)));
    const batches = app.redirect.recorder.stats.batches - before;
    expect(batches).toBeLessThan(200);
    expect((await scans(code.id)).total).toBe(200);
  });

  it('keeps answering while the database cannot be written, and writes the scans once it can', async () => {
    const code = await createCode();
    await scan(app, `/r/${code.slug}`); // cache the target
    // A real write failure: the scans table refuses inserts (what a full disk or a read-only standby would do).
    await sql`create function refuse_scans() returns trigger language plpgsql as $$ begin raise exception 'scans unavailable'; end $$`
      .execute(database.db);
    await sql`create trigger refuse_scans before insert on scan_groups execute function refuse_scans()`.execute(database.db);
    try {
      const during = await Promise.all(Array.from({ length: 20 }, () => scan(app, `/r/${code.slug}`)));
      expect(during.every((r) => r.status === 302)).toBe(true);
      expect(app.redirect.recorder.backlog).toBeGreaterThan(0);
    } finally {
      await sql`drop trigger refuse_scans on scan_groups`.execute(database.db);
      await sql`drop function refuse_scans()`.execute(database.db);
    }
    await expect.poll(async () => (await scans(code.id)).total, { timeout: 10_000, interval: 100 }).toBe(21);
    expect(app.redirect.recorder.backlog).toBe(0);
  });
});
