import { type Account, createAccount, parseAccountName } from '../accounts/account-service.js';
import type { PlanName } from '../accounts/plans.js';
import type { Database, Db } from '../db/schema/index.js';
import { inTransaction } from '../db/transaction.js';
import { SignupLinkInvalidError } from './errors.js';
import { hashPassword } from './passwords.js';
import { hashLinkToken, isLinkTokenShaped, linkUrl, newLinkToken } from './tokens.js';
import { insertUser, requireAcceptablePassword, requireEmail, type User } from './users.js';

/** A day: the mail may sit a while before it is read; an unused request then goes (each makes no account). */
export const SIGNUP_REQUEST_LIFETIME_MS = 24 * 60 * 60 * 1000;
/**
 * One address gets at most one sign-up mail (link or notice) per interval, however often the form names it, so
 * the form cannot fill a stranger's inbox. The first link keeps working for its day.
 */
export const SIGNUP_MAIL_INTERVAL_MS = 5 * 60 * 1000;
/**
 * And at most this many per SIGNUP_REQUEST_LIFETIME_MS (a day), links and notices together, as invitations are
 * bounded per recipient: one every 5 minutes would still be 288 a day. Counted from the rows themselves, which live
 * exactly that long (the pruning job deletes them once expired), so every instance sees the same count.
 */
export const SIGNUP_MAILS_PER_ADDRESS = 3;

/**
 * What a sign-up form led to. The page must answer all of them alike ("check your mail"): `confirm` mails `url`
 * to a new email, `taken` mails a notice to an email that already has a user, `quiet` mails nothing (that address
 * was mailed within SIGNUP_MAIL_INTERVAL_MS, or SIGNUP_MAILS_PER_ADDRESS times within a day).
 */
export type SignupRequest = { kind: 'confirm'; email: string; url: string } | { kind: 'taken'; email: string } | { kind: 'quiet' };

/**
 * A sign-up with a mail server: nothing is made until the email is confirmed, and nothing the form chose is
 * binding: whoever fills the form names any address, so the password is chosen on the confirmation page, by
 * whoever holds the mailed link (as with invitations), and the account name the form gave is only proposed there,
 * in a field they can change. The request keeps the email and that proposed name, nothing else. Throws
 * InvalidAccountNameError or InvalidEmailError for a bad form, never EmailTakenError.
 */
export async function requestSignup(
  db: Database,
  input: { accountName: string; email: string; siteUrl: string; now?: Date },
): Promise<SignupRequest> {
  const accountName = parseAccountName(input.accountName);
  const email = requireEmail(input.email);
  const now = input.now ?? new Date();
  const token = newLinkToken();
  return inTransaction(db, async (trx) => {
    // Requests for one address are decided one after the other, so a burst mails it once.
    await trx.selectNoFrom((eb) => eb.fn('pg_advisory_xact_lock', [eb.fn('hashtextextended', [eb.val(`signup:${email}`), eb.lit(0)])]).as('locked')).execute();
    const { recent, today } = await trx
      .selectFrom('signup_requests')
      .select((eb) => [
        eb.fn.countAll<string>().filterWhere('created_at', '>', new Date(now.getTime() - SIGNUP_MAIL_INTERVAL_MS)).as('recent'),
        eb.fn.countAll<string>().as('today'),
      ])
      .where('email', '=', email)
      .where('created_at', '>', new Date(now.getTime() - SIGNUP_REQUEST_LIFETIME_MS))
      .executeTakeFirstOrThrow();
    if (Number(recent) > 0 || Number(today) >= SIGNUP_MAILS_PER_ADDRESS) return { kind: 'quiet' } as const;
    const taken = (await trx.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()) !== undefined;
    await trx
      .insertInto('signup_requests')
      .values({
        token_hash: hashLinkToken(token),
        email,
        account_name: taken ? null : accountName,
        created_at: now,
        expires_at: new Date(now.getTime() + SIGNUP_REQUEST_LIFETIME_MS),
      })
      .execute();
    if (taken) return { kind: 'taken', email } as const;
    return { kind: 'confirm', email, url: signupConfirmationUrl(input.siteUrl, token) } as const;
  });
}

export function signupConfirmationUrl(siteUrl: string, token: string): string {
  return linkUrl(siteUrl, 'signupConfirmation', token);
}

/** The email a confirmation link would create an account for, and the account name proposed, if it can still be used. */
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
 * Uses a confirmation link: the account (on `plan`, named `accountName` as the link's holder chose it) and its
 * owner with the password they chose, in one transaction that also deletes the request (and every other request
 * for that email), so a link works once. SignupLinkInvalidError for an unknown, expired or used link;
 * InvalidAccountNameError and UnacceptablePasswordError for the page's fields; EmailTakenError when the email got a
 * user since.
 */
export async function confirmSignup(
  db: Db,
  input: { token: string; accountName: string; password: string; plan: PlanName; now?: Date },
): Promise<{ account: Account; user: User }> {
  if (!isLinkTokenShaped(input.token)) throw new SignupLinkInvalidError();
  const name = parseAccountName(input.accountName);
  const passwordHash = await hashPassword(requireAcceptablePassword(input.password));
  const now = input.now ?? new Date();
  return inTransaction(db, async (trx) => {
    const request = await trx
      .deleteFrom('signup_requests')
      .where('token_hash', '=', hashLinkToken(input.token))
      .where('expires_at', '>', now)
      .where('account_name', 'is not', null)
      .returning(['email'])
      .executeTakeFirst();
    if (!request) throw new SignupLinkInvalidError();
    await trx.deleteFrom('signup_requests').where('email', '=', request.email).execute();
    const account = await createAccount(trx, { name, plan: input.plan });
    const user = await insertUser(trx, { accountId: account.id, email: request.email, role: 'owner', passwordHash });
    return { account, user };
  });
}

/**
 * Requests past their expiry, for the pruning job; up to `limit`. Kept until then (a confirmed one goes at once):
 * the per-address daily count reads them, and a day is also their lifetime.
 */
export async function pruneSignupRequests(db: Db, limit: number): Promise<number> {
  const result = await db
    .deleteFrom('signup_requests')
    .where('token_hash', 'in', (eb) => eb.selectFrom('signup_requests').select('token_hash').where('expires_at', '<=', new Date()).limit(limit))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
