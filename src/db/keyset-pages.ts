import { type SelectQueryBuilder, sql } from 'kysely';

/**
 * All the rows a query selects, in pages of `pageSize` ordered by `key`, a column unique among them that the query
 * also selects (an id, an import row's line): each page is a query of its own continuing after the last key of the
 * one before, up to a short page (which may be empty), as oldestScanPages (scan-pages.ts) pages a code's scans. No
 * offset that reads again what came before, no transaction held while the caller writes a page out: rows inserted
 * meanwhile with a larger key are read too, rows deleted before their page is read are not.
 */
export async function* keysetPages<DB, TB extends keyof DB, Row, Key extends keyof Row & string>(
  query: SelectQueryBuilder<DB, TB, Row>,
  key: Key,
  pageSize: number,
): AsyncGenerator<Row[]> {
  let after: Row[Key] | undefined;
  for (;;) {
    const page: Row[] = await query
      .$if(after !== undefined, (q) => q.where(sql<boolean>`${sql.ref(key)} > ${after}`))
      .orderBy(sql.ref(key))
      .limit(pageSize)
      .execute();
    yield page;
    if (page.length < pageSize) return;
    after = page[page.length - 1]![key];
  }
}
