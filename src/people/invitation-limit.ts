import { sql } from 'kysely';
import type { Db } from '../db/schema/index.js';
import { InvitationMailLimitError } from './errors.js';

/**
 * How many invitation mails one account sends per INVITATION_MAIL_ACCOUNT_WINDOW_MS. With SIGNUP=open anyone can
 * open an account and invite any address, so without a bound our mail server relays whatever an account name says
 * to whomever a script lists (25 mails in 4 s were measured). Ten an hour still brings a team of thirty in within
 * an afternoon; the operator's CLI is not limited.
 */
export const INVITATION_MAILS_PER_ACCOUNT = 10;
export const INVITATION_MAIL_ACCOUNT_WINDOW_MS = 60 * 60 * 1000;
/**
 * How many invitation mails one address receives per INVITATION_MAIL_RECIPIENT_WINDOW_MS, from all accounts
 * together: a person asked again because they lost the first mail gets it, a person being flooded does not.
 */
export const INVITATION_MAILS_PER_RECIPIENT = 3;
export const INVITATION_MAIL_RECIPIENT_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * Throws InvitationMailLimitError (with the seconds until a mail may go) when one more invitation mail would pass
 * either limit. Counts the invitations table itself, in PostgreSQL, so every instance sees the same mails; each
 * invitation row is one mail (a revoked or replaced one too: its mail went out). Call it inside the transaction
 * that inserts the invitation: it locks the account's row and the recipient's advisory lock first, so parallel
 * requests are decided one after the other and a burst cannot all pass a count taken before any was written.
 */
export async function requireInvitationMailAllowed(trx: Db, input: { accountId: string; email: string; now: Date }): Promise<void> {
  await trx.selectFrom('accounts').select('id').where('id', '=', input.accountId).forUpdate().execute();
  await sql`select pg_advisory_xact_lock(hashtextextended(${`invitation-mail:${input.email}`}, 0))`.execute(trx);
  const accountSince = new Date(input.now.getTime() - INVITATION_MAIL_ACCOUNT_WINDOW_MS);
  const recipientSince = new Date(input.now.getTime() - INVITATION_MAIL_RECIPIENT_WINDOW_MS);
  // The mail whose leaving its window brings the count below the limit: the limit-th newest one inside it.
  const { rows } = await sql<{ account_at: Date | null; recipient_at: Date | null }>`
    select (select created_at from invitations where account_id = ${input.accountId} and created_at > ${accountSince}
            order by created_at desc offset ${INVITATION_MAILS_PER_ACCOUNT - 1} limit 1) as account_at,
           (select created_at from invitations where email = ${input.email} and created_at > ${recipientSince}
            order by created_at desc offset ${INVITATION_MAILS_PER_RECIPIENT - 1} limit 1) as recipient_at`.execute(trx);
  const { account_at: accountAt, recipient_at: recipientAt } = rows[0]!;
  if (accountAt === null && recipientAt === null) return;
  // Both may be reached: a mail may go when the later of the two releases.
  const opensAt = Math.max(
    accountAt ? accountAt.getTime() + INVITATION_MAIL_ACCOUNT_WINDOW_MS : 0,
    recipientAt ? recipientAt.getTime() + INVITATION_MAIL_RECIPIENT_WINDOW_MS : 0,
  );
  throw new InvitationMailLimitError(Math.max(1, Math.ceil((opensAt - input.now.getTime()) / 1000)), recipientAt !== null);
}
