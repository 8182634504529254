import type { RecentScan } from '../../analytics/recent-scans.js';
import { momentText, valueText } from './format.js';
import { TableRegion } from '../shared/table-region.js';

/** The newest scans (matching the page's filters), in the viewer's zone; on the account's page with the code each one was of. */
export function RecentScansTable(props: { scans: RecentScan[]; timeZone: string; withCode: boolean; filtered?: boolean }) {
  if (props.scans.length === 0) return <p class="muted">{props.filtered ? 'No scans match the filters.' : 'No scans yet.'}</p>;
  return (
    <TableRegion label="Recent scans table">
      <table class="recent-scans">
        <thead>
          <tr>
            <th scope="col">Time ({props.timeZone})</th>
            {props.withCode && <th scope="col">Code</th>}
            <th scope="col">Device</th>
            <th scope="col">OS</th>
            <th scope="col">Browser</th>
          </tr>
        </thead>
        <tbody>
          {props.scans.map((scan) => (
            <tr>
              <th scope="row">
                <ScanTime at={scan.at} timeZone={props.timeZone} />
              </th>
              {props.withCode && <td>{scan.code && <CodeName code={scan.code} />}</td>}
              <td>{valueText(scan.device, true)}</td>
              <td>{valueText(scan.os)}</td>
              <td>{valueText(scan.browser)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}

function CodeName(props: { code: NonNullable<RecentScan['code']> }) {
  if (props.code.deleted) return <span class="muted">{props.code.name} (deleted)</span>;
  return <a href={`/codes/${props.code.id}`}>{props.code.name}</a>;
}

/**
 * "26 Nov 2026, 23:47:41" in the page's zone (which `?tz=` may set, so not shared/moment.tsx's), broken only after
 * the date on a phone, not into three lines.
 */
function ScanTime(props: { at: Date; timeZone: string }) {
  const text = momentText(props.at, props.timeZone);
  const split = text.lastIndexOf(', ');
  return (
    <time datetime={props.at.toISOString()}>
      {split < 0 ? text : (
        <>
          <span class="nowrap">{text.slice(0, split + 1)}</span> <span class="nowrap">{text.slice(split + 2)}</span>
        </>
      )}
    </time>
  );
}
