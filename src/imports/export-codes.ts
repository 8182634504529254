import { stringify } from 'csv-stringify/sync';
import { isCodeTypeName } from '../codes/types/index.js';
import { liveCodesOf } from '../db/live-codes.js';
import type { Db } from '../db/schema/index.js';
import { ALL_COLUMNS, cellsFromContent } from './columns.js';
import { toSpreadsheetCell } from './spreadsheet-cells.js';

const PAGE = 500;

/**
 * All the account's live codes in the import's format (src/imports/columns.ts), as CSV chunks: one query per 500
 * codes, by id, so an export of any size is streamed and never held in memory. Importing the file into an account
 * recreates the same content; the `design` column names each code's saved design (a code's own design is not
 * part of the format).
 */
export async function* exportCodesCsv(db: Db, accountId: string): AsyncGenerator<string> {
  // A BOM, so Excel opens the UTF-8 file as UTF-8; the import accepts it.
  yield `\uFEFF${stringify([ALL_COLUMNS as string[]], { record_delimiter: 'windows' })}`;
  let after = '';
  for (;;) {
    const rows = await liveCodesOf(db, accountId)
      .leftJoin('design_templates', 'design_templates.id', 'qr_codes.design_template_id')
      .select([
        'qr_codes.id',
        'qr_codes.type',
        'qr_codes.name',
        'qr_codes.external_id',
        'qr_codes.content',
        'qr_codes.destination_url',
        'design_templates.name as design',
      ])
      .where('qr_codes.id', '>', after)
      .orderBy('qr_codes.id')
      .limit(PAGE)
      .execute();
    if (rows.length === 0) return;
    yield stringify(
      rows.map((row) => {
        const type = isCodeTypeName(row.type) ? row.type : 'URL';
        // A URL code's destination is `destination_url` (the API changes only that; codes made through the API
        // have no content at all), so the export reads it from there, never from a stale copy in `content`.
        const content = type === 'URL' ? { url: row.destination_url } : (row.content ?? {});
        const cells: Record<string, string> = { type, name: row.name, externalId: row.external_id ?? '', design: row.design ?? '', ...cellsFromContent(type, content) };
        return ALL_COLUMNS.map((column) => toSpreadsheetCell(cells[column] ?? ''));
      }),
      { record_delimiter: 'windows' },
    );
    after = rows[rows.length - 1]!.id;
  }
}
