import { describe, expect, it } from 'vitest';
import { DEVICE_CLASSES as RECORDED_DEVICE_CLASSES } from '../../src/redirect/user-agent.js';
import { DEVICE_CLASSES, parseRouting, type Routing } from '../../src/routing/index.js';

/** Ids a test can predict: rul_new1, rul_new2, ... */
function ids(): () => string {
  let next = 0;
  return () => `rul_new${++next}`;
}

const rule = (when: unknown, extra: Record<string, unknown> = {}) => ({ when, destinationUrl: 'https://example.com/r', ...extra });

/** The problems parseRouting gives for `input` (a create: no previous routing). */
function problemsOf(input: unknown, previous: Routing | null = null) {
  const parsed = parseRouting(input, previous, ids());
  if (parsed.ok) throw new Error(`expected problems, got ${JSON.stringify(parsed.routing)}`);
  return parsed.problems;
}

function pointersOf(input: unknown, previous: Routing | null = null) {
  return problemsOf(input, previous).map((problem) => problem.pointer);
}

describe('parseRouting normalises what it accepts', () => {
  it('upper-cases countries, lower-cases languages, devices and weekdays, drops duplicates and stores instants in UTC', () => {
    const parsed = parseRouting(
      {
        timeZone: 'europe/berlin',
        rules: [
          rule(
            {
              os: [' iOS ', 'iOS', 'Android'],
              devices: ['Mobile'],
              countries: ['de', 'AT', 'DE'],
              languages: ['DE'],
              from: '2026-12-01T00:00:00+01:00',
              until: '2027-01-01T00:00:00.25+01:00',
              weekdays: ['Sun', 'sat'],
              hours: { from: '18:00', until: '02:00' },
            },
            { name: '  iPhones in Germany ' },
          ),
        ],
        split: [
          { destinationUrl: 'HTTPS://Example.com', weight: 70 },
          { destinationUrl: 'https://example.com/b', weight: 30 },
        ],
      },
      null,
      ids(),
    );
    expect(parsed).toEqual({
      ok: true,
      routing: {
        timeZone: 'Europe/Berlin',
        rules: [
          {
            id: 'rul_new1',
            name: 'iPhones in Germany',
            when: {
              os: ['iOS', 'Android'],
              devices: ['mobile'],
              countries: ['DE', 'AT'],
              languages: ['de'],
              from: '2026-11-30T23:00:00.000Z',
              until: '2026-12-31T23:00:00.250Z',
              weekdays: ['sat', 'sun'],
              hours: { from: '18:00', until: '02:00' },
            },
            destinationUrl: 'https://example.com/r',
          },
        ],
        split: [
          { destinationUrl: 'https://example.com/', weight: 70 },
          { destinationUrl: 'https://example.com/b', weight: 30 },
        ],
      },
    });
  });

  it('defaults the zone to UTC and the rules to none, names renamed zones by their current names, and reads null as left out', () => {
    const split = [
      { destinationUrl: 'https://example.com/a', weight: 50 },
      { destinationUrl: 'https://example.com/b', weight: 50 },
    ];
    expect(parseRouting({ split }, null, ids())).toEqual({ ok: true, routing: { timeZone: 'UTC', rules: [], split } });
    expect(parseRouting({ timeZone: 'Asia/Calcutta', rules: [], split: null }, null, ids())).toEqual({
      ok: true,
      routing: { timeZone: 'Asia/Kolkata', rules: [] },
    });
    const parsed = parseRouting({ rules: [rule({ countries: ['DE'], os: null }, { name: null, id: null })] }, null, ids());
    expect(parsed.ok && parsed.routing.rules).toEqual([{ id: 'rul_new1', when: { countries: ['DE'] }, destinationUrl: 'https://example.com/r' }]);
  });

  it('accepts Kosovo (XK, as geo databases record it) and names exactly 100 characters long', () => {
    const parsed = parseRouting({ rules: [rule({ countries: ['xk'] }, { name: 'n'.repeat(100) })] }, null, ids());
    expect(parsed.ok).toBe(true);
  });

  it('checks devices against the classes the redirect records', () => {
    expect([...DEVICE_CLASSES]).toEqual([...RECORDED_DEVICE_CLASSES]);
  });
});

describe('parseRouting keeps rule ids across updates', () => {
  const previous: Routing = {
    timeZone: 'UTC',
    rules: [
      { id: 'rul_A', when: { countries: ['DE'] }, destinationUrl: 'https://example.com/de' },
      { id: 'rul_B', when: { countries: ['FR'] }, destinationUrl: 'https://example.com/fr' },
      { id: 'rul_C', when: { countries: ['IT'] }, destinationUrl: 'https://example.com/it' },
    ],
  };

  it('keeps the id of every rule sent back, in its new place, gives new rules new ids and lets rules go', () => {
    const parsed = parseRouting(
      { rules: [rule({ countries: ['IT'] }, { id: 'rul_C' }), rule({ countries: ['ES'] }), rule({ countries: ['AT'] }, { id: 'rul_A' }), rule({ os: ['iOS'] })] },
      previous,
      ids(),
    );
    expect(parsed.ok && parsed.routing.rules.map((r) => r.id)).toEqual(['rul_C', 'rul_new1', 'rul_A', 'rul_new2']);
  });

  it('refuses an id that is not one of the code’s rules, on create as on update', () => {
    expect(problemsOf({ rules: [rule({ os: ['iOS'] }, { id: 'rul_B' })] })).toEqual([
      { pointer: '/rules/0/id', message: "is not the id of one of this code's rules; leave id out for a new rule" },
    ]);
    expect(pointersOf({ rules: [rule({ os: ['iOS'] }), rule({ os: ['iOS'] }, { id: 'rul_Z' })] }, previous)).toEqual(['/rules/1/id']);
    expect(pointersOf({ rules: [rule({ os: ['iOS'] }, { id: 7 })] }, previous)).toEqual(['/rules/0/id']);
  });

  it('refuses a rule id sent twice', () => {
    expect(problemsOf({ rules: [rule({ os: ['iOS'] }, { id: 'rul_A' }), rule({ os: ['iOS'] }), rule({ os: ['iOS'] }, { id: 'rul_A' })] }, previous)).toEqual([
      { pointer: '/rules/2/id', message: 'is also the id of rule 0; a rule appears once' },
    ]);
  });
});

describe('parseRouting refuses, with a pointer to the field', () => {
  const hours = (from: unknown, until: unknown) => ({ rules: [rule({ hours: { from, until } })] });
  const split = (...weights: unknown[]) => ({ split: weights.map((weight, i) => ({ destinationUrl: `https://example.com/${i}`, weight })) });

  it.each([
    ['an unknown condition', { rules: [rule({ os: ['iOS'], colour: ['red'] })] }, '/rules/0/when/colour', 'is not a condition; expected one of os, browsers, devices, countries, languages, from, until, weekdays, hours'],
    ['an unknown condition with / in its name', { rules: [rule({ 'a/b~': 1, os: ['iOS'] })] }, '/rules/0/when/a~1b~0', 'is not a condition'],
    ['an unknown field of a rule', { rules: [{ ...rule({ os: ['iOS'] }), target: 'x' }] }, '/rules/0/target', 'is not a field of a rule'],
    ['an unknown field of routing', { rulez: [] }, '/rulez', 'is not a field of routing'],
    ['a rule without conditions', { rules: [rule({})] }, '/rules/0/when', 'must hold at least one condition'],
    ['a rule whose conditions are all null', { rules: [rule({ os: null })] }, '/rules/0/when', 'must hold at least one condition'],
    ['a rule without when', { rules: [{ destinationUrl: 'https://example.com/' }] }, '/rules/0/when', 'is required'],
    ['when that is not an object', { rules: [rule(['os'])] }, '/rules/0/when', 'must be an object of conditions'],
    ['a rule that is not an object', { rules: ['x'] }, '/rules/0', 'must be a rule'],
    ['more than 20 rules', { rules: Array.from({ length: 21 }, () => rule({ os: ['iOS'] })) }, '/rules', 'must have at most 20 rules (it has 21)'],
    ['rules that are not a list', { rules: {} }, '/rules', 'must be a list of rules'],
    ['an empty list condition', { rules: [rule({ countries: [] })] }, '/rules/0/when/countries', 'must not be empty'],
    ['a list condition that is not a list', { rules: [rule({ os: 'iOS' })] }, '/rules/0/when/os', 'must be a list'],
    ['a weekday that does not parse', { rules: [rule({ weekdays: ['mon', 'monday'] })] }, '/rules/0/when/weekdays/1', 'must be one of mon, tue, wed, thu, fri, sat, sun'],
    ['an empty weekday list', { rules: [rule({ weekdays: [] })] }, '/rules/0/when/weekdays', 'must not be empty'],
    ['hours past 23', hours('25:00', '02:00'), '/rules/0/when/hours/from', 'must be a local time HH:MM from 00:00 to 23:59'],
    ['hours without two digits', hours('18:00', '2:00'), '/rules/0/when/hours/until', 'must be a local time HH:MM'],
    ['minutes past 59', hours('18:60', '02:00'), '/rules/0/when/hours/from', 'must be a local time HH:MM'],
    ['24:00', hours('18:00', '24:00'), '/rules/0/when/hours/until', 'a window to midnight ends at 00:00'],
    ['hours without until', { rules: [rule({ hours: { from: '18:00' } })] }, '/rules/0/when/hours/until', 'is required'],
    ['hours from equal to until', hours('09:30', '09:30'), '/rules/0/when/hours/until', 'must differ from hours.from'],
    ['an unknown field of hours', { rules: [rule({ hours: { from: '09:00', until: '10:00', tz: 'UTC' } })] }, '/rules/0/when/hours/tz', 'is not a field of hours'],
    ['an unknown time zone', { timeZone: 'Mars/Olympus_Mons', rules: [rule({ os: ['iOS'] })] }, '/timeZone', 'must be an IANA time zone name'],
    ['an offset for a time zone', { timeZone: '+01:00' }, '/timeZone', 'must be an IANA time zone name'],
    ['until before from', { rules: [rule({ from: '2027-01-01T00:00:00Z', until: '2026-12-31T00:00:00Z' })] }, '/rules/0/when/until', 'must be after from'],
    ['until equal to from, written in other offsets', { rules: [rule({ from: '2027-01-01T01:00:00+01:00', until: '2027-01-01T00:00:00Z' })] }, '/rules/0/when/until', 'must be after from'],
    ['an instant without offset', { rules: [rule({ from: '2026-12-01T00:00:00' })] }, '/rules/0/when/from', 'must end with its UTC offset'],
    ['a date without time', { rules: [rule({ until: '2026-12-01' })] }, '/rules/0/when/until', 'must be an ISO 8601 instant with its offset'],
    ['a day that does not exist', { rules: [rule({ from: '2026-02-29T00:00:00Z' })] }, '/rules/0/when/from', 'is not a date and time that exists'],
    ['a country that does not exist', { rules: [rule({ countries: ['DE', 'UK'] })] }, '/rules/0/when/countries/1', 'must be an ISO 3166-1 alpha-2 country code that exists'],
    ['a language with a region', { rules: [rule({ languages: ['de-DE'] })] }, '/rules/0/when/languages/0', 'must be a language without region or script, such as de'],
    ['a language that is not a code', { rules: [rule({ languages: ['german'] })] }, '/rules/0/when/languages/0', 'must be a language code'],
    ['a device class that does not exist', { rules: [rule({ devices: ['phone'] })] }, '/rules/0/when/devices/0', 'must be one of mobile, tablet'],
    ['an OS name no scan records', { rules: [rule({ os: ['<script>'] })] }, '/rules/0/when/os/0', 'must be a name as scans record it'],
    ['a browser name that is not a string', { rules: [rule({ browsers: [3] })] }, '/rules/0/when/browsers/0', 'must be a string'],
    ['a relative destination', { rules: [rule({ os: ['iOS'] }, { destinationUrl: '/de' })] }, '/rules/0/destinationUrl', 'must be an absolute URL'],
    ['a destination that is not http(s)', { rules: [rule({ os: ['iOS'] }, { destinationUrl: 'javascript:alert(1)' })] }, '/rules/0/destinationUrl', 'must use http or https'],
    ['a destination with credentials', { rules: [rule({ os: ['iOS'] }, { destinationUrl: 'https://a:b@example.com/' })] }, '/rules/0/destinationUrl', 'must not contain credentials'],
    ['a rule without destination', { rules: [{ when: { os: ['iOS'] } }] }, '/rules/0/destinationUrl', 'is required'],
    ['a name over 100 characters', { rules: [rule({ os: ['iOS'] }, { name: 'n'.repeat(101) })] }, '/rules/0/name', 'must be at most 100 characters'],
    ['a name with a line break', { rules: [rule({ os: ['iOS'] }, { name: 'a\nb' })] }, '/rules/0/name', 'must not contain control characters'],
    ['a split of one', split(100), '/split', 'must be a list of at least two destinations'],
    ['an empty split', split(), '/split', 'must be a list of at least two destinations'],
    ['a weight of 0', split(0, 100), '/split/0/weight', 'must be a whole number from 1 to 100'],
    ['a weight over 100', split(-1, 101), '/split/1/weight', 'must be a whole number from 1 to 100'],
    ['a fractional weight', split(50.5, 49.5), '/split/0/weight', 'must be a whole number from 1 to 100'],
    ['a weight as text', split('50', 50), '/split/0/weight', 'must be a whole number from 1 to 100'],
    ['weights that do not add up to 100', split(70, 20), '/split', 'weights must add up to 100 (they add up to 90)'],
    ['a split destination that is not http(s)', { split: [{ destinationUrl: 'ftp://example.com/', weight: 50 }, { destinationUrl: 'https://example.com/', weight: 50 }] }, '/split/0/destinationUrl', 'must use http or https'],
    ['an unknown field of a variant', { split: [{ destinationUrl: 'https://example.com/', weight: 50, name: 'a' }, { destinationUrl: 'https://example.com/', weight: 50 }] }, '/split/0/name', 'is not a field of a split variant'],
    ['routing that is not an object', [], '', 'must be an object'],
  ])('refuses %s', (_what, input, pointer, message) => {
    const problems = problemsOf(input);
    expect(problems.map((problem) => problem.pointer)).toContain(pointer);
    expect(problems.find((problem) => problem.pointer === pointer)!.message).toContain(message);
  });

  it('lists every problem of a request at once, each at its own pointer', () => {
    expect(
      pointersOf({
        timeZone: 'Nowhere/City',
        rules: [rule({ countries: ['DE'] }), rule({ weekdays: ['someday'], hours: { from: '7', until: '08:00' } }, { destinationUrl: 'mailto:a@b.c' })],
        split: [{ destinationUrl: 'https://example.com/', weight: 60 }, { destinationUrl: 'https://example.com/', weight: 60 }],
      }),
    ).toEqual(['/timeZone', '/rules/1/when/weekdays/0', '/rules/1/when/hours/from', '/rules/1/destinationUrl', '/split']);
  });

  it('refuses only the 21st rule count, not each rule of a list that long', () => {
    expect(problemsOf({ rules: Array.from({ length: 21 }, () => rule({})) })).toHaveLength(1);
  });
});
