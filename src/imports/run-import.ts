import { sql } from 'kysely';
import { ExternalIdTakenError } from '../codes/qr-code-service.js';
import { createTypedCode } from '../codes/typed-code.js';
import { isCodeTypeName } from '../codes/types/index.js';
import type { Db } from '../db/schema/index.js';
import type { ImportRowStatus } from '../db/schema/imports.js';
import { ApiError } from '../errors.js';
import type { CellProblem } from './columns.js';
import type { RowInput } from './import-rows.js';

export const DEFAULT_BATCH_SIZE = 100;

export interface BatchResult {
  importId: string;
  created: number;
  skipped: number;
  failed: number;
  finished: boolean;
}

/**
 * Works through one batch of one import, in one transaction: claims the oldest queued or running import whose row
 * no other instance holds (`FOR UPDATE SKIP LOCKED`), creates codes for its next pending rows and marks them. If
 * the process dies mid-batch the transaction rolls back, the rows are still pending, and the next claim (on any
 * instance) does them again: nothing is created twice, because a row's code and its `created` mark commit
 * together. Returns undefined when there is nothing to do.
 */
export async function processBatch(db: Db, options: { siteUrl: string; batchSize?: number }): Promise<BatchResult | undefined> {
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  return db.transaction().execute(async (trx) => {
    const claimed = await trx
      .selectFrom('imports')
      .select(['id', 'account_id', 'created_by_user_id', 'status'])
      .where('status', 'in', ['queued', 'running'])
      .orderBy('created_at')
      .limit(1)
      .forUpdate()
      .skipLocked()
      .executeTakeFirst();
    if (!claimed) return undefined;
    if (claimed.status === 'queued') await trx.updateTable('imports').set({ status: 'running' }).where('id', '=', claimed.id).execute();

    const rows = await trx
      .selectFrom('import_rows')
      .select(['line', 'input'])
      .where('import_id', '=', claimed.id)
      .where('status', '=', 'pending')
      .orderBy('line')
      .limit(batchSize)
      .execute();
    const liveTemplates = await existingTemplates(trx, claimed.account_id, rows.map((r) => r.input as RowInput));
    const result: BatchResult = { importId: claimed.id, created: 0, skipped: 0, failed: 0, finished: rows.length < batchSize };
    // Each code's first destination is recorded as made by the person who uploaded the file.
    const actor = claimed.created_by_user_id ? { kind: 'user' as const, userId: claimed.created_by_user_id } : undefined;
    const outcomes: [line: number, outcome: Outcome][] = [];
    for (const row of rows) {
      const input = row.input as RowInput;
      const outcome: Outcome = actor
        ? await createRow(trx, claimed.account_id, input, liveTemplates, actor, options.siteUrl)
        : { status: 'failed', problems: [{ field: 'row', message: 'not created: the person who uploaded this file was removed from the account' }] };
      result[outcome.status]++;
      outcomes.push([row.line, outcome]);
    }
    await markRows(trx, claimed.id, outcomes);
    if (result.finished) {
      await trx.updateTable('imports').set({ status: 'done', finished_at: sql`now()` }).where('id', '=', claimed.id).execute();
    }
    return result;
  });
}

/** The batch's rows marked in one statement (a sixth of the queries a row costs), in the batch's transaction. */
async function markRows(trx: Db, importId: string, outcomes: [number, Outcome][]): Promise<void> {
  if (outcomes.length === 0) return;
  const values = outcomes.map(
    ([line, o]) => sql`(${line}::int, ${o.status}::text, ${o.codeId ?? null}::text, ${o.problems ? JSON.stringify(o.problems) : null}::jsonb)`,
  );
  await sql`update import_rows as r set status = v.status, qr_code_id = v.code_id, problems = v.problems
    from (values ${sql.join(values)}) as v(line, status, code_id, problems)
    where r.import_id = ${importId} and r.line = v.line`.execute(trx);
}

type Outcome = { status: Extract<ImportRowStatus, 'created' | 'skipped' | 'failed'>; codeId?: string; problems?: CellProblem[] };

async function createRow(
  trx: Db,
  accountId: string,
  input: RowInput,
  liveTemplates: Set<string>,
  actor: { kind: 'user'; userId: string },
  siteUrl: string,
): Promise<Outcome> {
  if (!isCodeTypeName(input.type)) return { status: 'failed', problems: [{ field: 'type', message: 'is not a code type' }] };
  if (input.designTemplateId !== undefined && !liveTemplates.has(input.designTemplateId)) {
    return { status: 'failed', problems: [{ field: 'design', message: `the saved design "${input.design ?? ''}" was deleted after the check`, value: input.design ?? '' }] };
  }
  try {
    const created = await createTypedCode(trx, {
      accountId,
      name: input.name,
      type: input.type,
      content: input.content,
      actor,
      siteUrl,
      externalId: input.externalId,
      designTemplateId: input.designTemplateId,
    });
    if (!created.ok) {
      // A file deleted since the dry run, say: the row is reported, the rest goes on.
      return { status: 'failed', problems: created.problems.map((p) => ({ field: p.path.replace(/^\/(content\/)?/, ''), message: p.message })) };
    }
    return { status: 'created', codeId: created.code.id };
  } catch (error) {
    if (error instanceof ExternalIdTakenError) {
      return { status: 'skipped', problems: [{ field: 'externalId', message: 'a code with this externalId exists; skipped', value: input.externalId ?? '' }] };
    }
    if (error instanceof ApiError && error.code === 'plan_limit_reached') {
      return { status: 'failed', problems: [{ field: 'row', message: `not created: ${error.message} Delete codes or move to a larger plan, then import the failed rows again.` }] };
    }
    throw error;
  }
}

async function existingTemplates(trx: Db, accountId: string, inputs: RowInput[]): Promise<Set<string>> {
  const ids = [...new Set(inputs.map((i) => i.designTemplateId).filter((id): id is string => id !== undefined))];
  if (ids.length === 0) return new Set();
  const rows = await trx.selectFrom('design_templates').select('id').where('account_id', '=', accountId).where('id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}

/**
 * A row whose create fails with an unexpected error (not a refusal the job knows) would roll its whole batch back
 * on every try and stall the import. The job then goes one row at a time, and a row that fails alone is marked
 * failed here, in a transaction of its own, so the rest of the file goes on. Returns the line marked.
 */
export async function failNextRow(db: Db, message: string): Promise<{ importId: string; line: number } | undefined> {
  return db.transaction().execute(async (trx) => {
    const claimed = await trx
      .selectFrom('imports')
      .select('id')
      .where('status', 'in', ['queued', 'running'])
      .orderBy('created_at')
      .limit(1)
      .forUpdate()
      .skipLocked()
      .executeTakeFirst();
    if (!claimed) return undefined;
    const row = await trx
      .selectFrom('import_rows')
      .select('line')
      .where('import_id', '=', claimed.id)
      .where('status', '=', 'pending')
      .orderBy('line')
      .limit(1)
      .executeTakeFirst();
    if (!row) return undefined;
    await trx
      .updateTable('import_rows')
      .set({ status: 'failed', problems: JSON.stringify([{ field: 'row', message }]) })
      .where('import_id', '=', claimed.id)
      .where('line', '=', row.line)
      .execute();
    return { importId: claimed.id, line: row.line };
  });
}
