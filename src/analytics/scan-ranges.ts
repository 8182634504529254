/** The ranges the analytics offer, shortest first (the order of the dashboard's range links). */
export const SCAN_RANGES = ['24h', '7d', '30d', '90d', 'all'] as const;
export type ScanRange = (typeof SCAN_RANGES)[number];
export const DEFAULT_SCAN_RANGE: ScanRange = '30d';

/** A range from a query string; anything else is the default. */
export function parseScanRange(value: unknown): ScanRange {
  return SCAN_RANGES.find((range) => range === value) ?? DEFAULT_SCAN_RANGE;
}
