import { sql } from 'kysely';
import type { Db } from '../db/schema/index.js';
import type { ImportRowStatus, ImportStatus } from '../db/schema/imports.js';
import { errors } from '../errors.js';
import { idPattern } from '../ids.js';
import type { CellProblem } from './columns.js';

/** A row as the dry run checked it, stored so the job creates exactly what the report showed. */
export interface RowInput {
  type: string;
  name: string;
  /** Only on rows that passed the type's schema. */
  content?: unknown;
  externalId?: string;
  /** The template's name as written, and the id it named at the dry run. */
  design?: string;
  designTemplateId?: string;
}

export interface ImportSummary {
  id: string;
  fileName: string;
  status: ImportStatus;
  rowCount: number;
  createdAt: Date;
  confirmedAt: Date | null;
  finishedAt: Date | null;
  counts: Record<ImportRowStatus, number>;
}

export interface ImportRow {
  line: number;
  status: ImportRowStatus;
  input: RowInput;
  problems: CellProblem[];
  code: { id: string; name: string; type: string; slug: string } | null;
}

const IMPORT_ID = idPattern('imp');

/** The account's import `id` with its row counts; another account's (or a malformed id) is a 404. */
export async function getImport(db: Db, accountId: string, id: string): Promise<ImportSummary> {
  if (!IMPORT_ID.test(id)) throw errors.notFound('No import with this id.');
  const row = await db.selectFrom('imports').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
  if (!row) throw errors.notFound('No import with this id.');
  const counts = await db
    .selectFrom('import_rows')
    .select(['status', sql<number>`count(*)::int`.as('n')])
    .where('import_id', '=', id)
    .groupBy('status')
    .execute();
  return {
    id: row.id,
    fileName: row.file_name,
    status: row.status,
    rowCount: row.row_count,
    createdAt: row.created_at,
    confirmedAt: row.confirmed_at,
    finishedAt: row.finished_at,
    counts: { invalid: 0, pending: 0, created: 0, skipped: 0, failed: 0, ...Object.fromEntries(counts.map((c) => [c.status, c.n])) },
  };
}

/** Rows of one import in the given states, by line; `limit` bounds what a page shows. */
export async function listImportRows(db: Db, importId: string, statuses: ImportRowStatus[], limit?: number): Promise<ImportRow[]> {
  let query = db
    .selectFrom('import_rows')
    .leftJoin('qr_codes', 'qr_codes.id', 'import_rows.qr_code_id')
    .select([
      'import_rows.line',
      'import_rows.status',
      'import_rows.input',
      'import_rows.problems',
      'qr_codes.id as code_id',
      'qr_codes.name as code_name',
      'qr_codes.type as code_type',
      'qr_codes.slug as code_slug',
    ])
    .where('import_rows.import_id', '=', importId)
    .where('import_rows.status', 'in', statuses)
    .orderBy('import_rows.line');
  if (limit !== undefined) query = query.limit(limit);
  const rows = await query.execute();
  return rows.map((row) => ({
    line: row.line,
    status: row.status,
    input: row.input as RowInput,
    problems: (row.problems as CellProblem[] | null) ?? [],
    code: row.code_id ? { id: row.code_id, name: row.code_name!, type: row.code_type!, slug: row.code_slug! } : null,
  }));
}

/** The account's imports, newest first. */
export async function listImports(db: Db, accountId: string, limit = 50) {
  return db
    .selectFrom('imports')
    .select(['id', 'file_name', 'status', 'row_count', 'created_at', 'finished_at'])
    .where('account_id', '=', accountId)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
}
