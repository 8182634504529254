import type { ImportRow } from '../../imports/import-rows.js';
import { ShownValue } from './shown-value.js';
import { TableRegion } from '../shared/table-region.js';

/** One line per problem: a row with three errors has three lines, each naming its column and the value given there. */
export function ProblemTable(props: { rows: ImportRow[]; caption: string }) {
  return (
    <TableRegion label={props.caption}>
      <table class="import-problems">
        <caption>{props.caption}</caption>
        <thead>
          <tr>
            <th scope="col" class="numeric">Line</th>
            <th scope="col">State</th>
            <th scope="col">Column</th>
            <th scope="col">Value</th>
            <th scope="col">Problem</th>
          </tr>
        </thead>
        <tbody>
          {props.rows.flatMap((row) =>
            (row.problems.length > 0 ? row.problems : [{ field: 'row', message: '' }]).map((problem) => (
              <tr>
                <td class="numeric">{row.line}</td>
                <td>{ROW_STATES[row.status] ?? row.status}</td>
                <td class="mono">{problem.field}</td>
                <td>
                  <ShownValue value={'value' in problem ? problem.value : undefined} />
                </td>
                <td>
                  {problem.message}
                  {'code' in problem && problem.code !== undefined && <span class="muted"> ({problem.code})</span>}
                </td>
              </tr>
            )),
          )}
        </tbody>
      </table>
    </TableRegion>
  );
}

const ROW_STATES: Record<string, string> = { invalid: 'Error', skipped: 'Skipped', failed: 'Failed', created: 'Created', pending: 'Waiting' };

/** Skipped rows are not mistakes (the file was imported before): the first ones, and how many in all. */
export function SkippedRows(props: { rows: ImportRow[]; count: number; level?: 2 | 3 }) {
  if (props.count === 0) return null;
  const Heading = props.level === 3 ? 'h3' : 'h2';
  return (
    <>
      <Heading>Skipped rows</Heading>
      {props.count > props.rows.length && (
        <p class="muted">
          The first {props.rows.length.toLocaleString('en')} of {props.count.toLocaleString('en')}.
        </p>
      )}
      <ProblemTable rows={props.rows} caption="Rows whose externalId already names a code, by line" />
    </>
  );
}
