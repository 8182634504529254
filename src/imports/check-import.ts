import { parseCodeName } from '../codes/code-input.js';
import { sql } from 'kysely';
import { checkFileReferences, fileReferencesOf } from '../codes/file-references.js';
import { CODE_TYPE_NAMES, CODE_TYPES, type CodeTypeName, isCodeTypeName } from '../codes/types/index.js';
import { liveCodesOf } from '../db/live-codes.js';
import { liveFilesOf } from '../db/live-files.js';
import type { Db } from '../db/schema/index.js';
import { inTransaction } from '../db/transaction.js';
import type { ImportRowStatus } from '../db/schema/imports.js';
import { newId } from '../ids.js';
import type { FileKind } from '../db/schema/files.js';
import { ALL_COLUMNS, type CellProblem, columnOfProblem, contentFromCells, FILE_COLUMNS, LIST_SEPARATOR } from './columns.js';
import { problemValue } from './problem-values.js';
import { readCsv } from './read-csv.js';
import type { RowInput } from './import-rows.js';

/** The database's bound on `qr_codes.external_id` (characters). */
export const MAX_EXTERNAL_ID_LENGTH = 200;
const INSERT_CHUNK = 500;

/** A refusal of the whole file: one sentence, and a stable code where the refusal has one (a ZIP's: import-zip.ts). */
export type CheckResult = { ok: true; importId: string } | { ok: false; message: string; code?: string };

/** A file a cell names, stored: its id, or why it was refused (with the file store's code). */
export type NamedFile = { id: string } | { problem: string; code?: string };

/** Where file columns' names lead when the CSV came with its files (a ZIP: zip-file-store.ts). */
export interface FileNames {
  resolve(kind: FileKind, reference: string): Promise<NamedFile>;
}


interface CheckedRow {
  line: number;
  status: ImportRowStatus;
  input: RowInput;
  problems: CellProblem[];
}

/**
 * The dry run: reads the file, checks every row exactly as creating it would (the type's schema, the name rule,
 * file references, the design template, externalId), and stores the import as `checked` with every row and its
 * problems. Nothing is created. A file that cannot be read at all (not UTF-8, not CSV, unknown columns, too many
 * rows) is refused with one sentence and nothing is stored.
 */
export async function checkImport(
  db: Db,
  input: { accountId: string; userId: string; fileName: string; bytes: Buffer; files?: FileNames },
): Promise<CheckResult> {
  const csv = readCsv(input.bytes);
  if (!csv.ok) return csv;
  const headerProblem = checkHeader(csv.header);
  if (headerProblem) return { ok: false, message: headerProblem };

  const templates = await templateIds(db, input.accountId);
  const rows: CheckedRow[] = [];
  for (const { line, cells } of csv.rows) rows.push(await checkRow(db, input.accountId, templates, csv.header, line, cells, input.files));
  markDuplicateExternalIds(rows);
  await markExisting(db, input.accountId, rows);

  const importId = newId('imp');
  await inTransaction(db, async (trx) => {
    await relockFiles(trx, input.accountId, rows);
    await trx
      .insertInto('imports')
      .values({ id: importId, account_id: input.accountId, created_by_user_id: input.userId, file_name: input.fileName.slice(0, 200), status: 'checked', row_count: rows.length })
      .execute();
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      await trx
        .insertInto('import_rows')
        .values(
          rows.slice(i, i + INSERT_CHUNK).map((row) => ({
            import_id: importId,
            line: row.line,
            status: row.status,
            input: JSON.stringify(row.input),
            problems: row.problems.length > 0 ? JSON.stringify(row.problems) : null,
          })),
        )
        .execute();
    }
  });
  return { ok: true, importId };
}

/**
 * The rows are references too (the unreferenced-upload prune keeps what a checked import names), so the files of
 * the rows to be created are checked again in the transaction that stores them, locked FOR KEY SHARE until it
 * commits: the check row by row ran outside it, and a file pruned since would otherwise be named by a stored row
 * (src/files/prune-unreferenced.ts says why the lock is enough). A row whose file went is refused like any other.
 */
async function relockFiles(trx: Db, accountId: string, rows: CheckedRow[]): Promise<void> {
  const named = rows.flatMap((row) =>
    row.status === 'pending' && isCodeTypeName(row.input.type) ? fileReferencesOf(row.input.type, row.input.content).map((reference) => ({ row, reference })) : [],
  );
  if (named.length === 0) return;
  const ids = [...new Set(named.map(({ reference }) => reference.fileId))].sort();
  const live = await liveFilesOf(trx, accountId)
    .select('id')
    .where('id', '=', sql<string>`any(${ids}::text[])`)
    .orderBy('id')
    .forKeyShare()
    .execute();
  const liveIds = new Set(live.map((file) => file.id));
  for (const { row, reference } of named) {
    if (liveIds.has(reference.fileId)) continue;
    // The column is the path's first step (/fileIds/2 is the fileIds cell), as the row's other file problems say.
    row.problems.push({ field: reference.path.split('/')[1]!, message: 'is not a file of this account (it may have been deleted)', value: reference.fileId });
    row.status = 'invalid';
  }
}

function checkHeader(header: string[]): string | undefined {
  const known = new Set(ALL_COLUMNS);
  const unknown = header.filter((column) => column !== '' && !known.has(column));
  if (unknown.length > 0) {
    return `The header has column${unknown.length === 1 ? '' : 's'} this import does not know: ${unknown.map((c) => `"${c}"`).join(', ')}. ` +
      'Column names are case-sensitive; download a template to see the columns of each type.';
  }
  const seen = new Set<string>();
  for (const column of header) {
    if (column !== '' && seen.has(column)) return `The header has the column "${column}" twice.`;
    seen.add(column);
  }
  const missing = ['type', 'name'].filter((column) => !seen.has(column));
  if (missing.length > 0) return `The header needs the column${missing.length === 1 ? '' : 's'} ${missing.map((c) => `"${c}"`).join(' and ')}.`;
  return undefined;
}

async function templateIds(db: Db, accountId: string): Promise<Map<string, string>> {
  const rows = await db.selectFrom('design_templates').select(['id', 'name']).where('account_id', '=', accountId).execute();
  // Names are unique per account case-insensitively, as the index says.
  return new Map(rows.map((row) => [row.name.toLowerCase(), row.id]));
}

async function checkRow(
  db: Db,
  accountId: string,
  templates: Map<string, string>,
  header: string[],
  line: number,
  row: string[],
  files: FileNames | undefined,
): Promise<CheckedRow> {
  const problems: CellProblem[] = [];
  const cells = new Map<string, string>();
  header.forEach((column, i) => {
    if (column !== '') cells.set(column, row[i] ?? '');
  });
  // As given, for the values beside the problems: file names are replaced by the ids of the files stored for them.
  const given = new Map(cells);
  if (row.length > header.length && row.slice(header.length).some((cell) => cell.trim() !== '')) {
    problems.push({ field: 'row', message: `has ${row.length} cells but the header has ${header.length} columns` });
  }
  const rawType = (cells.get('type') ?? '').trim();
  const type = rawType.toUpperCase();
  const name = cells.get('name') ?? '';
  const externalId = (cells.get('externalId') ?? '').trim();
  const design = (cells.get('design') ?? '').trim();
  const input: RowInput = { type: rawType, name, ...(externalId !== '' && { externalId }), ...(design !== '' && { design }) };

  const parsedName = parseCodeName(name);
  if (!parsedName.ok) problems.push({ field: 'name', message: parsedName.message });
  if ([...externalId].length > MAX_EXTERNAL_ID_LENGTH) problems.push({ field: 'externalId', message: `must be at most ${MAX_EXTERNAL_ID_LENGTH} characters` });
  if (design !== '') {
    const id = templates.get(design.toLowerCase());
    if (id === undefined) problems.push({ field: 'design', message: `names no saved design of this account ("${design}")` });
    else input.designTemplateId = id;
  }
  if (!isCodeTypeName(type)) {
    problems.push({ field: 'type', message: rawType === '' ? 'is required' : `must be one of ${CODE_TYPE_NAMES.join(', ')}` });
    return { line, status: 'invalid', input, problems: problems.map((problem) => withValue(problem, given)) };
  }
  input.type = type;
  const fileProblems = await storeNamedFiles(type, cells, files);
  const cellsResult = contentFromCells(type, cells);
  problems.push(...fileProblems, ...cellsResult.problems);
  if (cellsResult.problems.length === 0 && fileProblems.length === 0) {
    const parsed = CODE_TYPES[type].parse(cellsResult.content);
    if (!parsed.ok) {
      problems.push(...parsed.problems.map((p) => located(type, `/content${p.path}`, p.message, cellsResult.origins)));
    } else {
      input.content = parsed.content;
      const files = await checkFileReferences(db, accountId, type, parsed.content);
      problems.push(...files.map((p) => located(type, p.path, p.message, cellsResult.origins)));
    }
  }
  if (parsedName.ok) input.name = parsedName.name;
  return { line, status: problems.length > 0 ? 'invalid' : 'pending', input, problems: problems.map((problem) => withValue(problem, given)) };
}

/**
 * File columns may name files by their name in the uploaded ZIP: each is stored (once) and its id put in the
 * cell, so the row is checked like one that gave the id. Ids (`fil_…`) are left for the file check as before. A
 * name in a CSV uploaded alone is a problem that says how to upload the file with it.
 */
async function storeNamedFiles(type: CodeTypeName, cells: Map<string, string>, files: FileNames | undefined): Promise<CellProblem[]> {
  const problems: CellProblem[] = [];
  for (const [column, kind] of Object.entries(FILE_COLUMNS[type] ?? {})) {
    const cell = cells.get(column) ?? '';
    const references = cell.split(LIST_SEPARATOR).map((part) => part.trim()).filter((part) => part !== '');
    const ids: string[] = [];
    for (const reference of references) {
      if (reference.startsWith('fil_')) {
        ids.push(reference);
      } else if (!files) {
        problems.push({
          field: column,
          message: 'names a file, not the id of an uploaded one (fil_…): upload the CSV and its files together in a ZIP to name files by their names',
          value: problemValue(reference),
        });
      } else {
        const named = await files.resolve(kind, reference);
        if ('id' in named) ids.push(named.id);
        else problems.push({ field: column, message: named.problem, value: problemValue(reference), ...(named.code !== undefined && { code: named.code }) });
      }
    }
    if (references.length > 0) cells.set(column, ids.join(LIST_SEPARATOR));
  }
  return problems;
}

/** The problem with the cell of its column beside it, as given; problems about the row or several columns have none. */
function withValue(problem: CellProblem, cells: ReadonlyMap<string, string>): CellProblem {
  const cell = problem.value ?? cells.get(problem.field);
  return cell === undefined ? problem : { ...problem, value: problemValue(cell) };
}

function located(type: CodeTypeName, path: string, message: string, origins: Parameters<typeof columnOfProblem>[2]): CellProblem {
  return { field: columnOfProblem(type, path, origins), message };
}

/** Every line sharing an externalId is refused, naming the others: which one was meant is for the person to say. */
function markDuplicateExternalIds(rows: CheckedRow[]): void {
  const lines = new Map<string, number[]>();
  for (const row of rows) {
    if (row.input.externalId !== undefined) lines.set(row.input.externalId, [...(lines.get(row.input.externalId) ?? []), row.line]);
  }
  for (const row of rows) {
    const shared = row.input.externalId === undefined ? [] : lines.get(row.input.externalId)!;
    if (shared.length < 2) continue;
    const others = shared.filter((line) => line !== row.line);
    row.problems.push({
      field: 'externalId',
      message: `"${row.input.externalId}" is also on line${others.length === 1 ? '' : 's'} ${others.join(', ')}; each externalId may appear once`,
      value: problemValue(row.input.externalId!),
    });
    row.status = 'invalid';
  }
}

/** Rows whose externalId already names a live code of the account will be skipped: importing a file twice is a no-op. */
async function markExisting(db: Db, accountId: string, rows: CheckedRow[]): Promise<void> {
  const candidates = rows.filter((row) => row.status === 'pending' && row.input.externalId !== undefined);
  const existing = new Set<string>();
  for (let i = 0; i < candidates.length; i += 1000) {
    const ids = candidates.slice(i, i + 1000).map((row) => row.input.externalId!);
    const found = await liveCodesOf(db, accountId)
      .select('external_id')
      .where('external_id', 'in', ids)
      .execute();
    for (const row of found) existing.add(row.external_id!);
  }
  for (const row of candidates) {
    if (!existing.has(row.input.externalId!)) continue;
    row.status = 'skipped';
    row.problems.push({ field: 'externalId', message: 'a code with this externalId exists; this row will be skipped', value: problemValue(row.input.externalId!) });
  }
}
