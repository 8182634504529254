import { describe, expect, it } from 'vitest';
import { readRuleForm, ruleErrors, ruleFormValues } from '../../src/dashboard/routing/rule-form.js';
import { readScheduleForm, readSplitForm } from '../../src/dashboard/routing/routing-forms.js';
import { summariseConditions, weekdayText } from '../../src/dashboard/routing/rule-summary.js';
import { instantToLocal, localToInstant } from '../../src/dashboard/routing/zoned-time.js';

describe('datetime-local fields in the routing’s zone', () => {
  it('read and show a local time as the instant it names, across daylight-saving changes and half-hour zones', () => {
    const cases: Array<[string, string, string]> = [
      ['2026-12-01T00:00', 'Europe/Berlin', '2026-11-30T23:00:00.000Z'],
      ['2026-07-01T00:00', 'Europe/Berlin', '2026-06-30T22:00:00.000Z'],
      ['2026-12-01T09:00', 'America/New_York', '2026-12-01T14:00:00.000Z'],
      ['2026-12-01T09:00', 'Asia/Kolkata', '2026-12-01T03:30:00.000Z'],
      ['2026-12-01T09:00', 'UTC', '2026-12-01T09:00:00.000Z'],
      // 02:30 does not exist in Berlin on 29 March 2026: the clock shows 03:30 an hour after 01:30.
      ['2026-03-29T02:30', 'Europe/Berlin', '2026-03-29T01:30:00.000Z'],
    ];
    for (const [local, zone, instant] of cases) {
      expect(localToInstant(local, zone)?.toISOString(), `${local} ${zone}`).toBe(instant);
      if (local !== '2026-03-29T02:30') expect(instantToLocal(new Date(instant), zone)).toBe(local);
    }
  });

  it('refuse what is not a date and time that exists', () => {
    for (const value of ['', '2026-02-30T10:00', '2026-13-01T10:00', '2026-12-01T24:00', '2026-12-01', '0999-12-01T10:00', '2026-12-01T10:00Z', '+02026-12-01T10:00']) {
      expect(localToInstant(value, 'Europe/Berlin'), value).toBeUndefined();
    }
  });
});

describe('a rule’s summary', () => {
  it('reads as one line: OS, devices, countries by name, languages, window, days and hours', () => {
    expect(
      summariseConditions({ os: ['iOS'], devices: ['mobile'], countries: ['DE', 'AT'], languages: ['de'], weekdays: ['sat', 'sun'], hours: { from: '18:00', until: '02:00' } }, 'UTC'),
    ).toBe('iOS · phones · Germany, Austria · German · Sat–Sun 18:00–02:00');
    expect(summariseConditions({ from: '2026-11-30T23:00:00.000Z' }, 'Europe/Berlin')).toBe('from 1 Dec 2026, 00:00');
    expect(weekdayText(['mon', 'tue', 'wed', 'fri'])).toBe('Mon–Wed, Fri');
  });
});

describe('the rule form', () => {
  it('reads lists at commas and spaces, instants in the zone, and round-trips a stored rule', () => {
    const body = {
      name: '  iPhones ', os: ['iOS', 'Android'], osOther: 'HarmonyOS', browsers: 'Mobile Safari, Chrome', devices: ['mobile', 'nonsense'], countries: 'de at',
      languages: 'de', from: '2026-12-01T00:00', until: '', weekdays: 'sat', hoursFrom: '18:00:00', hoursUntil: '02:00', destinationUrl: ' https://example.com/a ',
    };
    const read = readRuleForm(body, 'Europe/Berlin');
    expect(read.ok && read.rule).toEqual({
      name: 'iPhones',
      when: { os: ['iOS', 'Android', 'HarmonyOS'], browsers: ['Mobile Safari', 'Chrome'], countries: ['de', 'at'], languages: ['de'], devices: ['mobile'], weekdays: ['sat'], from: '2026-11-30T23:00:00.000Z', hours: { from: '18:00', until: '02:00' } },
      destinationUrl: 'https://example.com/a',
    });
    const values = ruleFormValues({ id: 'rul_x', name: 'iPhones', when: { os: ['iOS', 'HarmonyOS'], from: '2026-11-30T23:00:00.000Z' }, destinationUrl: 'https://example.com/a' }, 'Europe/Berlin');
    expect(values).toMatchObject({ os: ['iOS'], osOther: 'HarmonyOS', from: '2026-12-01T00:00' });
  });

  it('puts the service’s problems on the fields they point at, naming the list entry at fault', () => {
    const { errors, general } = ruleErrors(
      [
        { path: '/body/routing/rules/2/when/countries/1', message: 'must be an ISO 3166-1 alpha-2 country code that exists' },
        { path: '/body/routing/rules/2/when/hours/until', message: 'must differ from hours.from' },
        { path: '/body/routing/rules/2/when', message: 'must hold at least one condition' },
        { path: '/body/routing/rules/2/id', message: 'is not the id of one of this code’s rules' },
        { path: '/body/routing/rules', message: 'must have at most 20 rules' },
        { path: '/body/routing/rules/0/destinationUrl', message: 'must use http or https' },
      ],
      2,
      { os: [], browsers: [], countries: ['DE', 'XX'], languages: [] },
    );
    expect(errors).toEqual({
      countries: 'Countries: “XX” must be an ISO 3166-1 alpha-2 country code that exists.',
      hoursUntil: 'Hours until must differ from hours.from.',
      conditions: 'Fill in at least one condition below (for every scan, change the code’s own destination instead).',
    });
    expect(general).toEqual([expect.stringContaining('removed meanwhile'), 'must have at most 20 rules', 'must use http or https']);
  });
});

describe('the split and schedule forms', () => {
  it('leave rows without a URL or ticked for removal out, and refuse weights that are not 1–100', () => {
    const read = readSplitForm({
      'split-0-url': 'https://example.com/a', 'split-0-weight': '70',
      'split-1-url': 'https://example.com/b', 'split-1-weight': '30', 'split-1-remove': 'on',
      'split-2-url': 'https://example.com/c', 'split-2-weight': '30',
      'split-3-url': '', 'split-3-weight': '',
    });
    expect(read.variants).toEqual([{ destinationUrl: 'https://example.com/a', weight: 70, row: 0 }, { destinationUrl: 'https://example.com/c', weight: 30, row: 2 }]);
    expect(readSplitForm({ 'split-0-url': 'https://example.com/a', 'split-0-weight': '1.5' }).errors.rows[0]?.weight).toContain('1 to 100');
    expect(readSplitForm({ 'split-0-url': 'https://example.com/a', 'split-0-weight': '100' }).errors.split).toContain('at least two');
  });

  it('reads the schedule in the zone, an empty field as none', () => {
    const read = readScheduleForm({ activeFrom: '2026-12-01T09:00', expiresAt: '', scanLimit: '5000', expiredUrl: 'https://Example.com' }, 'Europe/Berlin');
    expect(read.ok && read.changes).toEqual({ activeFrom: new Date('2026-12-01T08:00:00Z'), expiresAt: null, scanLimit: 5000, expiredUrl: 'https://example.com/' });
    const refused = readScheduleForm({ scanLimit: '1e3', activeFrom: '2026-12-01T09:00', expiresAt: '2026-12-01T09:00' }, 'UTC');
    expect(!refused.ok && refused.errors).toMatchObject({ scanLimit: expect.stringContaining('whole number'), expiresAt: expect.stringContaining('later than the start') });
  });
});
