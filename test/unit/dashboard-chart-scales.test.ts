import { describe, expect, it } from 'vitest';
import { dateLabelIndexes, evenTicks, hourLabelIndexes } from '../../src/dashboard/analytics/chart-ticks.js';
import { currentZoneName, knownZoneNames } from '../../src/time-zone-names.js';
import { resolveTimeZone } from '../../src/analytics/time-zones.js';

describe('chart value axis', () => {
  it.each([
    { max: 0, want: [1] },
    { max: 1, want: [1] },
    { max: 4, want: [1, 2, 3, 4] },
    { max: 5, want: [2, 4, 6] },
    { max: 7, want: [2, 4, 6, 8] },
    { max: 11, want: [5, 10, 15] },
    { max: 37, want: [10, 20, 30, 40] },
    { max: 100, want: [50, 100] },
    { max: 101, want: [50, 100, 150] },
    { max: 1234, want: [500, 1000, 1500] },
    { max: 999_999, want: [500_000, 1_000_000] },
  ])('steps up to $max as $want', ({ max, want }) => {
    const { step, top, ticks } = evenTicks(max);
    expect(ticks).toEqual(want);
    expect(top).toBe(want.at(-1));
    expect(top).toBeGreaterThanOrEqual(max);
    expect(step / 10 ** Math.floor(Math.log10(step))).toBeOneOf([1, 2, 5]);
  });
});

describe('time zone names', () => {
  it.each([
    { given: 'Asia/Calcutta', want: 'Asia/Kolkata' },
    { given: 'asia/calcutta', want: 'Asia/Kolkata' },
    { given: 'asia/kolkata', want: 'Asia/Kolkata' },
    { given: 'Europe/Kiev', want: 'Europe/Kyiv' },
    { given: 'Europe/Kyiv', want: 'Europe/Kyiv' },
    { given: 'Asia/Saigon', want: 'Asia/Ho_Chi_Minh' },
    { given: 'America/Buenos_Aires', want: 'America/Argentina/Buenos_Aires' },
    { given: 'Europe/Amsterdam', want: 'Europe/Amsterdam' }, // merged into Brussels in tzdata, still its own name
    { given: 'US/Eastern', want: 'US/Eastern' },
  ])('names the viewer zone $given as $want', ({ given, want }) => {
    expect(resolveTimeZone(given)).toBe(want);
  });

  it('maps only to names the runtime knows, and lists no renamed zone by its old name', () => {
    const listed = knownZoneNames();
    for (const name of listed) expect(() => new Intl.DateTimeFormat('en', { timeZone: name })).not.toThrow();
    expect(listed).toContain('Asia/Kolkata');
    expect(listed).toContain('Europe/Kyiv');
    expect(listed).not.toContain('Asia/Calcutta');
    expect(listed).not.toContain('Europe/Kiev');
    expect(currentZoneName('Europe/Berlin')).toBe('Europe/Berlin');
  });
});

describe('chart date labels', () => {
  it.each([
    { bars: 7, want: [0, 2, 4, 6] }, // 7 days: every other day, not 20, 21, 22, 24, 25, 26 Nov
    { bars: 24, want: [3, 8, 13, 18, 23] },
    { bars: 30, want: [5, 11, 17, 23, 29] },
    { bars: 90, want: [17, 35, 53, 71, 89] },
    { bars: 6, want: [0, 1, 2, 3, 4, 5] },
    { bars: 2, want: [0, 1] },
    { bars: 1, want: [0] },
    { bars: 0, want: [] },
  ])('labels $bars bars at one even step back from the newest: $want', ({ bars, want }) => {
    const labels = dateLabelIndexes(bars, 6);
    expect(labels).toEqual(want);
    expect(new Set(labels.slice(1).map((index, i) => index - labels[i]!)).size).toBeLessThanOrEqual(1);
  });
});

describe('chart hour labels', () => {
  it('labels the last 24 hours on the hours a clock is read at, every fourth', () => {
    const hours = Array.from({ length: 24 }, (_, i) => (i + 2) % 24); // 02:00 yesterday to 01:00 now
    expect(hourLabelIndexes(hours, 6).map((index) => hours[index])).toEqual([4, 8, 12, 16, 20, 0]);
    const skipped = [0, 1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 0];
    // A day that starts and ends at midnight, 02:00 skipped (spring forward): seven fourth hours are too many, so every sixth.
    expect(hourLabelIndexes(skipped, 6).map((index) => skipped[index])).toEqual([0, 6, 12, 18, 0]);
  });
});
