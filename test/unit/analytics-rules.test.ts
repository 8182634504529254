import { describe, expect, it } from 'vitest';
import { topWithOther } from '../../src/analytics/breakdowns.js';
import { groupCodes } from '../../src/analytics/scan-export.js';
import { bucketSizeForSpan, parseScanRange } from '../../src/analytics/scan-window.js';
import { hasWholeHourOffsets, resolveTimeZone, utcOffsetMinutes } from '../../src/analytics/time-zones.js';

describe('time zones', () => {
  it.each([
    { given: 'Europe/Berlin', want: 'Europe/Berlin' },
    { given: ' europe/berlin ', want: 'Europe/Berlin' },
    { given: 'Asia/Kolkata', want: 'Asia/Kolkata' }, // not ICU's older "Asia/Calcutta"
    { given: 'America/Argentina/Buenos_Aires', want: 'America/Argentina/Buenos_Aires' },
    { given: 'Etc/GMT+5', want: 'Etc/GMT+5' },
    { given: 'utc', want: 'UTC' },
    { given: undefined, want: 'UTC' },
    { given: '', want: 'UTC' },
    { given: 'Mars/Olympus', want: 'UTC' },
    { given: '+05:30', want: 'UTC' },
    { given: 'Europe/Berlin; drop table scans', want: 'UTC' },
    { given: `Europe/${'x'.repeat(80)}`, want: 'UTC' },
  ])('resolves $given to $want', ({ given, want }) => {
    expect(resolveTimeZone(given)).toBe(want);
  });

  it('reads UTC offsets in minutes, DST included', () => {
    expect(utcOffsetMinutes('Europe/Berlin', new Date('2026-01-15T12:00:00Z'))).toBe(60);
    expect(utcOffsetMinutes('Europe/Berlin', new Date('2026-07-15T12:00:00Z'))).toBe(120);
    expect(utcOffsetMinutes('Asia/Kathmandu', new Date('2026-07-15T12:00:00Z'))).toBe(345);
    expect(utcOffsetMinutes('America/St_Johns', new Date('2026-01-15T12:00:00Z'))).toBe(-210);
    expect(utcOffsetMinutes('UTC', new Date())).toBe(0);
  });

  it('tells zones whose days start on a whole UTC hour', () => {
    const dates = [new Date('2026-01-15T00:00:00Z'), new Date('2026-07-15T00:00:00Z')];
    expect(hasWholeHourOffsets('America/New_York', dates)).toBe(true);
    expect(hasWholeHourOffsets('Asia/Kolkata', dates)).toBe(false);
    // Lord Howe Island moves its clocks by half an hour: +11 in January, +10:30 in July.
    expect(hasWholeHourOffsets('Australia/Lord_Howe', [new Date('2026-01-15T00:00:00Z')])).toBe(true);
    expect(hasWholeHourOffsets('Australia/Lord_Howe', dates)).toBe(false);
  });
});

describe('ranges', () => {
  it('accepts the five ranges and falls back to 30d', () => {
    expect(['24h', '7d', '30d', '90d', 'all'].map(parseScanRange)).toEqual(['24h', '7d', '30d', '90d', 'all']);
    expect([undefined, '1y', 'ALL', 7].map(parseScanRange)).toEqual(['30d', '30d', '30d', '30d']);
  });

  it('shows "all" by day up to a year, by week up to three, then by month', () => {
    const now = new Date('2026-06-01T00:00:00Z');
    const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000);
    expect(bucketSizeForSpan(daysAgo(0), now)).toBe('day');
    expect(bucketSizeForSpan(daysAgo(366), now)).toBe('day');
    expect(bucketSizeForSpan(daysAgo(367), now)).toBe('week');
    expect(bucketSizeForSpan(daysAgo(3 * 366), now)).toBe('week');
    expect(bucketSizeForSpan(daysAgo(3 * 366 + 1), now)).toBe('month');
  });
});

describe('breakdown entries', () => {
  const entries = [
    { value: 'b', scans: 5 },
    { value: 'a', scans: 5 },
    { value: 'c', scans: 3 },
    { value: 'd', scans: 2 },
    { value: 'e', scans: 1 },
    { value: 'zero', scans: 0 },
  ];

  it('keeps the top values by scans (ties by name) and sums the rest as other', () => {
    expect(topWithOther(entries, 2)).toEqual([
      { value: 'a', scans: 5, uniqueScans: 0, other: false },
      { value: 'b', scans: 5, uniqueScans: 0, other: false },
      { value: 'other', scans: 6, uniqueScans: 0, other: true },
    ]);
  });

  it('names a single leftover value instead of calling it other, and shows everything when it fits', () => {
    expect(topWithOther(entries, 4).map((e) => e.value)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(topWithOther(entries, 10).map((e) => e.value)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(topWithOther([], 5)).toEqual([]);
  });
});

describe('export groups', () => {
  it('reads consecutive small codes together and a big one alone', () => {
    const codes = [3, 1, 1, 10, 0, 2, 5].map((scans, i) => ({ id: `c${i}`, scans }));
    expect(groupCodes(codes, 5).map((group) => group.map((c) => c.id))).toEqual([['c0', 'c1', 'c2'], ['c3'], ['c4', 'c5'], ['c6']]);
    expect(groupCodes([], 5)).toEqual([]);
  });
});
