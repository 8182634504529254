import { stringify } from 'csv-stringify/sync';
import { toSpreadsheetCell } from './spreadsheet-cells.js';
import { isLiveCode } from '../db/live-codes.js';
import type { Db } from '../db/schema/index.js';

const PAGE = 500;

export interface CreatedCode {
  line: number;
  externalId: string | null;
  id: string;
  name: string;
  type: string;
  slug: string;
}

/** An import's created codes that are still live, by line, a page at a time (for the CSV and the ZIP). */
export async function* createdCodePages(db: Db, importId: string): AsyncGenerator<CreatedCode[]> {
  let afterLine = 0;
  for (;;) {
    const rows = await db
      .selectFrom('import_rows')
      .innerJoin('qr_codes', 'qr_codes.id', 'import_rows.qr_code_id')
      .select(['import_rows.line', 'qr_codes.external_id', 'qr_codes.id', 'qr_codes.name', 'qr_codes.type', 'qr_codes.slug'])
      .where('import_rows.import_id', '=', importId)
      .where('import_rows.status', '=', 'created')
      .where('import_rows.line', '>', afterLine)
      .where(isLiveCode)
      .orderBy('import_rows.line')
      .limit(PAGE)
      .execute();
    if (rows.length === 0) return;
    yield rows.map((row) => ({ line: row.line, externalId: row.external_id, id: row.id, name: row.name, type: row.type, slug: row.slug }));
    afterLine = rows[rows.length - 1]!.line;
  }
}

/** The created codes with their short URLs, as CSV chunks (a BOM first, so Excel reads UTF-8). */
export async function* createdCodesCsv(db: Db, importId: string, siteUrl: string): AsyncGenerator<string> {
  yield `\uFEFF${stringify([['line', 'externalId', 'type', 'name', 'shortUrl', 'codeId']], { record_delimiter: 'windows' })}`;
  for await (const page of createdCodePages(db, importId)) {
    yield stringify(
      page.map((code) => [String(code.line), code.externalId ?? '', code.type, code.name, `${siteUrl}/r/${code.slug}`, code.id].map(toSpreadsheetCell)),
      { record_delimiter: 'windows' },
    );
  }
}
