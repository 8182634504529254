import { type Account, createAccount } from '../accounts/account-service.js';
import type { PlanName } from '../accounts/plans.js';
import type { Database, Db, Transaction } from '../db/schema/index.js';
import { inTransaction } from '../db/transaction.js';
import { EmailTakenError, SignupLinkInvalidError } from './errors.js';
import { signUp } from './signup.js';
import { hashLinkToken, isLinkTokenShaped, linkUrl, newLinkToken } from './tokens.js';
import { insertUser, requireEmail, type User } from './users.js';

/** A day: the mail may sit a while before it is read; an unused request then goes (each makes no account). */
export const SIGNUP_REQUEST_LIFETIME_MS = 24 * 60 * 60 * 1000;
/**
 * One address gets at most one sign-up mail (link or notice) per interval, however often the form names it, so
 * the form cannot fill a stranger's inbox. The first link keeps working for its day.
 */
export const SIGNUP_MAIL_INTERVAL_MS = 5 * 60 * 1000;

/**
 * What a sign-up form led to. The page must answer all of them alike ("check your mail"): `confirm` mails `url`
 * to a new email, `taken` mails a notice to an email that already has a user, `quiet` mails nothing (that address
 * was mailed within SIGNUP_MAIL_INTERVAL_MS).
 */
export type SignupRequest = { kind: 'confirm'; email: string; url: string } | { kind: 'taken'; email: string } | { kind: 'quiet' };

/**
 * A sign-up with a mail server: nothing is made until the email is confirmed. Checks the form by the sign-up's own
 * rules (signUp, run in a transaction that is rolled back: the same name, email and password rules, and the same
 * answer to whether the email is taken, with no second copy of them here), then records the request. Throws what
 * signUp throws for a bad form (InvalidAccountNameError, InvalidEmailError, UnacceptablePasswordError), never
 * EmailTakenError.
 */
export async function requestSignup(
  db: Database,
  input: { accountName: string; email: string; password: string; plan: PlanName; siteUrl: string; now?: Date },
): Promise<SignupRequest> {
  const checked = await dryRunSignup(db, input);
  const now = input.now ?? new Date();
  const token = newLinkToken();
  return inTransaction(db, async (trx) => {
    // Requests for one address are decided one after the other, so a burst mails it once.
    await trx.selectNoFrom((eb) => eb.fn('pg_advisory_xact_lock', [eb.fn('hashtextextended', [eb.val(`signup:${checked.email}`), eb.lit(0)])]).as('locked')).execute();
    // Requests nobody confirmed go here, a few at a time: a sign-up is rare enough to carry its own clean-up.
    await trx.deleteFrom('signup_requests').where('token_hash', 'in', (eb) =>
      eb.selectFrom('signup_requests').select('token_hash').where('expires_at', '<', now).limit(100)).execute();
    const recent = await trx
      .selectFrom('signup_requests')
      .select('token_hash')
      .where('email', '=', checked.email)
      .where('created_at', '>', new Date(now.getTime() - SIGNUP_MAIL_INTERVAL_MS))
      .executeTakeFirst();
    if (recent) return { kind: 'quiet' } as const;
    await trx
      .insertInto('signup_requests')
      .values({
        token_hash: hashLinkToken(token),
        email: checked.email,
        account_name: checked.kind === 'new' ? checked.accountName : null,
        password_hash: checked.kind === 'new' ? checked.passwordHash : null,
        created_at: now,
        expires_at: new Date(now.getTime() + SIGNUP_REQUEST_LIFETIME_MS),
      })
      .execute();
    if (checked.kind === 'taken') return { kind: 'taken', email: checked.email } as const;
    return { kind: 'confirm', email: checked.email, url: signupConfirmationUrl(input.siteUrl, token) } as const;
  });
}

export function signupConfirmationUrl(siteUrl: string, token: string): string {
  return linkUrl(siteUrl, 'signupConfirmation', token);
}

/** The account name and email a confirmation link would create, if it can still be used. */
export async function findSignupRequest(db: Db, token: string, now = new Date()): Promise<{ email: string; accountName: string } | undefined> {
  if (!isLinkTokenShaped(token)) return undefined;
  const row = await db
    .selectFrom('signup_requests')
    .select(['email', 'account_name'])
    .where('token_hash', '=', hashLinkToken(token))
    .where('expires_at', '>', now)
    .where('account_name', 'is not', null)
    .executeTakeFirst();
  return row && row.account_name !== null ? { email: row.email, accountName: row.account_name } : undefined;
}

/**
 * Uses a confirmation link: the account (on `plan`) and its owner, with the name and password of the form, in one
 * transaction that also deletes the request (and every other request for that email), so a link works once.
 * SignupLinkInvalidError for an unknown, expired or used link; EmailTakenError when the email got a user since.
 */
export async function confirmSignup(db: Db, input: { token: string; plan: PlanName; now?: Date }): Promise<{ account: Account; user: User }> {
  if (!isLinkTokenShaped(input.token)) throw new SignupLinkInvalidError();
  const now = input.now ?? new Date();
  return inTransaction(db, async (trx) => {
    const request = await trx
      .deleteFrom('signup_requests')
      .where('token_hash', '=', hashLinkToken(input.token))
      .where('expires_at', '>', now)
      .where('account_name', 'is not', null)
      .returning(['email', 'account_name', 'password_hash'])
      .executeTakeFirst();
    if (!request || request.account_name === null || request.password_hash === null) throw new SignupLinkInvalidError();
    await trx.deleteFrom('signup_requests').where('email', '=', request.email).execute();
    const account = await createAccount(trx, { name: request.account_name, plan: input.plan });
    const user = await insertUser(trx, { accountId: account.id, email: request.email, role: 'owner', passwordHash: request.password_hash });
    return { account, user };
  });
}

type CheckedSignup = { kind: 'new'; email: string; accountName: string; passwordHash: string } | { kind: 'taken'; email: string };

/** Thrown to roll the dry run back once it has what it came for. */
class DryRunDone extends Error {
  constructor(readonly result: CheckedSignup) {
    super('dry run');
  }
}

async function dryRunSignup(db: Database, input: { accountName: string; email: string; password: string; plan: PlanName }): Promise<CheckedSignup> {
  const run = async (trx: Transaction) => {
    let made;
    try {
      made = await signUp(trx, input);
    } catch (error) {
      if (!(error instanceof EmailTakenError)) throw error;
      // Taken: signUp checked the name, the email's form and the password before it got to the email's user.
      throw new DryRunDone({ kind: 'taken', email: requireEmail(input.email) });
    }
    const { password_hash: passwordHash } = await trx.selectFrom('users').select('password_hash').where('id', '=', made.user.id).executeTakeFirstOrThrow();
    throw new DryRunDone({ kind: 'new', email: made.user.email, accountName: made.account.name, passwordHash });
  };
  try {
    await db.transaction().execute(run);
  } catch (error) {
    if (error instanceof DryRunDone) return error.result;
    throw error;
  }
  throw new Error('unreachable: the dry run always ends with DryRunDone');
}
