import type { BucketSize, ScanRange } from '../../analytics/index.js';

export const RANGE_LABELS: Record<ScanRange, string> = { '24h': '24 h', '7d': '7 d', '30d': '30 d', '90d': '90 d', all: 'All' };

const RANGE_WORDS: Record<ScanRange, string> = {
  '24h': 'the last 24 hours',
  '7d': 'the last 7 days',
  '30d': 'the last 30 days',
  '90d': 'the last 90 days',
  all: 'all time',
};

export function rangeWords(range: ScanRange): string {
  return RANGE_WORDS[range];
}

export const BUCKET_WORDS: Record<BucketSize, { per: string; column: string; when: string }> = {
  hour: { per: 'per hour', column: 'Hour', when: 'at' },
  day: { per: 'per day', column: 'Day', when: 'on' },
  week: { per: 'per week', column: 'Week from', when: 'in the week from' },
  month: { per: 'per month', column: 'Month', when: 'in' },
};

const integer = new Intl.NumberFormat('en-GB');
const percent = new Intl.NumberFormat('en-GB', { style: 'percent', maximumFractionDigits: 1 });
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export function count(value: number): string {
  return integer.format(value);
}

export function share(part: number, whole: number): string {
  return whole > 0 ? percent.format(part / whole) : '–';
}

/**
 * A bucket's label as people read it. The service labels buckets in the viewer's zone already
 * (`2026-03-29 02:00`, `2026-03-29`, `2026-03`); this only rewords the calendar parts, so no zone math happens here.
 * `short` is for the chart's axis: the hour alone, or day and month.
 */
export function bucketText(label: string, size: BucketSize, short = false): string {
  const [date = '', time = ''] = label.split(' ');
  const [year, month, day] = date.split('-');
  const monthName = MONTHS[Number(month) - 1] ?? month;
  if (size === 'month') return `${monthName} ${year}`;
  if (size === 'hour' && short) return time;
  const dayText = `${Number(day)} ${monthName}`;
  if (short) return dayText;
  return size === 'hour' ? `${dayText} ${year}, ${time}` : `${dayText} ${year}`;
}

/** A moment in the viewer's zone, to the second (scans arrive seconds apart). */
export function momentText(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'medium', timeZone }).format(at);
}

/** ua-parser-js's device types (plus the `desktop` the redirect records) as people name them. */
const DEVICE_NAMES: Record<string, string> = { smarttv: 'Smart TV', xr: 'XR headset' };

/**
 * Recorded values as people read them: `unknown` → `Unknown`, and device classes (`mobile`, `smarttv`) worded when
 * asked; names such as `iOS` are shown as recorded.
 */
export function valueText(value: string, device = false): string {
  if (value === '' || value === 'unknown') return 'Unknown';
  if (!device) return value;
  return DEVICE_NAMES[value] ?? value.charAt(0).toUpperCase() + value.slice(1);
}
