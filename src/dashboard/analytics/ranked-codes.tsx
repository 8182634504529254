import { TableRegion } from '../shared/table-region.js';
import { count } from './format.js';

export interface RankedCode {
  id: string;
  name: string;
  /** The code's analytics in the dashboard (none for a deleted code). */
  href?: string;
  scans: number;
  uniques: number;
}

/**
 * The account's codes by scans in the period, the most first (ties by unique scans, then name), numbered so a
 * reader can say "our third code". Codes without scans in the period are left to the caller to leave out.
 */
export function RankedCodes(props: { codes: readonly RankedCode[] }) {
  if (props.codes.length === 0) return <p class="muted">No code was scanned in this range.</p>;
  const ranked = [...props.codes].sort((a, b) => b.scans - a.scans || b.uniques - a.uniques || a.name.localeCompare(b.name));
  return (
    <TableRegion label="Codes by scans table">
      <table class="ranked-codes">
        <caption>Codes by scans</caption>
        <thead>
          <tr>
            <th scope="col" class="numeric">#</th>
            <th scope="col">Code</th>
            <th scope="col" class="numeric">Scans</th>
            <th scope="col" class="numeric">Unique</th>
          </tr>
        </thead>
        <tbody>
          {ranked.map((code, index) => (
            <tr>
              <td class="numeric">{index + 1}</td>
              <th scope="row">{code.href ? <a href={code.href}>{code.name}</a> : code.name}</th>
              <td class="numeric">{count(code.scans)}</td>
              <td class="numeric">{count(code.uniques)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}
