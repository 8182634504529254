import { beforeAll, describe, expect, it } from 'vitest';
import { createQrCode, getQrCode, updateQrCode } from '../../src/codes/index.js';
import type { TestDatabase } from '../support/database.js';
import { createPerson, dashboardHttp, type DashboardHttp, type TestPerson, useDashboardApp } from '../support/dashboard.js';
import { createTestTypedCode } from '../support/factories.js';
import { rawHttp } from '../support/raw-http.js';
import type { TestApp } from '../support/test-app.js';

/** The routing page (issue 28) through the dashboard's HTTP: forms that post, refuse at their fields, and redirect. */

let database: TestDatabase;
let app: TestApp;
let owner: TestPerson;
let http: DashboardHttp;

useDashboardApp((started) => ({ database, app } = started));
beforeAll(async () => {
  owner = await createPerson(database.db);
  http = await dashboardHttp(app, owner);
});

async function makeCode(name = 'Poster', url = 'https://example.com/default') {
  const { code } = await createQrCode(database.db, { accountId: owner.accountId, name, destinationUrl: url, actor: { kind: 'user', userId: owner.userId } });
  return code;
}

const stored = (id: string) => getQrCode(database.db, { accountId: owner.accountId, id });

/** A form post after loading the page it is on (for its CSRF token); `fields` may repeat a name (checkboxes). */
async function post(page: string, path: string, fields: Array<[string, string]>): Promise<Response> {
  await http.get(page);
  const body = new URLSearchParams(fields);
  body.set('_csrf', http.csrfToken);
  return fetch(`${app.origin}${path}`, {
    method: 'POST',
    headers: { cookie: http.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body,
    redirect: 'manual',
  });
}

const iphoneRule: Array<[string, string]> = [
  ['name', 'iPhones'],
  ['os', 'iOS'],
  ['devices', 'mobile'],
  ['countries', 'de, AT'],
  ['weekdays', 'sat'],
  ['weekdays', 'sun'],
  ['hoursFrom', '18:00'],
  ['hoursUntil', '02:00'],
  ['destinationUrl', 'https://example.com/a'],
  ['zone', 'Europe/Berlin'],
];

/** The error message tied to a field (its `<id>-error`), and that the field is marked invalid. */
function fieldError(html: string, id: string): string | undefined {
  if (!new RegExp(`id="${id}"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*id="${id}"`).test(html)) return undefined;
  return new RegExp(`id="${id}-error"[^>]*>([^<]*)<`).exec(html)?.[1];
}

describe('rules', () => {
  it('are added, listed with a summary, edited keeping their id, reordered and removed', async () => {
    const code = await makeCode();
    const base = `/codes/${code.id}/routing`;
    const added = await post(`${base}/rules/new`, `${base}/rules`, iphoneRule);
    expect(added.status, await added.clone().text()).toBe(303);
    expect(added.headers.get('location')).toBe(`${base}?done=rule-added`);
    const first = (await stored(code.id)).routing!;
    expect(first.timeZone).toBe('Europe/Berlin');
    expect(first.rules).toEqual([
      {
        id: expect.stringMatching(/^rul_/),
        name: 'iPhones',
        when: { os: ['iOS'], devices: ['mobile'], countries: ['DE', 'AT'], weekdays: ['sat', 'sun'], hours: { from: '18:00', until: '02:00' } },
        destinationUrl: 'https://example.com/a',
      },
    ]);
    const page = await (await http.get(`${base}?done=rule-added`)).text();
    expect(page).toContain('Rule added.');
    expect(page).toContain('iOS · phones · Germany, Austria · Sat–Sun 18:00–02:00');

    await post(`${base}/rules/new`, `${base}/rules`, [['name', 'Android'], ['os', 'Android'], ['destinationUrl', 'https://example.com/b']]);
    const [iphones, android] = (await stored(code.id)).routing!.rules;
    const editPage = await (await http.get(`${base}/rules/${iphones!.id}`)).text();
    expect(editPage).toContain('value="DE, AT"');
    expect(editPage).toMatch(/value="sat"\s+checked/);
    const edited = await post(`${base}/rules/${iphones!.id}`, `${base}/rules/${iphones!.id}`, [
      ['name', 'iPhones in Germany'], ['os', 'iOS'], ['countries', 'DE'], ['from', '2026-12-01T00:00'], ['destinationUrl', 'https://example.com/a2'], ['zone', 'Europe/Berlin'],
    ]);
    expect(edited.status).toBe(303);
    let rules = (await stored(code.id)).routing!.rules;
    expect(rules.map((rule) => rule.id)).toEqual([iphones!.id, android!.id]);
    // Midnight in Berlin in winter is 23:00 UTC the day before.
    expect(rules[0]).toMatchObject({ name: 'iPhones in Germany', when: { os: ['iOS'], countries: ['DE'], from: '2026-11-30T23:00:00.000Z' }, destinationUrl: 'https://example.com/a2' });
    expect((await http.get(`${base}/rules/${iphones!.id}`)).status).toBe(200);
    expect(await (await http.get(`${base}/rules/${iphones!.id}`)).text()).toContain('value="2026-12-01T00:00"');

    const moved = await post(base, `${base}/rules/${android!.id}/move`, [['direction', 'up']]);
    expect(moved.status).toBe(303);
    rules = (await stored(code.id)).routing!.rules;
    expect(rules.map((rule) => rule.id)).toEqual([android!.id, iphones!.id]);
    const pastTheTop = await post(base, `${base}/rules/${android!.id}/move`, [['direction', 'up']]);
    expect(pastTheTop.headers.get('location')).toBe(`${base}?done=rule-conflict`);

    expect((await post(base, `${base}/rules/${android!.id}/remove`, [])).status).toBe(303);
    expect((await stored(code.id)).routing!.rules.map((rule) => rule.id)).toEqual([iphones!.id]);
    expect((await http.get(`${base}/rules/${android!.id}`)).status).toBe(404);
  });

  it('refuse bad input at the field it is about, keeping what was typed', async () => {
    const code = await makeCode();
    const base = `/codes/${code.id}/routing`;
    const refused = await post(`${base}/rules/new`, `${base}/rules`, [
      ['countries', 'DE, XX'], ['languages', 'de-AT'], ['hoursFrom', '18:00'], ['from', '2026-02-30T10:00'], ['destinationUrl', 'ftp://example.com/'], ['zone', 'Europe/Berlin'],
    ]);
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(fieldError(html, 'rule-from')).toContain('must be a date and time');
    expect(fieldError(html, 'rule-hours-until')).toContain('needed with hours from');
    expect(html).toContain('value="DE, XX"');

    // Past the form's own checks, the service's problems land on their fields too.
    const second = await (await post(`${base}/rules/new`, `${base}/rules`, [
      ['countries', 'DE, XX'], ['languages', 'de-AT'], ['hoursFrom', '18:00'], ['hoursUntil', '18:00'], ['destinationUrl', 'ftp://example.com/'], ['zone', 'Europe/Berlin'],
    ])).text();
    expect(fieldError(second, 'rule-countries')).toMatch(/“XX” must be an ISO 3166-1 alpha-2 country code/);
    expect(fieldError(second, 'rule-languages')).toContain('without region');
    expect(fieldError(second, 'rule-hours-until')).toContain('must differ');
    expect(fieldError(second, 'rule-destination')).toContain('http or https');

    const empty = await (await post(`${base}/rules/new`, `${base}/rules`, [['destinationUrl', 'https://example.com/'], ['zone', 'Nowhere/Else']])).text();
    expect(fieldError(empty, 'rule-zone')).toContain('IANA');
    const noConditions = await (await post(`${base}/rules/new`, `${base}/rules`, [['destinationUrl', 'https://example.com/'], ['zone', 'UTC']])).text();
    const firstBox = /<input[^>]*id="rule-os-0"[^>]*>/.exec(noConditions)?.[0];
    expect(firstBox).toContain('aria-invalid="true"');
    expect(fieldError(noConditions, 'rule-os-0')).toContain('Fill in at least one condition');
    expect((await stored(code.id)).routing).toBeNull();
  });

  it('say so when the rule was removed meanwhile, and answer 404 for another account’s code or an unknown rule', async () => {
    const code = await makeCode();
    const base = `/codes/${code.id}/routing`;
    await post(`${base}/rules/new`, `${base}/rules`, [['os', 'iOS'], ['destinationUrl', 'https://example.com/a'], ['zone', 'UTC']]);
    const [rule] = (await stored(code.id)).routing!.rules;
    expect((await http.get(`${base}/rules/rul_nothing`)).status).toBe(404);
    const stranger = await createPerson(database.db);
    const theirs = await createQrCode(database.db, { accountId: stranger.accountId, name: 'Theirs', destinationUrl: 'https://example.com/', actor: { kind: 'user', userId: stranger.userId } });
    for (const path of [`/codes/${theirs.code.id}/routing`, `/codes/${theirs.code.id}/routing/rules/new`]) expect((await http.get(path)).status, path).toBe(404);
    expect((await post(base, `/codes/${theirs.code.id}/routing/schedule`, [['scanLimit', '5']])).status).toBe(404);
    expect((await getQrCode(database.db, { accountId: stranger.accountId, id: theirs.code.id })).scanLimit).toBeNull();
    expect((await post(base, `${base}/rules/${rule!.id}/remove`, [])).status).toBe(303);
    expect((await post(base, `${base}/rules/${rule!.id}`, [['os', 'iOS'], ['destinationUrl', 'https://example.com/a']])).status).toBe(404);
    // A second tab's Remove of the same rule: nothing changes, and the list says why.
    const again = await post(base, `${base}/rules/${rule!.id}/remove`, []);
    expect(again.headers.get('location')).toBe(`${base}?done=rule-gone`);
    expect(await (await http.get(again.headers.get('location')!)).text()).toContain('that rule had been removed meanwhile');
  });
});

describe('the code’s page', () => {
  it('says what the routing does and links to it; a page type’s routing has rules but no split', async () => {
    const code = await makeCode('Summary');
    expect(await (await http.get(`/codes/${code.id}`)).text()).toContain(`href="/codes/${code.id}/routing">Route by device`);
    await updateQrCode(database.db, {
      accountId: owner.accountId, id: code.id, actor: { kind: 'user', userId: owner.userId },
      changes: { routing: { rules: [{ when: { os: ['iOS'] }, destinationUrl: 'https://example.com/a' }], split: [{ destinationUrl: 'https://example.com/a', weight: 60 }, { destinationUrl: 'https://example.com/b', weight: 40 }] }, scanLimit: 5000 },
    });
    expect(await (await http.get(`/codes/${code.id}`)).text()).toContain('1 rule, a split 60/40, at most 5,000 scans.');

    const card = await createTestTypedCode(database.db, owner, { type: 'VCARD_PLUS', siteUrl: app.config.siteUrl });
    const page = await http.get(`/codes/${card.id}/routing`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('A split (an A/B test of destinations) is for URL codes only');
    expect((await post(`/codes/${card.id}/routing`, `/codes/${card.id}/routing/split`, [['split-0-url', 'https://example.com/a'], ['split-0-weight', '50'], ['split-1-url', 'https://example.com/b'], ['split-1-weight', '50']])).status).toBe(400);
    const added = await post(`/codes/${card.id}/routing/rules/new`, `/codes/${card.id}/routing/rules`, [['os', 'iOS'], ['destinationUrl', 'https://example.com/ios'], ['zone', 'UTC']]);
    expect(added.status).toBe(303);
    expect(await (await http.get(`/codes/${card.id}/routing?try=1&os=Android`)).text()).toContain("no rule matches: the code's own page answers.");
  });
});

describe('the split', () => {
  it('is saved with weights adding up to 100, refused at its fields otherwise, and removed', async () => {
    const code = await makeCode('Split', 'https://example.com/a');
    const base = `/codes/${code.id}/routing`;
    const page = await (await http.get(base)).text();
    expect(page).toContain('value="https://example.com/a"');
    const uneven = await post(base, `${base}/split`, [['split-0-url', 'https://example.com/a'], ['split-0-weight', '70'], ['split-1-url', 'https://example.com/b'], ['split-1-weight', '20']]);
    expect(uneven.status).toBe(400);
    expect(fieldError(await uneven.text(), 'split-0-weight')).toContain('add up to 100 (they add up to 90)');
    const bad = await (await post(base, `${base}/split`, [['split-0-url', 'https://example.com/a'], ['split-0-weight', '0'], ['split-1-url', 'mailto:x@y'], ['split-1-weight', '100']])).text();
    expect(fieldError(bad, 'split-0-weight')).toContain('1 to 100');
    const badUrl = await (await post(base, `${base}/split`, [['split-0-url', 'https://example.com/a'], ['split-0-weight', '50'], ['split-1-url', 'mailto:x@y'], ['split-1-weight', '50']])).text();
    expect(fieldError(badUrl, 'split-1-url')).toContain('http or https');

    const saved = await post(base, `${base}/split`, [['split-0-url', 'https://example.com/b'], ['split-0-weight', '70'], ['split-1-url', 'https://example.com/c'], ['split-1-weight', '30'], ['split-2-url', ''], ['split-2-weight', '']]);
    expect(saved.status).toBe(303);
    const after = await stored(code.id);
    expect(after.routing!.split).toEqual([{ destinationUrl: 'https://example.com/b', weight: 70 }, { destinationUrl: 'https://example.com/c', weight: 30 }]);
    expect(after.destinationUrl).toBe('https://example.com/b');

    const tried = await (await http.get(`${base}?try=1&os=iOS`)).text();
    expect(tried).toMatch(/no rule matches; the split answers:\s*70 % to <a[^>]*>https:\/\/example.com\/b<\/a>, 30 % to <a[^>]*>https:\/\/example.com\/c<\/a>/);

    expect((await post(base, `${base}/split/remove`, [])).status).toBe(303);
    expect((await stored(code.id)).routing!.split).toBeUndefined();
  });
});

describe('the schedule', () => {
  it('is entered in the routing’s zone, refused at its fields, and each part removed by emptying it', async () => {
    const code = await makeCode();
    const base = `/codes/${code.id}/routing`;
    await updateQrCode(database.db, { accountId: owner.accountId, id: code.id, changes: { routing: { timeZone: 'America/New_York', rules: [] } }, actor: { kind: 'user', userId: owner.userId } });
    const refused = await post(base, `${base}/schedule`, [['zone', 'America/New_York'], ['activeFrom', '2026-12-01T09:00'], ['expiresAt', '2026-11-01T09:00'], ['scanLimit', '0'], ['expiredUrl', 'javascript:alert(1)']]);
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(fieldError(html, 'schedule-expires-at')).toContain('later than the start');
    expect(fieldError(html, 'schedule-scan-limit')).toContain('whole number');
    expect(fieldError(html, 'schedule-expired-url')).toContain('http or https');

    const saved = await post(base, `${base}/schedule`, [['zone', 'America/New_York'], ['activeFrom', '2026-12-01T09:00'], ['expiresAt', '2027-03-01T00:00'], ['scanLimit', '5000'], ['expiredUrl', 'https://example.com/ended']]);
    expect(saved.status).toBe(303);
    let after = await stored(code.id);
    expect(after.activeFrom?.toISOString()).toBe('2026-12-01T14:00:00.000Z');
    expect(after.expiresAt?.toISOString()).toBe('2027-03-01T05:00:00.000Z');
    expect(after).toMatchObject({ scanLimit: 5000, expiredUrl: 'https://example.com/ended' });
    const page = await (await http.get(base)).text();
    expect(page).toContain('value="2026-12-01T09:00"');

    expect(await (await http.get(`${base}?try=1&at=2026-11-30T12:00`)).text()).toContain('not active yet');
    expect(await (await http.get(`${base}?try=1&at=2027-03-02T12:00`)).text()).toMatch(/expired<!-- -->\s*— scans go to|expired\s*— scans go to/);
    expect((await http.get(`${base}?try=1&at=2027-02-30T12:00`)).status).toBe(200);

    await post(base, `${base}/schedule`, [['zone', 'America/New_York'], ['activeFrom', ''], ['expiresAt', ''], ['scanLimit', ''], ['expiredUrl', '']]);
    after = await stored(code.id);
    expect(after).toMatchObject({ activeFrom: null, expiresAt: null, scanLimit: null, expiredUrl: null });
  });
});

describe('Try it', () => {
  it('names the rule that answers a scan, or the code’s destination', async () => {
    const code = await makeCode('Try', 'https://example.com/default');
    const base = `/codes/${code.id}/routing`;
    await post(`${base}/rules/new`, `${base}/rules`, iphoneRule);
    // Saturday 5 December 2026, 19:00 in Berlin: inside the rule's Saturday evening.
    const iphone = await (await http.get(`${base}?try=1&os=iOS&device=mobile&country=DE&language=de&at=2026-12-05T19:00`)).text();
    expect(iphone).toMatch(/rule 1 \(“iPhones”\) answers: to <a[^>]*>https:\/\/example.com\/a<\/a>/);
    // Sunday 01:00 belongs to Saturday's window; Sunday 03:00 to none.
    expect(await (await http.get(`${base}?try=1&os=iOS&device=mobile&country=AT&at=2026-12-06T01:00`)).text()).toContain('rule 1');
    const late = await (await http.get(`${base}?try=1&os=iOS&device=mobile&country=AT&at=2026-12-06T03:00`)).text();
    expect(late).toMatch(/no rule matches: the code's destination, <a[^>]*>https:\/\/example.com\/default<\/a>/);
    const android = await (await http.get(`${base}?try=1&os=Android&device=mobile&country=DE&at=2026-12-05T19:00`)).text();
    expect(android).toContain('no rule matches');
    const bad = await http.get(`${base}?try=1&at=nonsense`);
    expect(bad.status).toBe(200);
    expect(fieldError(await bad.text(), 'try-at')).toContain('date and time');
  });
});

describe('analytics', () => {
  it('count the period’s scans per rule (current names, removed rules apart) and per variant with shares and unique scans', async () => {
    const code = await makeCode('Routed', 'https://example.com/a');
    const actor = { kind: 'user', userId: owner.userId } as const;
    const routed = await updateQrCode(database.db, {
      accountId: owner.accountId,
      id: code.id,
      changes: {
        routing: {
          timeZone: 'UTC',
          rules: [{ name: 'iPhones', when: { os: ['iOS'] }, destinationUrl: 'https://example.com/ios' }, { name: 'Gone', when: { os: ['Android'] }, destinationUrl: 'https://example.com/android' }],
          split: [{ destinationUrl: 'https://example.com/a', weight: 70 }, { destinationUrl: 'https://example.com/b', weight: 30 }],
        },
      },
      actor,
    });
    const [iphones, gone] = routed.routing!.rules;
    const now = Date.now();
    const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000);
    const group = (ruleId: string | null, variant: number | null, scans: number, isUnique: boolean, when: Date) => ({
      qr_code_id: code.id, device: 'mobile', os: 'iOS', browser: 'Mobile Safari', destination_url: null, referrer_host: null,
      is_unique: isUnique, rule_id: ruleId, variant, first_at: when, times: scans > 1 ? Array.from({ length: scans }, () => when) : null,
    });
    await database.db.insertInto('scan_groups').values([
      group(iphones!.id, null, 3, true, at(5)),
      group(iphones!.id, null, 1, false, at(6)),
      group(gone!.id, null, 2, true, at(7)),
      group(null, 0, 6, true, at(8)),
      group(null, 1, 2, false, at(9)),
      // Before the 7 days: counted in "all" only.
      group(iphones!.id, null, 5, true, at(60 * 24 * 20)),
    ]).execute();
    // The second rule is removed: its scans stay, as a removed rule's.
    await updateQrCode(database.db, {
      accountId: owner.accountId, id: code.id,
      changes: { routing: { timeZone: 'UTC', rules: [{ id: iphones!.id, name: 'iPhones', when: { os: ['iOS'] }, destinationUrl: 'https://example.com/ios' }], split: routed.routing!.split } },
      actor,
    });
    const row = (html: string, name: string) => {
      const match = new RegExp(`<th scope="row">${name}</th>((?:\\s*<td[^>]*>[^<]*</td>)+)`).exec(html);
      return match ? [...match[1]!.matchAll(/<td[^>]*>([^<]*)<\/td>/g)].map((cell) => cell[1]) : undefined;
    };
    const week = await (await http.get(`/codes/${code.id}/analytics?range=7d`)).text();
    expect(row(week, '1. iPhones')).toEqual(['4', '3', '28.6%']);
    expect(row(week, 'Removed rule')).toEqual(['2', '2', '14.3%']);
    expect(row(week, 'No rule \\(the split\\)')).toEqual(['8', '6', '57.1%']);
    expect(row(week, '1. https://example.com/a')).toEqual(['70 %', '6', '6', '75%']);
    expect(row(week, '2. https://example.com/b')).toEqual(['30 %', '2', '0', '25%']);
    const all = await (await http.get(`/codes/${code.id}/analytics?range=all`)).text();
    expect(row(all, '1. iPhones')?.slice(0, 2)).toEqual(['9', '8']);
    // The panel on the code's page stays as it was (no per-rule reads there).
    expect(await (await http.get(`/codes/${code.id}/analytics?fragment=1`)).text()).not.toContain('Removed rule');
  });
});

describe('hostile input', () => {
  it('never answers 5xx on any routing form or page, whatever a field holds', async () => {
    const code = await makeCode();
    const base = `/codes/${code.id}/routing`;
    await post(`${base}/rules/new`, `${base}/rules`, [['os', 'iOS'], ['destinationUrl', 'https://example.com/a'], ['zone', 'UTC']]);
    const [rule] = (await stored(code.id)).routing!.rules;
    // Refused by the dashboard's one check in front of every handler: once per route is enough.
    const notText = ['a%00b', 'a%EF%BF%BFb'];
    // Reach the routing's own reading: a lone surrogate (as CESU-8 bytes, read as U+FFFD), an emoji, a field near the
    // body's limit, a number no field holds, an offset that does not exist, invalid UTF-8.
    const values = ['%ED%A0%80', '%F0%9F%98%80', encodeURIComponent('x'.repeat(20_000)), '9'.repeat(30), encodeURIComponent('2026-12-01T09:00:00+99:99'), '%FF'];
    const forms: Array<[string, string[]]> = [
      [`${base}/rules`, ['name', 'os', 'osOther', 'browsers', 'devices', 'countries', 'languages', 'from', 'until', 'weekdays', 'hoursFrom', 'hoursUntil', 'destinationUrl', 'zone']],
      [`${base}/rules/${rule!.id}`, ['name', 'countries', 'from', 'hoursFrom', 'destinationUrl', 'zone']],
      [`${base}/rules/${rule!.id}/move`, ['direction']],
      [`${base}/split`, ['split-0-url', 'split-0-weight', 'split-1-url', 'split-1-weight', 'split-1-remove']],
      [`${base}/schedule`, ['zone', 'activeFrom', 'expiresAt', 'scanLimit', 'expiredUrl']],
      [`${base}/time-zone`, ['timeZone']],
    ];
    await http.get(base);
    const csrf = `_csrf=${encodeURIComponent(http.csrfToken)}`;
    const valid = 'os=iOS&destinationUrl=https%3A%2F%2Fexample.com%2F&split-0-url=https%3A%2F%2Fexample.com%2F&split-0-weight=50&split-1-url=https%3A%2F%2Fexample.com%2Fb&split-1-weight=50';
    const send = (path: string, field: string, value: string) =>
      rawHttp(app.origin, {
        method: 'POST',
        path,
        headers: { cookie: http.cookie, origin: app.origin, 'content-type': 'application/x-www-form-urlencoded' },
        body: `${csrf}&${valid}&${field}=${value}`,
      });
    for (const [path, fields] of forms) {
      const tries = [...notText.map((value) => [fields[0]!, value] as const), ...fields.flatMap((field) => values.map((value) => [field, value] as const))];
      const answers = await Promise.all(tries.map(([field, value]) => send(path, field, value)));
      answers.forEach((res, index) => {
        const [field, value] = tries[index]!;
        expect(res.status, `${path} ${field}=${value.slice(0, 40)}: ${res.text.slice(0, 300)}`).toBeLessThan(500);
      });
    }
    const gets = ['os', 'device', 'country', 'language', 'browser', 'at'].flatMap((field) => [...notText, ...values].map((value) => `${base}?try=1&${field}=${value}`));
    const answers = await Promise.all(gets.map((path) => rawHttp(app.origin, { method: 'GET', path, headers: { cookie: http.cookie } })));
    answers.forEach((res, index) => expect(res.status, gets[index]).toBeLessThan(500));
    for (const path of [`${base}/rules/%E0%A4%A`, `/codes/%/routing`, `${base}/rules/${'r'.repeat(5000)}`]) {
      const res = await rawHttp(app.origin, { method: 'GET', path, headers: { cookie: http.cookie } });
      expect(res.status, path.slice(0, 80)).toBeGreaterThanOrEqual(400);
      expect(res.status, path.slice(0, 80)).toBeLessThan(500);
    }
  });
});
