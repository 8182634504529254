import type { BreakdownDimension, BreakdownEntry, ScanBreakdowns } from '../../analytics/index.js';
import { count, share, valueText } from './format.js';

const DIMENSIONS: ReadonlyArray<{ key: BreakdownDimension; caption: string }> = [
  { key: 'device', caption: 'Device' },
  { key: 'os', caption: 'Operating system' },
  { key: 'browser', caption: 'Browser' },
];

/** Human scans in the range by device, OS and browser: counts and shares, the long tail summed as "Other". */
export function BreakdownTables(props: { breakdowns: ScanBreakdowns }) {
  const { breakdowns } = props;
  if (breakdowns.total === 0) return <p class="muted">No human scans in this range.</p>;
  return (
    <div class="breakdowns">
      {DIMENSIONS.map(({ key, caption }) => (
        <BreakdownTable caption={caption} entries={breakdowns[key]} total={breakdowns.total} capitalize={key === 'device'} />
      ))}
    </div>
  );
}

function BreakdownTable(props: { caption: string; entries: BreakdownEntry[]; total: number; capitalize: boolean }) {
  return (
    <table>
      <caption>{props.caption}</caption>
      <thead>
        <tr>
          <th scope="col">{props.caption}</th>
          <th scope="col" class="numeric">Scans</th>
          <th scope="col" class="numeric">Share</th>
        </tr>
      </thead>
      <tbody>
        {props.entries.map((entry) => (
          <tr>
            <th scope="row">{entry.other ? 'Other' : valueText(entry.value, props.capitalize)}</th>
            <td class="numeric">{count(entry.scans)}</td>
            <td class="numeric">{share(entry.scans, props.total)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
