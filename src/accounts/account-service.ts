import { newId } from '../ids.js';
import type { Db } from '../db/schema/index.js';
import { isInvisibleOnly, singleLineTextProblem } from '../text-rules.js';
import { codeLimitOf, type PlanName } from './plans.js';

/** The same bounds as a code's name, in code points as there: long enough for any company, short enough for every header it appears in. */
export const ACCOUNT_NAME_MAX_LENGTH = 200;

/** A name parseAccountName refused; the message is a sentence for the person at the form or the CLI. */
export class InvalidAccountNameError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidAccountNameError';
  }
}

/**
 * The account-name rule, the one every way an account is named goes through (sign-up, its confirmation, the admin
 * CLI, createAccount itself): trimmed, 1 to ACCOUNT_NAME_MAX_LENGTH code points, not only invisible characters, and
 * one line of plain text, since it is shown in pages, invitation mails and their subjects (as a code's name).
 * Returns the trimmed name; throws InvalidAccountNameError.
 */
export function parseAccountName(raw: string): string {
  const name = raw.trim();
  if (name.length === 0 || isInvisibleOnly(name) || [...name].length > ACCOUNT_NAME_MAX_LENGTH) {
    throw new InvalidAccountNameError(`Enter an account name of 1 to ${ACCOUNT_NAME_MAX_LENGTH} characters.`);
  }
  if (singleLineTextProblem(name) !== undefined) {
    throw new InvalidAccountNameError('An account name must not contain control characters or line breaks.');
  }
  return name;
}

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
