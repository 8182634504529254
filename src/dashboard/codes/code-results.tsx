import type { ListQuery } from './list-query.js';
import { numberFormat, shortened, type ShownCode } from './code-row.js';
import { typeLabel } from './type-forms/index.js';
import { kindOf } from '../../codes/types/index.js';
import { Moment } from '../shared/moment.js';
import { TableRegion } from '../shared/table-region.js';

export interface CodeResultsData {
  codes: ShownCode[];
  count: { count: number; capped: boolean };
  pager: { previous?: string; next?: string };
}

/**
 * The list below the search form: what htmx swaps in when the search changes (the same markup as the page's,
 * so the page without JavaScript and the page with it show the same thing).
 */
export function CodeResults(props: { query: ListQuery; data: CodeResultsData }) {
  const { query, data } = props;
  const searching = query.q.trim() !== '' || query.state !== 'all';
  const repeated = repeatedNames(data.codes);
  return (
    <div id="code-results">
      <p role="status" class="muted">
        {countSentence(data.count, searching)}
      </p>
      {data.codes.length > 0 ? (
        /*
         * Six columns fit a laptop (the short URL may break before its slug, a destination anywhere); on a phone
         * app.css stacks each code's cells under its name, each named by data-label, so nothing is out of sight.
         */
        <TableRegion label="Codes">
          <table class="code-table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Type</th>
                <th scope="col">Short URL</th>
                <th scope="col">Destination</th>
                <th scope="col" class="numeric">Scans</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {data.codes.map((code) => (
                <tr>
                  <th scope="row">
                    <a href={`/codes/${code.id}`}>{code.name}</a>
                    {repeated.has(code.name.toLowerCase()) && (
                      // Names need not be unique: codes that share one on this page are told apart by age too.
                      <small class="muted namesake-date">
                        created <Moment at={code.createdAt} />
                      </small>
                    )}
                  </th>
                  <td data-label="Type">{typeLabel(code.type)}</td>
                  <td data-label="Short URL" class="mono">
                    <ShortUrl url={code.shortUrl} />
                  </td>
                  <td data-label="Destination" class="destination">
                    {/* A page type's destination is its own short URL: saying so tells more than repeating it. */}
                    {kindOf(code.type) === 'page' ? <span class="muted">Landing page</span> : shortened(code.destinationUrl)}
                  </td>
                  <td data-label="Scans" class="numeric">
                    {numberFormat.format(code.scanCount)}
                  </td>
                  <td data-label="State">{code.active ? 'Active' : <span class="state-paused">Paused</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      ) : (
        !searching && (
          <p>
            <a href="/codes/new">Create your first code</a>, or create codes from your backend with the API.
          </p>
        )
      )}
      {(data.pager.previous || data.pager.next) && (
        <nav aria-label="Pages of codes">
          <ul class="pager">
            <li>{data.pager.previous && <a href={data.pager.previous}>Previous page</a>}</li>
            <li>{data.pager.next && <a href={data.pager.next}>Next page</a>}</li>
          </ul>
        </nav>
      )}
    </div>
  );
}

/** Names (letter case aside) that more than one of these codes has. */
function repeatedNames(codes: ReadonlyArray<{ name: string }>): Set<string> {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const { name } of codes) {
    const key = name.toLowerCase();
    if (seen.has(key)) repeated.add(key);
    seen.add(key);
  }
  return repeated;
}

/** The short URL with a line break allowed before its slug only (a slug broken in two reads as two tokens). */
function ShortUrl(props: { url: string }) {
  const cut = props.url.lastIndexOf('/') + 1;
  return (
    <span>
      {props.url.slice(0, cut)}
      <wbr />
      {props.url.slice(cut)}
    </span>
  );
}

function countSentence(count: CodeResultsData['count'], searching: boolean): string {
  const n = `${numberFormat.format(count.count)}${count.capped ? '+' : ''}`;
  if (!searching) return count.count === 0 ? 'No codes yet.' : `${n} ${count.count === 1 ? 'code' : 'codes'}, newest first.`;
  if (count.count === 0) return 'No codes match.';
  return `${n} ${count.count === 1 ? 'code matches' : 'codes match'}, newest first.`;
}
