import { describe, expect, it } from 'vitest';
import { monthsToKeepAhead } from '../../src/maintenance/scan-partitions.js';

describe('the months the pruning job keeps partitions for', () => {
  it('are the current UTC month and the next 3, across a year end, with UTC bounds', () => {
    // 23:30 on 31 October in UTC is already November in Berlin: the UTC month counts.
    expect(monthsToKeepAhead(new Date('2026-10-31T23:30:00Z'))).toEqual([
      { name: 'scan_groups_2026_10', from: '2026-10-01T00:00:00.000Z', to: '2026-11-01T00:00:00.000Z' },
      { name: 'scan_groups_2026_11', from: '2026-11-01T00:00:00.000Z', to: '2026-12-01T00:00:00.000Z' },
      { name: 'scan_groups_2026_12', from: '2026-12-01T00:00:00.000Z', to: '2027-01-01T00:00:00.000Z' },
      { name: 'scan_groups_2027_01', from: '2027-01-01T00:00:00.000Z', to: '2027-02-01T00:00:00.000Z' },
    ]);
  });
});
