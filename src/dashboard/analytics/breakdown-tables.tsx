import type { BreakdownDimension, FilterKey, ScanBreakdowns } from '../../analytics/index.js';
import { DimensionTable } from './dimension-table.js';
import { valueText } from './format.js';

const DIMENSIONS: ReadonlyArray<{ key: BreakdownDimension; caption: string }> = [
  { key: 'device', caption: 'Device' },
  { key: 'os', caption: 'Operating system' },
  { key: 'browser', caption: 'Browser' },
];

/**
 * Human scans in the range by device, OS and browser: counts, unique scans and shares, the long tail summed as
 * "Other"; each value links to the page filtered to it.
 */
export function BreakdownTables(props: { breakdowns: ScanBreakdowns; filterHref?: (key: FilterKey, value: string) => string }) {
  const { breakdowns } = props;
  if (breakdowns.total === 0) return <p class="muted">No human scans in this range.</p>;
  return (
    <div class="breakdowns dimension-tables">
      {DIMENSIONS.map(({ key, caption }) => (
        <DimensionTable
          caption={caption}
          total={breakdowns.total}
          rows={breakdowns[key].map((entry) => ({
            name: entry.other ? 'Other' : valueText(entry.value, key === 'device'),
            href: entry.other || !props.filterHref ? undefined : props.filterHref(key, entry.value),
            current: !entry.other && breakdowns.filters[key] === entry.value,
            scans: entry.scans,
            uniques: entry.uniqueScans,
          }))}
        />
      ))}
    </div>
  );
}
