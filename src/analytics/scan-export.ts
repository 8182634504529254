import { type RawBuilder, sql } from 'kysely';
import { liveScanCount } from '../codes/scan-counts.js';
import type { Db } from '../db/schema/index.js';
import { csvRow } from './csv.js';
import { oldestScanPages, type TimedScanRow } from '../db/scan-pages.js';
import { filterConditions } from './hour-rows.js';
import type { ScanFilters } from './scan-filters.js';
import { type AnalyticsScope, assertScope } from './scope.js';

/** Rows per query (and per chunk yielded): about 0.5 MB of CSV, a few milliseconds of database work. */
export const EXPORT_PAGE_SIZE = 5_000;
/** An account's codes are read this many at a time. */
const CODE_PAGE_SIZE = 1_000;

/**
 * New columns come last, so the columns people's sheets already read keep their places: the audience (issue 27),
 * then how the scan was routed (issue 28: the rule's id, the split's variant; empty when neither answered).
 */
export const CODE_EXPORT_COLUMNS = [
  'created_at', 'device', 'os', 'browser', 'destination_url', 'referrer_host', 'country', 'region', 'city', 'language', 'unique',
  'rule_id', 'variant',
] as const;
export const ACCOUNT_EXPORT_COLUMNS = ['code_id', 'code_name', ...CODE_EXPORT_COLUMNS] as const;

export interface ScanExportOptions {
  pageSize?: number;
  /** Only the scans matching all of these (the filtered page's export). */
  filters?: ScanFilters;
}

/** A scan as exported: scansOfCodes reads no `created_at`, only `at_us`. */
type ExportRow = Omit<TimedScanRow, 'created_at'>;

interface CodeToExport {
  id: string;
  name: string;
  /** The code's lifetime counter: at least its scans still stored (pruning only removes rows). */
  scans: number;
}

/**
 * The scope's human scans as CSV (a header, then one chunk of up to `pageSize` records per query), read by
 * keyset pagination so a code with millions of scans never sits in memory: pipe it with back-pressure, e.g.
 * `Readable.from(await exportScansCsv(db, scope)).pipe(res)`. The scope is checked before this resolves (404 for
 * another account's code), so a page can still answer with an error status.
 *
 * A code's scans come oldest first. An account's come code by code (oldest code first), each oldest first, with
 * the code's id and current name; deleted codes are included. The export is the scans that exist when it starts:
 * later ones are left for the next export, and scans pruned meanwhile (SCAN_RETENTION_DAYS) may be missing.
 */
export async function exportScansCsv(db: Db, scope: AnalyticsScope, options: ScanExportOptions = {}): Promise<AsyncIterable<string>> {
  await assertScope(db, scope);
  const pageSize = options.pageSize ?? EXPORT_PAGE_SIZE;
  const { rows } = await sql<{ max: number | null }>`select max(id) as max from scan_groups`.execute(db);
  const lastId = rows[0]?.max ?? 0;
  const read: PageReader = { db, lastId, pageSize, groupsWhere: filterConditions(options.filters ?? {}, 'g') };
  return scope.codeId !== undefined ? codeExport(read, scope.codeId) : accountExport(read, scope.accountId);
}

/** How every query of one export reads: the same groups, page size and filters. */
interface PageReader {
  db: Db;
  lastId: number;
  pageSize: number;
  /** ` and g.country = …` for the filters (group columns: a group's scans share them). */
  groupsWhere: RawBuilder<unknown>;
}

async function* codeExport(read: PageReader, codeId: string): AsyncGenerator<string> {
  yield csvRow(CODE_EXPORT_COLUMNS);
  for await (const rows of codeScanPages(read, codeId)) yield rows.map((row) => scanRecord(row)).join('');
}

async function* accountExport(read: PageReader, accountId: string): AsyncGenerator<string> {
  const { db, pageSize } = read;
  yield csvRow(ACCOUNT_EXPORT_COLUMNS);
  let afterCodeId = '';
  for (;;) {
    const codes = await db
      .selectFrom('qr_codes')
      .select(['id', 'name', liveScanCount.as('scans')])
      .where('account_id', '=', accountId)
      .where('id', '>', afterCodeId)
      .orderBy('id')
      .limit(CODE_PAGE_SIZE)
      .execute();
    for (const group of groupCodes(codes, pageSize)) {
      const byId = new Map(group.map((code) => [code.id, code]));
      const record = (row: ExportRow) => scanRecord(row, byId.get(row.qr_code_id));
      if (group.length === 1) {
        for await (const rows of codeScanPages(read, group[0]!.id)) yield rows.map(record).join('');
        continue;
      }
      const rows = await scansOfCodes(read, [...byId.keys()], pageSize + 1);
      if (rows.length <= pageSize) {
        if (rows.length > 0) yield rows.map(record).join('');
        continue;
      }
      // The counters promised fewer rows than there are (scans written by hand?): page code by code instead.
      for (const code of group) {
        for await (const page of codeScanPages(read, code.id)) yield page.map(record).join('');
      }
    }
    if (codes.length < CODE_PAGE_SIZE) return;
    afterCodeId = codes[codes.length - 1]!.id;
  }
}

/**
 * Consecutive codes whose counters add up to at most `pageSize`, so one query reads many small codes; a code
 * with more scans is a group of its own and is paged.
 */
export function groupCodes<T extends { scans: number }>(codes: readonly T[], pageSize: number): T[][] {
  const groups: T[][] = [];
  let current: T[] = [];
  let sum = 0;
  for (const code of codes) {
    if (current.length > 0 && sum + code.scans > pageSize) {
      groups.push(current);
      current = [];
      sum = 0;
    }
    current.push(code);
    sum += code.scans;
  }
  if (current.length > 0) groups.push(current);
  return groups;
}

/**
 * One code's scans in groups up to `lastId`, oldest first, `pageSize` per query, walking scan_groups_code_newest
 * backwards (src/db/scan-pages.ts).
 */
async function* codeScanPages(read: PageReader, codeId: string): AsyncGenerator<ExportRow[]> {
  for await (const rows of oldestScanPages(read.db, codeId, read.lastId, read.pageSize, read.groupsWhere)) {
    if (rows.length > 0) yield rows;
  }
}

/** The scans of a few codes whose counters add up to less than a page, code by code, each oldest first. */
async function scansOfCodes(read: PageReader, codeIds: string[], limit: number): Promise<ExportRow[]> {
  const { rows } = await sql<ExportRow>`
    select group_id, position, qr_code_id, (extract(epoch from created_at) * 1000000)::bigint as at_us, device, os,
           browser, destination_url, referrer_host, country, region, city, language, is_unique, rule_id, variant
    from scans g
    where qr_code_id = any(${codeIds}::text[]) and group_id <= ${read.lastId} ${read.groupsWhere}
    order by qr_code_id, created_at, group_id, position
    limit ${limit}`.execute(read.db);
  return rows;
}

function scanRecord(row: ExportRow, code?: CodeToExport): string {
  const createdAt = new Date(Math.floor(row.at_us / 1000)).toISOString();
  const unique = row.is_unique === null ? null : String(row.is_unique);
  const scan = [createdAt, row.device, row.os, row.browser, row.destination_url, row.referrer_host, row.country, row.region,
    row.city, row.language, unique, row.rule_id, row.variant === null ? null : String(row.variant)];
  return csvRow(code ? [code.id, code.name, ...scan] : scan);
}
