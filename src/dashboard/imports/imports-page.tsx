import { CODE_TYPE_NAMES } from '../../codes/types/index.js';
import { MAX_IMPORT_BYTES, MAX_IMPORT_ROWS } from '../../imports/read-csv.js';
import { Flash, Layout } from '../shared/layout.js';
import type { PageContext } from '../shared/context.js';
import { uploadAction } from '../shared/csrf.js';
import { Moment } from '../shared/moment.js';
import { MAX_ZIP_BYTES } from '../../imports/import-zip.js';
import { MIXED_TEMPLATE_FILE } from '../../imports/templates.js';
import { TableRegion } from '../shared/table-region.js';

export interface PastImport {
  id: string;
  file_name: string;
  status: string;
  row_count: number;
  created_at: Date;
}

const STATUS_LABELS: Record<string, string> = {
  checked: 'Checked, waiting for confirmation',
  queued: 'Waiting to start',
  running: 'Importing',
  done: 'Done',
  cancelled: 'Cancelled',
};

export function statusLabel(status: string): string {
  return STATUS_LABELS[status] ?? status;
}

/** GET /imports: upload a CSV (or a ZIP of a CSV and its files) for a dry run, the templates, the export, and past imports. */
export function ImportsPage(props: { context: PageContext; imports: PastImport[]; refusal?: string; refusalCode?: string }) {
  const { context } = props;
  return (
    <Layout context={context} title="Import codes">
      <h1>Import codes</h1>
      {props.refusal && (
        <Flash kind="error">
          {props.refusal}
          {props.refusalCode && <span class="muted"> (code {props.refusalCode})</span>}
        </Flash>
      )}
      <article aria-labelledby="upload-heading">
        <h2 id="upload-heading">Upload a CSV file, or a ZIP with its files</h2>
        <p>
          Up to {MAX_IMPORT_ROWS.toLocaleString('en')} rows and {MAX_IMPORT_BYTES / 1024 / 1024} MB, separated by commas or semicolons, saved as
          UTF-8 (in Excel: “CSV UTF-8”). The file is checked first: you see what would be created and every error, and nothing is created until
          you confirm.
        </p>
        <p>
          With files (PDFs, images, MP3s, videos, contact photos): upload a ZIP of up to {MAX_ZIP_BYTES / 1024 / 1024} MB holding the CSV and the
          files, and name each file in its column by its file name (<code>menu.pdf</code>, or <code>photos/ada.jpg</code> in a folder).
        </p>
        <form method="post" action={uploadAction('/imports', context.csrfToken)} enctype="multipart/form-data">
          <label for="import-file">CSV or ZIP file</label>
          <input id="import-file" name="file" type="file" accept=".csv,text/csv,.zip,application/zip" required />
          <button type="submit" class="fit-button">
            Check the file
          </button>
        </form>
      </article>
      <article aria-labelledby="format-heading">
        <h2 id="format-heading">The format</h2>
        <p>
          Columns <code>type</code> and <code>name</code> are required; <code>externalId</code> (your own key: a row whose externalId already names a
          code is skipped, so importing a file twice creates nothing new) and <code>design</code> (the name of a saved design) are optional. Then
          the columns of each type; a file may mix types, leaving empty the cells of columns a row's type does not have. Lists (phones, emails,
          image files) are separated by <code>|</code>; opening hours are one column per weekday like <code>08:00-12:00, 13:00-18:00</code>;
          files are named by their name in the ZIP, or by the id of a file already uploaded to this account (<code>fil_…</code>).
        </p>
        <p>
          <a href={`/imports/templates/${MIXED_TEMPLATE_FILE}`} download>
            Template for all types
          </a>{' '}
          <span class="muted">every column of every type, with example rows of several types (the same columns as the export)</span>
        </p>
        <p>Or a template with only the columns of one type, and one example row:</p>
        <ul class="import-templates">
          {CODE_TYPE_NAMES.map((type) => (
            <li>
              <a href={`/imports/templates/${type}.csv`} download>
                {type}
              </a>
            </li>
          ))}
        </ul>
        <p>
          <a href="/imports/export.csv" download>
            Export all codes as CSV
          </a>{' '}
          <span class="muted">in the same format, to edit and import elsewhere</span>
        </p>
      </article>
      <h2>Past imports</h2>
      {props.imports.length === 0 ? (
        <p class="muted">No imports yet.</p>
      ) : (
        <TableRegion label="Past imports">
          <table>
            <thead>
              <tr>
                <th scope="col">File</th>
                <th scope="col">Uploaded</th>
                <th scope="col" class="numeric">Rows</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {props.imports.map((entry) => (
                <tr>
                  <th scope="row">
                    <a href={`/imports/${entry.id}`}>{entry.file_name}</a>
                  </th>
                  <td>
                    <Moment at={entry.created_at} />
                  </td>
                  <td class="numeric">{entry.row_count.toLocaleString('en')}</td>
                  <td>{statusLabel(entry.status)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
    </Layout>
  );
}
