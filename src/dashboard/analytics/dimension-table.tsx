import { TableRegion } from '../shared/table-region.js';
import { count, share } from './format.js';

export interface DimensionRow {
  /** What the row counts, as people read it ("Germany", "German", "Munich"). */
  name: string;
  /** More columns after the name, one text each (a city's region and country). */
  details?: readonly string[];
  /** The page filtered to this value; a row without one is not a link (Unknown, Other). */
  href?: string;
  scans: number;
  uniques: number;
  /** The value the page is filtered to. */
  current?: boolean;
}

export interface DimensionTableProps {
  /** The table's caption and the name column's heading ("Country"). */
  caption: string;
  /** Headings of `details` columns, in order ("Region", "Country"). */
  detailColumns?: readonly string[];
  rows: readonly DimensionRow[];
  /** The whole the shares are of; the rows' sum when not given (give it when the rows are the top few). */
  total?: number;
  /** What to say when there are no rows. */
  empty?: string;
}

/**
 * One breakdown of the period's scans (countries, cities, languages, referrers): scans, unique scans and each
 * value's share of all scans, each value a link that filters the page to it. It scrolls sideways inside its own
 * labelled box on a phone rather than widening the page.
 */
export function DimensionTable(props: DimensionTableProps) {
  const detailColumns = props.detailColumns ?? [];
  if (props.rows.length === 0) return <p class="muted">{props.empty ?? `No scans with a known ${props.caption.toLowerCase()} in this range.`}</p>;
  const total = props.total ?? props.rows.reduce((sum, row) => sum + row.scans, 0);
  return (
    <TableRegion label={`${props.caption} table`}>
      <table class="dimension-table">
        <caption>{props.caption}</caption>
        <thead>
          <tr>
            <th scope="col">{props.caption}</th>
            {detailColumns.map((column) => (
              <th scope="col">{column}</th>
            ))}
            <th scope="col" class="numeric">Scans</th>
            <th scope="col" class="numeric">Unique</th>
            <th scope="col" class="numeric">Share</th>
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr class={row.current ? 'current' : undefined}>
              <th scope="row">
                {row.href ? (
                  <a href={row.href} aria-current={row.current ? 'true' : undefined}>
                    {row.name}
                  </a>
                ) : (
                  row.name
                )}
              </th>
              {detailColumns.map((_, index) => (
                <td>{row.details?.[index] ?? ''}</td>
              ))}
              <td class="numeric">{count(row.scans)}</td>
              <td class="numeric">{count(row.uniques)}</td>
              <td class="numeric">{share(row.scans, total)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}
