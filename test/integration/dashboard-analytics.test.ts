import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { foldScans } from '../../src/analytics/index.js';
import { recentScans } from '../../src/analytics/recent-scans.js';
import { createQrCode, type QrCode } from '../../src/codes/index.js';
import type { TestDatabase } from '../support/database.js';
import { createPerson, dashboardHttp, type DashboardHttp, type TestPerson, useDashboardApp } from '../support/dashboard.js';
import { createSignedInPerson } from '../support/factories.js';
import type { TestApp } from '../support/test-app.js';

let database: TestDatabase;
let app: TestApp;
let owner: TestPerson;
let stranger: TestPerson;
let http: DashboardHttp;

// The test folds scans into the rollup by hand, to check pages over folded and not-yet-folded scans alike.
useDashboardApp((started) => ({ database, app } = started), {}, { withoutJobs: ['rollup'] });
beforeAll(async () => {
  owner = await createPerson(database.db, { accountName: 'Acme Bakery' });
  stranger = await createPerson(database.db);
  http = await dashboardHttp(app, owner);
});

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

async function makeCode(person: TestPerson, name: string): Promise<QrCode> {
  const made = await createQrCode(database.db, {
    accountId: person.accountId,
    name,
    destinationUrl: 'https://example.com/menu',
    actor: { kind: 'user', userId: person.userId },
  });
  return made.code;
}

interface InsertedScan {
  at: Date;
  device: string;
  os: string;
  browser: string;
  referrer?: string;
}

/** Scans as the redirect records them (row plus the code's counter), at chosen times. */
async function insertScans(code: QrCode, scans: InsertedScan[], bots = 0): Promise<void> {
  await database.db
    .insertInto('scans')
    .values(scans.map((scan) => ({ qr_code_id: code.id, created_at: scan.at, device: scan.device, os: scan.os, browser: scan.browser, destination_url: code.destinationUrl, referrer_host: scan.referrer ?? null })))
    .execute();
  await database.db
    .updateTable('qr_codes')
    .set({ scan_count: sql`scan_count + ${scans.length}`, bot_scan_count: sql`bot_scan_count + ${bots}` })
    .where('id', '=', code.id)
    .execute();
}

/** `count` scans one millisecond apart from `at` in one group (as the redirect packs a burst), with an audience. */
async function insertGroup(code: QrCode, at: Date, count: number, fields: { country?: string; language?: string; device?: string; os?: string; browser?: string }): Promise<void> {
  const times = count > 1 ? Array.from({ length: count }, (_, n) => new Date(at.getTime() + n)) : null;
  await sql`
    insert into scan_groups (qr_code_id, device, os, browser, country, language, first_at, times)
    values (${code.id}, ${fields.device ?? 'mobile'}, ${fields.os ?? 'iOS'}, ${fields.browser ?? 'Mobile Safari'}, ${fields.country ?? null},
            ${fields.language ?? null}, ${at}, ${times})`.execute(database.db);
  await sql`update qr_codes set scan_count = scan_count + ${count} where id = ${code.id}`.execute(database.db);
}

const phone = { device: 'mobile', os: 'iOS', browser: 'Mobile Safari' };
const desktop = { device: 'desktop', os: 'Windows', browser: 'Chrome' };

/** The chart's table as label → count. */
function chartTable(html: string): Map<string, number> {
  const table = /<table id="[a-z-]*chart-table">([\s\S]*?)<\/table>/.exec(html)?.[1] ?? '';
  return new Map([...table.matchAll(/<th scope="row">([^<]+)<\/th><td class="numeric">([\d,]+)<\/td>/g)].map((m) => [m[1]!, Number(m[2]!.replaceAll(',', ''))]));
}

/** RFC 4180, enough for the export: quoted fields with doubled quotes and commas inside, CRLF records. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') record.push(field), (field = '');
    else if (char === '\r' && text[i + 1] === '\n') record.push(field), records.push(record), (record = []), (field = ''), i++;
    else field += char;
  }
  return records;
}

describe('whose analytics', () => {
  it("answers 404 for another account's code (page, htmx panel, CSV) and for an unknown id, showing nothing of it", async () => {
    const theirs = await makeCode(stranger, 'Their secret campaign');
    await insertScans(theirs, [{ at: new Date(Date.now() - HOUR), ...phone }]);
    for (const path of [`/codes/${theirs.id}/analytics`, `/codes/${theirs.id}/analytics?fragment=1`, `/codes/${theirs.id}/scans.csv`, '/codes/qr_nope/analytics']) {
      const response = await http.get(path);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('content-type'), path).toMatch(/^text\/html/);
      expect(await response.text(), path).not.toContain('Their secret campaign');
    }
    const htmx = await fetch(`${app.origin}/codes/${theirs.id}/analytics?fragment=1`, { headers: { cookie: http.cookie, 'hx-request': 'true' } });
    expect(htmx.status).toBe(404);
    // The account's own views do not count the other account's scans.
    const csv = await (await http.get('/analytics/scans.csv')).text();
    expect(csv).not.toContain(theirs.id);
  });

  it('lets a member of the account read the analytics and export, and sends people who are not signed in to sign in', async () => {
    const code = await makeCode(owner, 'Shop window');
    const { http: memberHttp, ...member } = await createSignedInPerson(database.db, app, { accountId: owner.accountId, role: 'member' });
    for (const path of ['/analytics', `/codes/${code.id}/analytics`, `/codes/${code.id}/analytics?fragment=1`, `/codes/${code.id}/scans.csv`, '/analytics/scans.csv']) {
      expect((await memberHttp.get(path)).status, path).toBe(200);
      const anonymous = await fetch(`${app.origin}${path}`, { redirect: 'manual' });
      expect(anonymous.status, path).toBe(303);
      expect(anonymous.headers.get('location'), path).toBe(`/login?next=${encodeURIComponent(path)}`);
    }
  });
});

describe('CSV export', () => {
  it("streams the code's scans as a download whose records parse back to the scans, and the account's with each code", async () => {
    const code = await makeCode(owner, 'Flyer, "spring" edition');
    const other = await makeCode(owner, 'Menu card');
    const base = Date.now() - 3 * DAY;
    const inserted: InsertedScan[] = [
      { at: new Date(base + 1_234), ...phone, referrer: 'instagram.com' },
      { at: new Date(base + HOUR + 5), ...desktop },
      { at: new Date(base + 2 * HOUR), device: 'tablet', os: 'Android', browser: 'Chrome' },
    ];
    await insertScans(code, inserted);
    await insertScans(other, [{ at: new Date(base), ...phone }]);

    const response = await http.get(`/codes/${code.id}/scans.csv`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="flyer-spring-edition-scans-\d{4}-\d{2}-\d{2}\.csv"$/);
    const [header, ...records] = parseCsv(await response.text());
    // The audience and routing columns come last, empty for scans recorded without them (as these are inserted).
    expect(header).toEqual([
      'created_at', 'device', 'os', 'browser', 'destination_url', 'referrer_host', 'country', 'region', 'city', 'language', 'unique', 'rule_id', 'variant',
    ]);
    expect(records).toEqual(
      inserted.map((scan) => [scan.at.toISOString(), scan.device, scan.os, scan.browser, 'https://example.com/menu', scan.referrer ?? '', '', '', '', '', '', '', '']),
    );

    const account = await http.get('/analytics/scans.csv');
    expect(account.headers.get('content-disposition')).toMatch(/^attachment; filename="acme-bakery-all-codes-scans-[\d-]+\.csv"$/);
    const [accountHeader, ...accountRecords] = parseCsv(await account.text());
    expect(accountHeader).toEqual([
      'code_id', 'code_name', 'created_at', 'device', 'os', 'browser', 'destination_url', 'referrer_host', 'country', 'region', 'city', 'language', 'unique',
      'rule_id', 'variant',
    ]);
    expect(accountRecords.filter((record) => record[0] === code.id).map((record) => [record[1], record[2]])).toEqual(
      inserted.map((scan) => ['Flyer, "spring" edition', scan.at.toISOString()]),
    );
    expect(accountRecords.filter((record) => record[0] === other.id)).toHaveLength(1);
  });
});

describe('scans over time in the viewer’s zone', () => {
  // Tokyo is UTC+9 all year: 05:00 there is 20:00 UTC the day before, so a day's bucket differs by zone.
  const TOKYO = 9 * HOUR;
  const tokyoMidnight = (daysAgo: number) => Math.floor((Date.now() + TOKYO) / DAY) * DAY - TOKYO - daysAgo * DAY;
  const dayLabel = (instant: number, offset: number) => {
    const local = new Date(instant + offset);
    return `${local.getUTCDate()} ${MONTHS[local.getUTCMonth()]} ${local.getUTCFullYear()}`;
  };

  it('counts scans in the days of the zone from ?tz= or the qroute_tz cookie, names the zone, and zero-fills the rest', async () => {
    const code = await makeCode(owner, 'Tokyo poster');
    const yesterdayEarly = tokyoMidnight(1) + 5 * HOUR; // 05:00 in Tokyo, 20:00 UTC two days ago (Tokyo time)
    const threeDaysAgo = tokyoMidnight(3) + 8 * HOUR + 30 * 60_000; // 08:30 in Tokyo, 23:30 UTC the day before
    await insertScans(code, [
      { at: new Date(yesterdayEarly), ...phone },
      { at: new Date(yesterdayEarly + 60_000), ...desktop },
      { at: new Date(threeDaysAgo), ...phone },
      { at: new Date(threeDaysAgo + 1_000), ...phone },
      { at: new Date(threeDaysAgo + 2_000), ...desktop },
    ], 4);

    const inTokyo = await (await http.get(`/codes/${code.id}/analytics?range=7d&tz=Asia/Tokyo`)).text();
    expect(inTokyo).toContain('times in <strong>Asia/Tokyo</strong>');
    const table = chartTable(inTokyo);
    expect(table.size).toBe(7);
    expect(table.get(dayLabel(yesterdayEarly, TOKYO))).toBe(2);
    expect(table.get(dayLabel(threeDaysAgo, TOKYO))).toBe(3);
    expect([...table.values()].reduce((a, b) => a + b, 0)).toBe(5);
    expect([...table.keys()].at(-1)).toBe(dayLabel(Date.now(), TOKYO));
    expect(inTokyo).toContain('5 human scans, 0 unique, in the last 7 days.');
    // Lifetime totals: people and bots.
    expect(inTokyo).toMatch(/Total scans<\/p><p class="value">9</);
    expect(inTokyo).toMatch(/Human scans<\/p><p class="value">5</);
    expect(inTokyo).toMatch(/Bot scans<\/p><p class="value">4</);
    // Breakdowns with shares; the zone does not change them.
    // Each kind links to the page filtered by it; scans, unique scans (none recorded for these), share.
    expect(inTokyo).toMatch(/<th scope="row"><a href="[^"]*&amp;device=mobile">Mobile<\/a><\/th><td class="numeric">3<\/td><td class="numeric">0<\/td><td class="numeric">60%<\/td>/);
    expect(inTokyo).toMatch(/<th scope="row"><a href="[^"]*&amp;device=desktop">Desktop<\/a><\/th><td class="numeric">2<\/td><td class="numeric">0<\/td><td class="numeric">40%<\/td>/);

    // The cookie app.js sets gives the same days; UTC puts the same scans a day earlier.
    const byCookie = await fetch(`${app.origin}/codes/${code.id}/analytics?range=7d`, { headers: { cookie: `${http.cookie}; qroute_tz=Asia%2FTokyo` } });
    expect(chartTable(await byCookie.text())).toEqual(table);
    const inUtc = chartTable(await (await http.get(`/codes/${code.id}/analytics?range=7d&tz=UTC`)).text());
    expect(inUtc.get(dayLabel(yesterdayEarly, 0))).toBe(2);
    expect(inUtc.get(dayLabel(threeDaysAgo, 0))).toBe(3);
    expect(dayLabel(yesterdayEarly, 0)).not.toBe(dayLabel(yesterdayEarly, TOKYO));

    // 24 hours: one bucket per hour, labelled with the hour in the zone.
    const hours = chartTable(await (await http.get(`/codes/${code.id}/analytics?range=24h&tz=Asia/Tokyo`)).text());
    expect(hours.size).toBe(24);
  });

  it('marks the current range, keeps the zone in the range links, and falls back to 30 days and UTC for values it does not accept', async () => {
    const code = await makeCode(owner, 'Ranges');
    const page = await (await http.get(`/codes/${code.id}/analytics?range=90d&tz=Europe/Berlin`)).text();
    expect(page).toMatch(/href="[^"]*range=90d&amp;tz=Europe%2FBerlin"[^>]*aria-current="true"[^>]*>90 d</);
    expect(page.match(/aria-current="true"/g)).toHaveLength(1);
    expect(chartTable(page).size).toBe(90);

    const odd = await (await http.get(`/codes/${code.id}/analytics?range=1y&tz=Mars%2FOlympus`)).text();
    expect(odd).toMatch(/aria-current="true"[^>]*>30 d</);
    expect(odd).toContain('times in <strong>UTC</strong>');
    expect(chartTable(odd).size).toBe(30);
  });

  it('sends the panel for the code page as one <section id="code-analytics"> whose range links swap it in place', async () => {
    const code = await makeCode(owner, 'Panel');
    const response = await fetch(`${app.origin}/codes/${code.id}/analytics?fragment=1&range=7d`, { headers: { cookie: http.cookie, 'hx-request': 'true' } });
    const html = await response.text();
    expect(html.startsWith('<section id="code-analytics"')).toBe(true);
    expect(html.endsWith('</section>')).toBe(true);
    expect(html).not.toContain('<html');
    expect(html).toContain(`hx-get="/codes/${code.id}/analytics?fragment=1&amp;range=30d"`);
    expect(html).toContain(`href="/codes/${code.id}/analytics?range=30d"`);
    expect(html).toContain('hx-target="#code-analytics"');
  });
});

describe('recent scans', () => {
  it("shows the newest scans first in the viewer's zone, and on the account's page with the code", async () => {
    const code = await makeCode(owner, 'Recent one');
    const at = new Date(Date.UTC(2026, 0, 15, 23, 30, 5));
    await insertScans(code, [{ at, ...phone }, { at: new Date(at.getTime() - DAY), ...desktop }]);
    const page = await (await http.get(`/codes/${code.id}/analytics?tz=Asia/Tokyo`)).text();
    const recent = /Recent scans<\/h2>([\s\S]*?)<\/table>/.exec(page)?.[1] ?? '';
    expect(recent).toContain('<th scope="col">Time (Asia/Tokyo)</th>');
    // 23:30 UTC is 08:30 the next day in Tokyo.
    expect(recent).toMatch(/<time datetime="2026-01-15T23:30:05.000Z"><span class="nowrap">16 Jan 2026,<\/span> <span class="nowrap">08:30:05<\/span><\/time><\/th><td>Mobile<\/td><td>iOS<\/td><td>Mobile Safari<\/td>[\s\S]*<td>Desktop<\/td>/);
    const accountPage = await (await http.get('/analytics')).text();
    expect(accountPage).toContain(`<a href="/codes/${code.id}">Recent one</a>`);
  });

  it("finds an account's newest scans when other accounts recorded many more since: codes named by the rollup's latest hours, and scans not folded yet", async () => {
    const quiet = await createPerson(database.db);
    const folded = await makeCode(quiet, 'Quiet');
    const fresh = await makeCode(quiet, 'Fresh');
    const idle = await makeCode(quiet, 'Idle');
    const busy = await makeCode(stranger, 'Busy');
    const start = Date.now() - 10 * DAY;
    await insertScans(idle, [{ at: new Date(start - 30 * DAY), ...phone }]);
    await insertScans(folded, Array.from({ length: 30 }, (_, i) => ({ at: new Date(start + i * HOUR), ...(i % 2 ? phone : desktop) })));
    await foldScans(database.db);
    // Not folded yet: only the raw scans know them.
    await insertScans(fresh, [{ at: new Date(start + 40 * HOUR), ...phone }, { at: new Date(start + 41 * HOUR), ...desktop }]);
    // Another account's 25,000 scans since push all of these out of the last recorded ones.
    await sql`insert into scans (qr_code_id, created_at, device, os, browser)
      select ${busy.id}, now() - interval '1 day', 'mobile', 'iOS', 'Mobile Safari' from generate_series(1, 25000)`.execute(database.db);
    const found = await recentScans(database.db, { accountId: quiet.accountId }, 20);
    expect(found.map((scan) => [scan.code?.name, scan.at.getTime()])).toEqual([
      ['Fresh', start + 41 * HOUR],
      ['Fresh', start + 40 * HOUR],
      ...Array.from({ length: 18 }, (_, i) => ['Quiet', start + (29 - i) * HOUR]),
    ]);
    expect(found[2]!.code).toEqual({ id: folded.id, name: 'Quiet', deleted: false });
    // Fewer than asked for in the rollup: all of them, back to the oldest.
    expect((await recentScans(database.db, { accountId: quiet.accountId }, 40)).map((scan) => scan.code?.name).at(-1)).toBe('Idle');
    // The same through the fast path once the account scans again.
    await insertScans(folded, Array.from({ length: 20 }, () => ({ at: new Date(), ...phone })));
    expect((await recentScans(database.db, { accountId: quiet.accountId }, 20)).every((scan) => scan.at.getTime() > start + 30 * HOUR)).toBe(true);
  });

  it("lists only the scans matching the page's filters, a code's and an account's, folded or not, however many newer ones do not match", async () => {
    const person = await createPerson(database.db);
    const poster = await makeCode(person, 'Poster');
    const flyer = await makeCode(person, 'Flyer');
    const busy = await makeCode(stranger, 'Busy abroad');
    const start = Date.now() - 5 * DAY;
    const at = (hours: number) => new Date(start + hours * HOUR);
    // Germany every hour; twice as many US scans after each, so a code's newest 20 are all from the US.
    for (let hour = 0; hour < 25; hour++) {
      await insertGroup(poster, at(hour), 1, { country: 'DE', language: 'de' });
      await insertGroup(poster, new Date(at(hour).getTime() + 60_000), 2, { country: 'US', language: 'en' });
    }
    await insertGroup(flyer, at(24.5), 1, { country: 'DE', language: 'de', ...desktop });
    await foldScans(database.db);
    // Not folded yet: the newest German scans, of each code.
    await insertGroup(flyer, at(30), 2, { country: 'DE', language: 'en' });
    await insertGroup(poster, at(26), 1, { country: 'DE', language: 'de' });
    const times = (scans: Array<{ at: Date }>) => scans.map((scan) => scan.at.getTime() - start);
    const de = { country: 'DE' };
    const germanHours = (from: number, count: number) => Array.from({ length: count }, (_, i) => (from - i) * HOUR);

    const codeScans = await recentScans(database.db, { accountId: person.accountId, codeId: poster.id }, 20, de);
    expect(times(codeScans)).toEqual([26 * HOUR, ...germanHours(24, 19)]);
    expect(codeScans[1]).toEqual({ at: at(24), ...phone });
    const accountExpected = [30 * HOUR + 1, 30 * HOUR, 26 * HOUR, 24.5 * HOUR, ...germanHours(24, 16)];
    expect(times(await recentScans(database.db, { accountId: person.accountId }, 20, de))).toEqual(accountExpected);
    // Two filters, and one nothing matches.
    expect((await recentScans(database.db, { accountId: person.accountId }, 20, { ...de, device: 'desktop' })).map((scan) => scan.code?.name)).toEqual(['Flyer']);
    expect(await recentScans(database.db, { accountId: person.accountId, codeId: poster.id }, 20, { country: 'JP' })).toEqual([]);

    // Another account's 25,000 German scans since: the account's are no longer among the last recorded.
    await sql`insert into scan_groups (qr_code_id, device, os, browser, country, first_at)
      select ${busy.id}, 'mobile', 'iOS', 'Mobile Safari', 'DE', now() - interval '1 hour' from generate_series(1, 25000)`.execute(database.db);
    expect(times(await recentScans(database.db, { accountId: person.accountId }, 20, de))).toEqual(accountExpected);
    // Fewer than asked for: every match, back to the first.
    const everyGerman = await recentScans(database.db, { accountId: person.accountId }, 40, de);
    expect(everyGerman.map((scan) => scan.code?.name)).toEqual(['Flyer', 'Flyer', 'Poster', 'Flyer', ...Array(25).fill('Poster')]);
    expect(times(everyGerman).at(-1)).toBe(0);

    // The page's table: the poster filtered to Germany shows German scans only, and says so when none match.
    const personHttp = await dashboardHttp(app, person);
    const page = await (await personHttp.get(`/codes/${poster.id}/analytics?country=DE&tz=UTC`)).text();
    const recent = /Recent scans<\/h2>([\s\S]*?)<\/table>/.exec(page)?.[1] ?? '';
    expect(recent.match(/<time datetime="([^"]+)"/g)).toHaveLength(20);
    expect(recent).toContain(`<time datetime="${at(26).toISOString()}">`);
    expect(recent).not.toContain(`<time datetime="${new Date(at(24).getTime() + 60_000).toISOString()}">`);
    const none = await (await personHttp.get(`/codes/${poster.id}/analytics?country=JP`)).text();
    expect(/Recent scans<\/h2>\s*<p class="muted">([^<]+)/.exec(none)?.[1]).toBe('No scans match the filters.');
  });
});
