import { newId } from '../ids.js';
import type { Db } from '../db/schema/index.js';
import { parseAccountName } from './account-name.js';
import { codeLimitOf, type PlanName } from './plans.js';

// The name rule is pure (pages read its bound), so it lives apart; re-exported for the callers that import it from here.
export { ACCOUNT_NAME_MAX_LENGTH, InvalidAccountNameError, parseAccountName } from './account-name.js';

export interface Account {
  id: string;
  name: string;
  plan: PlanName;
  codeLimit: number;
  codeLimitOverride: number | null;
  codeCount: number;
  createdAt: Date;
}

export class AccountNotFoundError extends Error {
  constructor(readonly accountId: string) {
    super(`no account with id ${accountId}`);
  }
}

/** Throws InvalidAccountNameError for a name parseAccountName refuses; stores the trimmed name. */
export async function createAccount(
  db: Db,
  input: { name: string; plan: PlanName; codeLimit?: number | null },
): Promise<Account> {
  const name = parseAccountName(input.name);
  const row = await db
    .insertInto('accounts')
    .values({ id: newId('acc'), name, plan: input.plan, code_limit: input.codeLimit ?? null })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toAccount(row);
}

export async function getAccount(db: Db, accountId: string): Promise<Account> {
  const row = await db.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirst();
  if (!row) throw new AccountNotFoundError(accountId);
  return toAccount(row);
}

export async function setPlan(db: Db, accountId: string, plan: PlanName): Promise<Account> {
  const row = await db.updateTable('accounts').set({ plan }).where('id', '=', accountId).returningAll().executeTakeFirst();
  if (!row) throw new AccountNotFoundError(accountId);
  return toAccount(row);
}

/** `null` goes back to the plan's default. */
export async function setCodeLimit(db: Db, accountId: string, codeLimit: number | null): Promise<Account> {
  const row = await db
    .updateTable('accounts')
    .set({ code_limit: codeLimit })
    .where('id', '=', accountId)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw new AccountNotFoundError(accountId);
  return toAccount(row);
}

function toAccount(row: {
  id: string;
  name: string;
  plan: string;
  code_limit: number | null;
  code_count: number;
  created_at: Date;
}): Account {
  return {
    id: row.id,
    name: row.name,
    plan: row.plan as PlanName,
    codeLimit: codeLimitOf(row),
    codeLimitOverride: row.code_limit,
    codeCount: row.code_count,
    createdAt: row.created_at,
  };
}
