import type { Writable } from 'node:stream';
import { type SelectQueryBuilder, sql } from 'kysely';
import { keysetPages } from '../db/keyset-pages.js';
import { liveFilesOf } from '../db/live-files.js';
import { oldestScanPages } from '../db/scan-pages.js';
import type { Database } from '../db/schema/index.js';
import { AccountNotFoundError } from './account-service.js';
import { ZipWriter } from './zip-writer.js';

/**
 * Everything an account holds, as one ZIP written to `out` while it is read (docs/dashboard/account.md, "Your
 * data: export and erasure"). Every table is read in keyset pages of `pageSize` rows (no long transaction, no
 * table in memory) and written as NDJSON, one row per line with the database's own column names: a row keeps its
 * types (nested content and designs stay JSON, null stays apart from empty), and a line is complete as soon as it
 * is written, which CSV's quoting of nested JSON would not give. Stored files are added under their own names.
 *
 * Never exported: password hashes, API key hashes, session and invitation tokens, the webhook's signing secrets
 * (the owner can rotate and read a new one), and internal bookkeeping (rollups, which are totals of the scans).
 */
export interface ExportOptions {
  /** Rows read per query. */
  pageSize?: number;
  /** The site URL short URLs are made from, so each code says what is printed on it. */
  siteUrl?: string;
  /** Scans per scans-NNNN.ndjson part (SCANS_PER_PART but in tests). */
  scansPerPart?: number;
  /** Told of every page read (tests check that no read is larger than a page). */
  onPage?: (entry: string, rows: number) => void;
}

export interface ExportSummary {
  /** Rows (or files) per ZIP entry. */
  entries: Record<string, number>;
}

const DEFAULT_PAGE_SIZE = 1_000;

/**
 * Scans per scans-NNNN.ndjson. A ZIP entry holds at most 4 GiB (the ZIP writer has no ZIP64, src/accounts/zip-writer.ts);
 * a scan's line is a few hundred bytes, so a part of a million stays far below it whatever the account's size.
 */
export const SCANS_PER_PART = 1_000_000;

export const EXPORT_README = `qroute account export

Each .ndjson file holds one JSON object per line, one line per row, with the column names qroute stores.
Times are ISO 8601 in UTC. files/<file id>/<name> are the stored files themselves, described in files.ndjson.

account.json             the account, its plan and its landing pages' branding
people.ndjson            the people of the account (never their password hashes)
invitations.ndjson       invitations sent (never their tokens)
api-keys.ndjson          API keys by name, prefix and last four characters (never the keys or their hashes)
codes.ndjson             every code, deleted ones included, with its content, design and short URL
destination-changes.ndjson  every change of a code's destination, who made it and when
design-templates.ndjson  saved designs
scans-0001.ndjson, ...   every scan of every code, one line per scan, a million scans per file
files.ndjson, files/     uploaded files (logos, PDFs, images, audio, video)
webhook.json             the webhook's address and state (never its signing secrets)
webhook-deliveries.ndjson  every webhook delivery with the exact body sent
webhook-attempts.ndjson  every attempt of every delivery and what the receiver answered
imports.ndjson, import-rows.ndjson  CSV imports and each of their rows
`;

/** Writes the account's ZIP to `out`; throws AccountNotFoundError before writing anything for an unknown account. */
export async function exportAccount(db: Database, accountId: string, out: Writable, options: ExportOptions = {}): Promise<ExportSummary> {
  const account = await db.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirst();
  if (!account) throw new AccountNotFoundError(accountId);
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  const entries: Record<string, number> = {};
  const zip = new ZipWriter(out);
  const pages = new Pages(pageSize, options.onPage);

  /** An NDJSON entry of every row the pages give, counted. */
  const table = async (name: string, rows: AsyncIterable<object>) => {
    entries[name] = 0;
    await zip.addText(name, lines(rows, () => entries[name]!++));
  };
  /** An NDJSON entry of every row a query selects, read in pages by id. */
  const tableOf = <DB, TB extends keyof DB, Row extends { id: unknown }>(name: string, query: SelectQueryBuilder<DB, TB, Row>) => table(name, pages.rows(name, query, 'id'));

  await zip.addText('README.txt', [EXPORT_README]);
  await zip.addText('account.json', [`${JSON.stringify(account, null, 2)}\n`]);
  entries['account.json'] = 1;

  await tableOf('people.ndjson', db.selectFrom('users').select(['id', 'email', 'role', 'created_at', 'password_changed_at']).where('account_id', '=', accountId));
  await tableOf(
    'invitations.ndjson',
    db.selectFrom('invitations').select(['id', 'email', 'role', 'invited_by_user_id', 'created_at', 'expires_at', 'accepted_at', 'revoked_at']).where('account_id', '=', accountId),
  );
  await tableOf(
    'api-keys.ndjson',
    db.selectFrom('api_keys').select(['id', 'name', 'prefix', 'last_four', 'created_at', 'last_used_at', 'revoked_at', 'created_by_user_id']).where('account_id', '=', accountId),
  );
  const siteUrl = options.siteUrl?.replace(/\/$/, '');
  await table('codes.ndjson', withShortUrl(siteUrl, pages.rows('codes.ndjson', db.selectFrom('qr_codes').selectAll().where('account_id', '=', accountId), 'id')));
  await tableOf('destination-changes.ndjson', db.selectFrom('qr_code_destination_changes').selectAll().where('qr_code_id', 'in', codesOf(db, accountId)));
  await tableOf('design-templates.ndjson', db.selectFrom('design_templates').selectAll().where('account_id', '=', accountId));
  const scans = scansOf(db, accountId, pages)[Symbol.asyncIterator]();
  let scan = await scans.next();
  const upTo = async function* (count: number) {
    for (let taken = 0; taken < count && !scan.done; taken++) {
      yield scan.value;
      scan = await scans.next();
    }
  };
  // The first part is written even when there are no scans, so the file is always there to read.
  for (let part = 1; part === 1 || !scan.done; part++) {
    await table(`scans-${String(part).padStart(4, '0')}.ndjson`, upTo(options.scansPerPart ?? SCANS_PER_PART));
  }

  // The account's stored files (not deleted, bytes all written), read twice: described first, then their bytes.
  const storedFiles = (entry: string) => pages.rows(entry, liveFilesOf(db, accountId).selectAll().where('sha256', '!=', ''), 'id');
  await table('files.ndjson', storedFiles('files.ndjson'));
  entries['files/'] = 0;
  for await (const file of storedFiles('files/')) {
    await zip.addBytes(`files/${file.id}/${safeName(file.original_name)}`, chunksOf(db, file.id));
    entries['files/']++;
  }

  const webhook = await db
    .selectFrom('webhook_endpoints')
    .select(['url', 'consecutive_failures', 'disabled_at', 'disabled_reason', 'created_at', 'updated_at'])
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  await zip.addText('webhook.json', [`${JSON.stringify(webhook ?? null, null, 2)}\n`]);
  entries['webhook.json'] = webhook ? 1 : 0;
  await tableOf(
    'webhook-deliveries.ndjson',
    db
      .selectFrom('webhook_deliveries')
      .select(['id', 'qr_code_id', 'event', 'body', 'status', 'attempt_count', 'next_attempt_at', 'last_attempt_at', 'last_status_code', 'last_error', 'created_at', 'completed_at'])
      .where('account_id', '=', accountId),
  );
  await tableOf(
    'webhook-attempts.ndjson',
    db.selectFrom('webhook_attempts').selectAll().where('delivery_id', 'in', db.selectFrom('webhook_deliveries').select('id').where('account_id', '=', accountId)),
  );
  await tableOf('imports.ndjson', db.selectFrom('imports').selectAll().where('account_id', '=', accountId));
  await table('import-rows.ndjson', importRowsOf(db, accountId, pages));

  await zip.end();
  return { entries };
}

/** Rows of queries read in keyset pages (src/db/keyset-pages.ts), each page told to `onPage` under its entry's name. */
class Pages {
  constructor(
    readonly pageSize: number,
    readonly onPage: ExportOptions['onPage'],
  ) {}

  async *rows<DB, TB extends keyof DB, Row, Key extends keyof Row & string>(entry: string, query: SelectQueryBuilder<DB, TB, Row>, key: Key): AsyncGenerator<Row> {
    for await (const page of keysetPages(query, key, this.pageSize)) {
      this.onPage?.(entry, page.length);
      yield* page;
    }
  }
}

function codesOf(db: Database, accountId: string) {
  return db.selectFrom('qr_codes').select('id').where('account_id', '=', accountId);
}

/**
 * Every column of the `scans` view (one row per scan), code by code, each code's scans oldest first in pages of
 * `pageSize` scans (src/db/scan-pages.ts, as the CSV export pages them): a page of groups could hold 500 times as many
 * scans. Scans recorded after the export began are left for the next one.
 */
async function* scansOf(db: Database, accountId: string, pages: Pages): AsyncGenerator<object> {
  const { rows } = await sql<{ id: number }>`select coalesce(max(id), 0) as id from scan_groups`.execute(db);
  const lastGroupId = rows[0]!.id;
  for await (const code of pages.rows('scans', codesOf(db, accountId), 'id')) {
    for await (const page of oldestScanPages(db, code.id, lastGroupId, pages.pageSize)) {
      pages.onPage?.('scans', page.length);
      for (const { at_us: _at, ...scan } of page) yield scan;
    }
  }
}

/** Each import's rows by line. */
async function* importRowsOf(db: Database, accountId: string, pages: Pages): AsyncGenerator<object> {
  for await (const job of pages.rows('import-rows.ndjson', db.selectFrom('imports').select('id').where('account_id', '=', accountId), 'id')) {
    yield* pages.rows('import-rows.ndjson', db.selectFrom('import_rows').selectAll().where('import_id', '=', job.id), 'line');
  }
}

/** A stored file's bytes, one chunk (256 KiB) at a time. */
async function* chunksOf(db: Database, fileId: string): AsyncGenerator<Buffer> {
  for (let index = 0; ; index++) {
    const chunk = await db.selectFrom('file_chunks').select('data').where('file_id', '=', fileId).where('index', '=', index).executeTakeFirst();
    if (!chunk) return;
    yield chunk.data;
  }
}

async function* withShortUrl(siteUrl: string | undefined, codes: AsyncIterable<{ slug: string }>): AsyncGenerator<object> {
  for await (const code of codes) yield siteUrl === undefined ? code : { ...code, short_url: `${siteUrl}/r/${code.slug}` };
}

async function* lines(rows: AsyncIterable<object>, counted: () => void): AsyncGenerator<string> {
  for await (const row of rows) {
    counted();
    yield `${JSON.stringify(row)}\n`;
  }
}

/** A name people's file managers accept: no folders, no control characters, not empty. */
export function safeName(name: string): string {
  const cleaned = [...name.replace(/[\u0000-\u001f\u007f/\\:*?"<>|]+/g, '-').trim()].slice(0, 120).join('');
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? 'file' : cleaned;
}
