import type { ImportRow, ImportSummary } from '../../imports/import-rows.js';
import { CsrfField, Flash, Layout } from '../shared/layout.js';
import type { PageContext } from '../shared/context.js';
import { ProblemTable, SkippedRows } from './import-row-tables.js';
import { ImportStatus, type ImportResult } from './import-status.js';
import { TableRegion } from '../shared/table-region.js';

/** How many rows to be created the report lists; the counts and the errors are always complete. */
export const PREVIEW_ROWS = 100;

export interface CheckedReport {
  /** Why confirming would be refused: more codes than the plan has room for (confirmImport's own words). */
  tooMany?: string;
  toCreate: ImportRow[];
  /** Every invalid row, with its line and columns. */
  problems: ImportRow[];
  /** The first rows that will be skipped (re-importing a big file skips them all: the count says how many). */
  skipped: ImportRow[];
}

/** GET /imports/:id: the dry run's report and the confirm button, or the progress, or the result. */
export function ImportPage(props: { context: PageContext; summary: ImportSummary; report?: CheckedReport; result?: ImportResult; refusal?: string }) {
  const { summary } = props;
  return (
    <Layout context={props.context} title={`Import of ${summary.fileName}`}>
      <p>
        <a href="/imports">← Imports</a>
      </p>
      <h1>Import of {summary.fileName}</h1>
      {props.refusal && <Flash kind="error">{props.refusal}</Flash>}
      {summary.status === 'checked' && props.report ? (
        <Report context={props.context} summary={summary} report={props.report} />
      ) : summary.status === 'cancelled' ? (
        <p>This import was cancelled; nothing was created.</p>
      ) : (
        <ImportStatus summary={summary} result={props.result} />
      )}
    </Layout>
  );
}

function Report(props: { context: PageContext; summary: ImportSummary; report: CheckedReport }) {
  const { summary, report } = props;
  const { pending, invalid, skipped } = summary.counts;
  return (
    <>
      <h2>Check</h2>
      <ul class="import-counts">
        <li>
          <strong>{pending.toLocaleString('en')}</strong> {pending === 1 ? 'code' : 'codes'} will be created
        </li>
        <li>
          <strong>{skipped.toLocaleString('en')}</strong> {skipped === 1 ? 'row' : 'rows'} will be skipped (a code with its externalId exists)
        </li>
        <li>
          <strong>{invalid.toLocaleString('en')}</strong> {invalid === 1 ? 'row has' : 'rows have'} errors and will not be imported
        </li>
      </ul>
      {report.tooMany !== undefined ? (
        <Flash kind="error">{report.tooMany}</Flash>
      ) : pending > 0 ? (
        <>
          <p>
            {invalid > 0
              ? `Confirming imports the ${pending.toLocaleString('en')} valid rows only; the rows with errors are left out. To import them too, fix them in the file and upload it again (rows already imported are then skipped by their externalId).`
              : 'Nothing has been created yet.'}
          </p>
          <form method="post" action={`/imports/${summary.id}/confirm`} class="inline-form">
            <CsrfField token={props.context.csrfToken} />
            <button type="submit">
              Import {pending.toLocaleString('en')} {pending === 1 ? 'code' : 'codes'}
            </button>
          </form>{' '}
        </>
      ) : (
        <p>There is nothing to create in this file.</p>
      )}
      <form method="post" action={`/imports/${summary.id}/cancel`} class="inline-form">
        <CsrfField token={props.context.csrfToken} />
        <button type="submit" class="secondary outline">
          Cancel this import
        </button>
      </form>
      {report.problems.length > 0 && (
        <>
          <h2>Errors</h2>
          <ProblemTable rows={report.problems} caption="Every row with an error, by line (the header is line 1)" />
        </>
      )}
      <SkippedRows rows={report.skipped} count={skipped} />
      {report.toCreate.length > 0 && (
        <>
          <h2>To be created</h2>
          {pending > report.toCreate.length && (
            <p class="muted">
              The first {report.toCreate.length.toLocaleString('en')} of {pending.toLocaleString('en')}.
            </p>
          )}
          <TableRegion label="Codes to be created">
            <table>
              <thead>
                <tr>
                  <th scope="col" class="numeric">Line</th>
                  <th scope="col">Type</th>
                  <th scope="col">Name</th>
                  <th scope="col">externalId</th>
                  <th scope="col">Design</th>
                </tr>
              </thead>
              <tbody>
                {report.toCreate.map((row) => (
                  <tr>
                    <td class="numeric">{row.line}</td>
                    <td>{row.input.type}</td>
                    <th scope="row">{row.input.name}</th>
                    <td class="mono">{row.input.externalId ?? ''}</td>
                    <td>{row.input.design ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
        </>
      )}
    </>
  );
}
