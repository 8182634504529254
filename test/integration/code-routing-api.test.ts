import { beforeAll, describe, expect, it } from 'vitest';
import type { TestDatabase } from '../support/database.js';
import { createTestTypedCode } from '../support/factories.js';
import { createTestAccount, rawRequest, type TestAccount, type TestApp, useTestApp } from '../support/test-app.js';

// Routing and schedules through the API (issue 28): what an integrator stores, reads back and is refused.
let database: TestDatabase;
let app: TestApp;
let owner: TestAccount;

useTestApp((started) => ({ database, app } = started));
beforeAll(async () => {
  owner = await createTestAccount(database.db, app);
});

const RULE_ID = /^rul_[0-9A-HJKMNP-TV-Z]{26}$/;
const GERMAN_IPHONES = { name: 'iPhones in Germany', when: { os: ['iOS'], countries: ['de', 'AT'] }, destinationUrl: 'https://example.com/de-ios' };
const WEEKEND_NIGHTS = { when: { weekdays: ['sat', 'sun'], hours: { from: '18:00', until: '02:00' } }, destinationUrl: 'https://example.com/late' };

async function create(body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const sent = JSON.stringify({ name: 'Routed poster', url: 'https://example.com/default', ...body });
  return rawRequest(app, '/qrcodes', { method: 'POST', apiKey: owner.apiKey, body: sent, headers });
}

async function change(id: string, body: Record<string, unknown>) {
  return rawRequest(app, `/qrcodes/${id}`, { method: 'PATCH', apiKey: owner.apiKey, body: JSON.stringify(body) });
}

/** The pointers of a 400 invalid_body answer. */
function pointersOf(response: { status: number; body: unknown }): string[] {
  expect(response.status, JSON.stringify(response.body)).toBe(400);
  const { error } = response.body as { error: { code: string; details: { path: string }[] } };
  expect(error.code).toBe('invalid_body');
  return error.details.map((detail) => detail.path);
}

describe('routing and schedule through the API', () => {
  it('stores rules, a split and a schedule, normalised, and reads them back the same way', async () => {
    const created = await create({
      routing: {
        timeZone: 'Asia/Calcutta',
        rules: [GERMAN_IPHONES, WEEKEND_NIGHTS],
        split: [
          { destinationUrl: 'https://example.com/default', weight: 70 },
          { destinationUrl: 'HTTPS://Example.com/b', weight: 30 },
        ],
      },
      activeFrom: '2026-12-01T10:00:00+01:00',
      expiresAt: '2027-03-01T00:00:00Z',
      scanLimit: 5000,
      expiredUrl: 'https://example.com/offer-ended',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const code = (created.body as { data: Record<string, unknown> }).data;
    expect(code).toMatchObject({
      destinationUrl: 'https://example.com/default',
      routing: {
        timeZone: 'Asia/Kolkata',
        rules: [
          { name: 'iPhones in Germany', when: { os: ['iOS'], countries: ['DE', 'AT'] }, destinationUrl: 'https://example.com/de-ios' },
          { name: null, when: WEEKEND_NIGHTS.when, destinationUrl: 'https://example.com/late' },
        ],
        split: [
          { destinationUrl: 'https://example.com/default', weight: 70 },
          { destinationUrl: 'https://example.com/b', weight: 30 },
        ],
      },
      activeFrom: '2026-12-01T09:00:00.000Z',
      expiresAt: '2027-03-01T00:00:00.000Z',
      scanLimit: 5000,
      expiredUrl: 'https://example.com/offer-ended',
    });
    const rules = (code.routing as { rules: { id: string }[] }).rules;
    expect(rules.map((rule) => rule.id)).toEqual([expect.stringMatching(RULE_ID), expect.stringMatching(RULE_ID)]);
    const read = await rawRequest(app, `/qrcodes/${String(code.id)}`, { apiKey: owner.apiKey });
    expect((read.body as { data: unknown }).data).toEqual(code);
  });

  it('reads a code without routing as nulls', async () => {
    const created = await create({});
    expect((created.body as { data: unknown }).data).toMatchObject({ routing: null, activeFrom: null, expiresAt: null, scanLimit: null, expiredUrl: null });
  });

  it('keeps a rule id sent back with a changed rule, gives a new rule a new id, and refuses an id it never gave', async () => {
    const created = await create({ routing: { rules: [GERMAN_IPHONES] } });
    const code = (created.body as { data: { id: string; routing: { rules: { id: string }[] } } }).data;
    const kept = code.routing.rules[0]!.id;

    const changed = await change(code.id, {
      routing: { rules: [WEEKEND_NIGHTS, { ...GERMAN_IPHONES, id: kept, destinationUrl: 'https://example.com/de-ios-2' }] },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const rules = (changed.body as { data: { routing: { rules: { id: string; destinationUrl: string }[] } } }).data.routing.rules;
    expect(rules[1]).toMatchObject({ id: kept, destinationUrl: 'https://example.com/de-ios-2' });
    expect(rules[0]!.id).toMatch(RULE_ID);
    expect(rules[0]!.id).not.toBe(kept);

    const stranger = 'rul_01JD3Z8Q4V6N1X2Y3Z4A5B6C7D';
    expect(pointersOf(await change(code.id, { routing: { rules: [{ ...GERMAN_IPHONES, id: stranger }] } }))).toEqual(['/body/routing/rules/0/id']);
  });

  it('makes the first variant the destination, moves it with a new url, and removes routing with null', async () => {
    const created = await create({
      url: 'https://example.com/a',
      routing: { split: [{ destinationUrl: 'https://example.com/a', weight: 50 }, { destinationUrl: 'https://example.com/b', weight: 50 }] },
    });
    const id = (created.body as { data: { id: string } }).data.id;
    const moved = await change(id, { url: 'https://example.com/a2' });
    expect((moved.body as { data: unknown }).data).toMatchObject({
      destinationUrl: 'https://example.com/a2',
      routing: { split: [{ destinationUrl: 'https://example.com/a2', weight: 50 }, { destinationUrl: 'https://example.com/b', weight: 50 }] },
    });
    const history = await database.db.selectFrom('qr_code_destination_changes').select('new_url').where('qr_code_id', '=', id).orderBy('changed_at').orderBy('id').execute();
    expect(history.map((row) => row.new_url)).toEqual(['https://example.com/a', 'https://example.com/a2']);

    const removed = await change(id, { routing: null, scanLimit: 10 });
    expect((removed.body as { data: unknown }).data).toMatchObject({ routing: null, destinationUrl: 'https://example.com/a2', scanLimit: 10 });
  });

  it.each([
    ['an unknown condition', { routing: { rules: [{ when: { planet: ['mars'] }, destinationUrl: 'https://example.com/x' }] } }, '/body/routing/rules/0/when/planet'],
    ['a rule without conditions', { routing: { rules: [{ when: {}, destinationUrl: 'https://example.com/x' }] } }, '/body/routing/rules/0/when'],
    ['a weekday that does not parse', { routing: { rules: [{ when: { weekdays: ['someday'] }, destinationUrl: 'https://example.com/x' }] } }, '/body/routing/rules/0/when/weekdays/0'],
    ['a time that does not parse', { routing: { rules: [{ when: { hours: { from: '25:00', until: '02:00' } }, destinationUrl: 'https://example.com/x' }] } }, '/body/routing/rules/0/when/hours/from'],
    ['an unknown time zone', { routing: { timeZone: 'Mars/Olympus_Mons', rules: [GERMAN_IPHONES] } }, '/body/routing/timeZone'],
    ['weights that do not add up to 100', { routing: { split: [{ destinationUrl: 'https://example.com/a', weight: 50 }, { destinationUrl: 'https://example.com/b', weight: 40 }] } }, '/body/routing/split'],
    ['until before from', { routing: { rules: [{ when: { from: '2027-01-01T00:00:00Z', until: '2026-12-01T00:00:00Z' }, destinationUrl: 'https://example.com/x' }] } }, '/body/routing/rules/0/when/until'],
    ['more than 20 rules', { routing: { rules: Array.from({ length: 21 }, () => GERMAN_IPHONES) } }, '/body/routing/rules'],
    ['an ftp rule destination', { routing: { rules: [{ when: { os: ['iOS'] }, destinationUrl: 'ftp://example.com/x' }] } }, '/body/routing/rules/0/destinationUrl'],
    ['an expiry before the start', { activeFrom: '2027-01-01T00:00:00Z', expiresAt: '2026-12-01T00:00:00Z' }, '/body/expiresAt'],
    ['a scan limit of 0', { scanLimit: 0 }, '/body/scanLimit'],
    ['an expired URL with credentials', { expiredUrl: 'https://user:pass@example.com/' }, '/body/expiredUrl'],
    ['a url that is not the first variant', { url: 'https://example.com/other', routing: { split: [{ destinationUrl: 'https://example.com/a', weight: 50 }, { destinationUrl: 'https://example.com/b', weight: 50 }] } }, '/body/url'],
  ])('refuses %s with invalid_body at its pointer, and stores nothing', async (_case, body, pointer) => {
    const before = await database.db.selectFrom('qr_codes').select((eb) => eb.fn.countAll<number>().as('n')).where('account_id', '=', owner.accountId).executeTakeFirstOrThrow();
    const refused = await create(body);
    expect(pointersOf(refused), JSON.stringify(refused.body)).toContain(pointer);
    const after = await database.db.selectFrom('qr_codes').select((eb) => eb.fn.countAll<number>().as('n')).where('account_id', '=', owner.accountId).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('refuses an expiry before a start stored earlier, pointing at the field the change sent', async () => {
    const created = await create({ activeFrom: '2027-01-01T00:00:00Z' });
    const id = (created.body as { data: { id: string } }).data.id;
    expect(pointersOf(await change(id, { expiresAt: '2026-12-01T00:00:00Z' }))).toEqual(['/body/expiresAt']);
  });

  it('gives a landing-page code rules but no split', async () => {
    const wifi = await createTestTypedCode(database.db, owner, { type: 'WIFI' });
    const rules = await change(wifi.id, { routing: { rules: [GERMAN_IPHONES] } });
    expect(rules.status, JSON.stringify(rules.body)).toBe(200);
    expect((rules.body as { data: unknown }).data).toMatchObject({ type: 'WIFI', destinationUrl: `https://qr.test/r/${wifi.slug}`, routing: { rules: [{ destinationUrl: 'https://example.com/de-ios' }] } });
    const split = { split: [{ destinationUrl: 'https://example.com/a', weight: 50 }, { destinationUrl: 'https://example.com/b', weight: 50 }] };
    expect(pointersOf(await change(wifi.id, { routing: split }))).toEqual(['/body/routing/split']);
  });

  it('answers a retried create with a different routing as a reused Idempotency-Key', async () => {
    const send = (rules: unknown[]) => create({ name: 'Retried', routing: { rules } }, { 'Idempotency-Key': 'routing-retry-1' });
    expect((await send([GERMAN_IPHONES])).status).toBe(201);
    expect((await send([GERMAN_IPHONES])).status).toBe(201);
    expect((await send([WEEKEND_NIGHTS])).status).toBe(422);
  });
});

describe('hostile routing input', () => {
  // Every text a routing carries, with what PostgreSQL's jsonb and text cannot hold (NUL) or XML cannot print
  // (U+FFFF, a lone surrogate), and broken escapes: a clear 400 or a stored value, never a 5xx.
  const HOSTILE = ['\u0000', 'a\u0000b', '\uffff', '\ud800', 'x'.repeat(5000), '%E0%A4%A', '\u202e', ''];
  const bodies = (text: string): Record<string, unknown>[] => [
    { routing: { rules: [{ name: text, when: { os: ['iOS'] }, destinationUrl: 'https://example.com/x' }] } },
    { routing: { rules: [{ when: { os: [text] }, destinationUrl: 'https://example.com/x' }] } },
    { routing: { rules: [{ when: { browsers: [text] }, destinationUrl: 'https://example.com/x' }] } },
    { routing: { rules: [{ when: { countries: [text] }, destinationUrl: 'https://example.com/x' }] } },
    { routing: { rules: [{ when: { languages: [text] }, destinationUrl: 'https://example.com/x' }] } },
    { routing: { rules: [{ when: { weekdays: [text] }, destinationUrl: 'https://example.com/x' }] } },
    { routing: { rules: [{ when: { hours: { from: text, until: '02:00' } }, destinationUrl: 'https://example.com/x' }] } },
    { routing: { rules: [{ when: { from: text }, destinationUrl: 'https://example.com/x' }] } },
    { routing: { rules: [{ when: { os: ['iOS'] }, destinationUrl: `https://example.com/${text}` }] } },
    { routing: { rules: [{ id: text, when: { os: ['iOS'] }, destinationUrl: 'https://example.com/x' }] } },
    { routing: { timeZone: text, rules: [GERMAN_IPHONES] } },
    { routing: { split: [{ destinationUrl: `https://example.com/${text}`, weight: 50 }, { destinationUrl: 'https://example.com/b', weight: 50 }] } },
    { expiredUrl: `https://example.com/${text}` },
    { activeFrom: text },
  ];

  it('answers every hostile text in every routing field without a 5xx', async () => {
    const created = await create({});
    const id = (created.body as { data: { id: string } }).data.id;
    const failures: string[] = [];
    for (const text of HOSTILE) {
      for (const body of bodies(text)) {
        for (const response of [await create(body), await change(id, body)]) {
          if (response.status >= 500) failures.push(`${response.status} for ${JSON.stringify(body).slice(0, 200)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });
});
