import type { ImportRow, ImportSummary } from '../../imports/import-rows.js';
import { ImageZipDownloads, PrintZipForm } from './image-zip-downloads.js';
import { ProblemTable, SkippedRows } from './import-row-tables.js';
import { TableRegion } from '../shared/table-region.js';

/** What the finished import shows: created rows, problems and the first skipped rows. */
export interface ImportResult {
  created: ImportRow[];
  /** Every row left out for errors or failed by the job. */
  problems: ImportRow[];
  /** The first skipped rows. */
  skipped: ImportRow[];
  siteUrl: string;
}

/**
 * While the job works: a progress bar that htmx refreshes every second (the element replaces itself, so polling
 * stops once the answer is the result, which has no trigger). Without JavaScript, reloading shows the same.
 */
export function ImportStatus(props: { summary: ImportSummary; result?: ImportResult }) {
  const { summary } = props;
  if (summary.status === 'done' && props.result) return <ImportResultView summary={summary} result={props.result} />;
  // Rows with errors are never work; rows the dry run found existing count as done from the start.
  const toDo = summary.rowCount - summary.counts.invalid;
  const doneRows = toDo - summary.counts.pending;
  return (
    <section id="import-status" aria-labelledby="progress-heading" hx-get={`/imports/${summary.id}/progress`} hx-trigger="every 1s" hx-swap="outerHTML">
      <h2 id="progress-heading">{summary.status === 'queued' ? 'Waiting to start' : 'Importing'}</h2>
      <label for="import-progress">
        {doneRows.toLocaleString('en')} of {toDo.toLocaleString('en')} rows done
      </label>
      <progress id="import-progress" value={doneRows} max={toDo}>
        {toDo === 0 ? 0 : Math.floor((doneRows / toDo) * 100)}%
      </progress>
      <p class="muted">
        You may leave this page: the import goes on. <a href={`/imports/${summary.id}`}>Reload</a> to see how far it is.
      </p>
    </section>
  );
}

function ImportResultView(props: { summary: ImportSummary; result: ImportResult }) {
  const { summary, result } = props;
  const { created, skipped, failed, invalid } = summary.counts;
  return (
    <section id="import-status" aria-labelledby="result-heading">
      <h2 id="result-heading">Result</h2>
      <p role="status">
        {created.toLocaleString('en')} {created === 1 ? 'code' : 'codes'} created, {skipped.toLocaleString('en')} skipped,{' '}
        {failed.toLocaleString('en')} failed{invalid > 0 ? `, ${invalid.toLocaleString('en')} left out for errors` : ''}.
      </p>
      {created > 0 && (
        <>
          <h3>Downloads</h3>
          <ul class="downloads">
            <li>
              <a href={`/imports/${summary.id}/codes.csv`} download>
                CSV of the created codes
              </a>{' '}
              <span class="muted">with their short URLs</span>
            </li>
            <ImageZipDownloads importId={summary.id} />
          </ul>
          <PrintZipForm importId={summary.id} />
        </>
      )}
      {result.problems.length > 0 && (
        <>
          <h3>Rows not created</h3>
          <ProblemTable rows={result.problems} caption="Every row left out for an error or failed, by line" />
        </>
      )}
      <SkippedRows rows={result.skipped} count={skipped} level={3} />
      {result.created.length > 0 && (
        <>
          <h3>Created codes</h3>
          {created > result.created.length && (
            <p class="muted">
              The first {result.created.length.toLocaleString('en')} of {created.toLocaleString('en')}; the CSV has them all.
            </p>
          )}
          <TableRegion label="Created codes">
            <table>
              <thead>
                <tr>
                  <th scope="col" class="numeric">Line</th>
                  <th scope="col">Name</th>
                  <th scope="col">Type</th>
                  <th scope="col">Short URL</th>
                </tr>
              </thead>
              <tbody>
                {result.created.map((row) => (
                  <tr>
                    <td class="numeric">{row.line}</td>
                    <th scope="row">{row.code ? <a href={`/codes/${row.code.id}`}>{row.code.name}</a> : row.input.name}</th>
                    <td>{row.code?.type ?? row.input.type}</td>
                    <td class="mono">{row.code ? `${result.siteUrl}/r/${row.code.slug}` : ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
        </>
      )}
    </section>
  );
}
