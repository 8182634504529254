import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileRouting, parseRouting, routeScan, WEEKDAYS, type Routing, type ScanFacts } from '../../src/routing/index.js';

const HOUR = 3_600_000;
const MINUTE = 60_000;

/**
 * Each zone's offset (minutes east of UTC) by its published rules, written out by hand so the evaluator (which asks
 * Intl) is checked against something that does not: the EU switches at 01:00 UTC on the last Sundays of March and
 * October; the US at 02:00 local on the second Sunday of March and the first of November (since 2007); India has
 * no DST.
 */
const ZONES: Record<string, (at: number) => number> = {
  'Europe/Berlin': (at) => {
    const year = new Date(at).getUTCFullYear();
    return at >= lastSunday(year, 3) + 1 * HOUR && at < lastSunday(year, 10) + 1 * HOUR ? 120 : 60;
  },
  'America/New_York': (at) => {
    const year = new Date(at).getUTCFullYear();
    return at >= nthSunday(year, 3, 2) + 7 * HOUR && at < nthSunday(year, 11, 1) + 6 * HOUR ? -240 : -300;
  },
  'Asia/Kolkata': () => 330,
};

/** Midnight UTC of the last Sunday of a month (1-based). */
function lastSunday(year: number, month: number): number {
  const last = Date.UTC(year, month, 0);
  return last - new Date(last).getUTCDay() * 24 * HOUR;
}

function nthSunday(year: number, month: number, n: number): number {
  const first = Date.UTC(year, month - 1, 1);
  return first + (((7 - new Date(first).getUTCDay()) % 7) + (n - 1) * 7) * 24 * HOUR;
}

/** The instants around which clocks change, 2024–2030, in every zone above: where time rules are most likely wrong. */
const TRANSITIONS = [2024, 2025, 2026, 2027, 2028, 2029, 2030].flatMap((year) => [
  lastSunday(year, 3) + HOUR,
  lastSunday(year, 10) + HOUR,
  nthSunday(year, 3, 2) + 7 * HOUR,
  nthSunday(year, 11, 1) + 6 * HOUR,
]);

/** Instants near a clock change (within a day and a half, to the second) or anywhere in 2024–2030. */
const instant = fc.oneof(
  fc.tuple(fc.constantFrom(...TRANSITIONS), fc.integer({ min: -36 * 3600, max: 36 * 3600 })).map(([at, seconds]) => at + seconds * 1000),
  fc.integer({ min: Date.UTC(2024, 0, 1), max: Date.UTC(2030, 11, 31) }),
);

/** Local weekday (0 Monday) and minute of day by the hand-written rules. */
function localTime(zone: string, at: number): { weekday: number; minute: number } {
  const local = at + ZONES[zone]!(at) * MINUTE;
  return { weekday: (new Date(local).getUTCDay() + 6) % 7, minute: Math.floor(local / MINUTE) % 1440 };
}

/** The instants of the same local day as `at` at the given minutes of the day (by the offset at `at`). */
function atLocalMinutes(zone: string, at: number, minutes: number[]): number[] {
  const { minute } = localTime(zone, at);
  const startOfMinute = at - (at % MINUTE);
  return minutes.map((target) => startOfMinute + (target - minute) * MINUTE);
}

/** What the docs promise: a wrapped window's after-midnight part belongs to the weekday it started on. */
function expectedMatch(zone: string, at: number, weekdays: number[] | null, hours: [number, number] | null): boolean {
  const { weekday, minute } = localTime(zone, at);
  let day = weekday;
  if (hours) {
    const [from, until] = hours;
    if (from < until) {
      if (minute < from || minute >= until) return false;
    } else if (minute < until) day = (weekday + 6) % 7;
    else if (minute < from) return false;
  }
  return weekdays === null || weekdays.includes(day);
}

const clock = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

function routingOf(input: unknown): Routing {
  const parsed = parseRouting(input, null, () => 'rul_1');
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.routing;
}

const scanAt = (at: number): ScanFacts => ({ os: 'iOS', browser: 'Mobile Safari', device: 'mobile', country: 'DE', language: 'de', at, visitor: null });
const matches = (compiled: ReturnType<typeof compileRouting>, at: number) => routeScan(compiled, scanAt(at))?.ruleId === 'rul_1';

describe('routing by local time', () => {
  it('reads weekdays and hours on the zone’s wall clock across DST changes and in half-hour zones, in any order of scans', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...Object.keys(ZONES)),
        fc.option(fc.subarray([0, 1, 2, 3, 4, 5, 6], { minLength: 1 }), { nil: null }),
        fc.option(fc.tuple(fc.integer({ min: 0, max: 1439 }), fc.integer({ min: 0, max: 1439 })).filter(([a, b]) => a !== b), { nil: null }),
        fc.array(instant, { minLength: 1, maxLength: 30 }),
        (zone, weekdays, hours, instants) => {
          fc.pre(weekdays !== null || hours !== null);
          const when: Record<string, unknown> = {};
          if (weekdays) when.weekdays = weekdays.map((day) => WEEKDAYS[day]);
          if (hours) when.hours = { from: clock(hours[0]), until: clock(hours[1]) };
          // One compiled routing for all the scans: its per-minute memory of local time is exercised too.
          const compiled = compileRouting(routingOf({ timeZone: zone, rules: [{ when, destinationUrl: 'https://example.com/' }] }), 'qr_1');
          // Each instant, and the minutes on the edges of that local day's window, where an off-by-one would show.
          const edges = hours ? instants.flatMap((at) => atLocalMinutes(zone, at, [hours[0] - 1, hours[0], hours[1] - 1, hours[1]])) : [];
          for (const at of [...instants, ...edges]) {
            expect(matches(compiled, at), `${zone} ${new Date(at).toISOString()}`).toBe(expectedMatch(zone, at, weekdays, hours));
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('skips a window in the spring-forward gap and holds one in the repeated fall-back hour twice', () => {
    const minutesMatching = (zone: string, from: string, until: string, dayStartUtc: number) => {
      const compiled = compileRouting(routingOf({ timeZone: zone, rules: [{ when: { hours: { from, until } }, destinationUrl: 'https://example.com/' }] }), 'qr_1');
      let count = 0;
      for (let at = dayStartUtc; at < dayStartUtc + 24 * HOUR; at += MINUTE) if (matches(compiled, at)) count += 1;
      return count;
    };
    // Berlin 2026: 02:00–03:00 does not exist on 29 March and happens twice on 25 October.
    expect(minutesMatching('Europe/Berlin', '02:00', '03:00', Date.UTC(2026, 2, 28, 23))).toBe(0);
    expect(minutesMatching('Europe/Berlin', '02:00', '03:00', Date.UTC(2026, 9, 24, 22))).toBe(120);
    expect(minutesMatching('Europe/Berlin', '02:00', '03:00', Date.UTC(2026, 5, 1, 22))).toBe(60);
    // New York 2026: 02:00–03:00 is skipped on 8 March; 01:00–02:00 happens twice on 1 November.
    expect(minutesMatching('America/New_York', '02:00', '03:00', Date.UTC(2026, 2, 8, 5))).toBe(0);
    expect(minutesMatching('America/New_York', '01:00', '02:00', Date.UTC(2026, 10, 1, 4))).toBe(120);
    // A window across the gap is an hour shorter that night: 01:30–03:30 is 01:30–01:59 and 03:00–03:29.
    expect(minutesMatching('Europe/Berlin', '01:30', '03:30', Date.UTC(2026, 2, 28, 23))).toBe(60);
  });

  it('wraps hours past midnight into the next local day, which still belongs to the day the window started', () => {
    const compiled = compileRouting(
      routingOf({ timeZone: 'Asia/Kolkata', rules: [{ when: { weekdays: ['sat'], hours: { from: '18:00', until: '02:00' } }, destinationUrl: 'https://example.com/' }] }),
      'qr_1',
    );
    // Kolkata is UTC+05:30. 2026-11-28 is a Saturday.
    const local = (day: number, hours: number, minutes: number) => Date.UTC(2026, 10, day, hours, minutes) - 330 * MINUTE;
    expect(matches(compiled, local(28, 17, 59))).toBe(false);
    expect(matches(compiled, local(28, 18, 0))).toBe(true);
    expect(matches(compiled, local(28, 23, 59))).toBe(true);
    expect(matches(compiled, local(29, 1, 30))).toBe(true); // Sunday 01:30: Saturday night still
    expect(matches(compiled, local(29, 2, 0))).toBe(false);
    expect(matches(compiled, local(28, 1, 30))).toBe(false); // Saturday 01:30 is Friday night
    expect(matches(compiled, local(29, 18, 30))).toBe(false);
  });

  it('holds from `from` (inclusive) until `until` (exclusive), to the millisecond', () => {
    fc.assert(
      fc.property(instant, fc.integer({ min: 1, max: 90 * 24 * HOUR }), fc.integer({ min: -5000, max: 5000 }), (from, length, delta) => {
        const until = from + length;
        const compiled = compileRouting(
          routingOf({ rules: [{ when: { from: new Date(from).toISOString(), until: new Date(until).toISOString() }, destinationUrl: 'https://example.com/' }] }),
          'qr_1',
        );
        expect(matches(compiled, from)).toBe(true);
        expect(matches(compiled, from - 1)).toBe(false);
        expect(matches(compiled, until - 1)).toBe(true);
        expect(matches(compiled, until)).toBe(false);
        expect(matches(compiled, from + delta)).toBe(delta >= 0 && delta < length);
      }),
      { numRuns: 300 },
    );
  });

  it('reads a window given with an offset as the instant it names', () => {
    const compiled = compileRouting(
      routingOf({ rules: [{ when: { from: '2026-12-01T00:00:00+01:00', until: '2027-01-01T00:00:00+01:00' }, destinationUrl: 'https://example.com/' }] }),
      'qr_1',
    );
    expect(matches(compiled, Date.UTC(2026, 10, 30, 22, 59, 59, 999))).toBe(false);
    expect(matches(compiled, Date.UTC(2026, 10, 30, 23))).toBe(true);
    expect(matches(compiled, Date.UTC(2026, 11, 31, 22, 59, 59, 999))).toBe(true);
    expect(matches(compiled, Date.UTC(2026, 11, 31, 23))).toBe(false);
  });
});
