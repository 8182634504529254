import type { RecentScan } from '../../analytics/recent-scans.js';
import { momentText, valueText } from './format.js';
import { TableRegion } from '../shared/table-region.js';

/** The newest scans, in the viewer's zone; on the account's page with the code each one was of. */
export function RecentScansTable(props: { scans: RecentScan[]; timeZone: string; withCode: boolean }) {
  if (props.scans.length === 0) return <p class="muted">No scans yet.</p>;
  return (
    <TableRegion label="Recent scans table">
      <table>
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
                <time datetime={scan.at.toISOString()}>{momentText(scan.at, props.timeZone)}</time>
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
