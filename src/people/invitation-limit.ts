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
 * How many invitation mails one account sends one address per INVITATION_MAIL_RECIPIENT_WINDOW_MS: a person asked
 * again because they lost the first mail gets it, a person being flooded does not. Counted per account, so a
 * stranger who opens an account (SIGNUP=open) and invites someone uses up only their own account's share: the
 * person's employer can still invite them.
 */
export const INVITATION_MAILS_PER_ACCOUNT_RECIPIENT = 3;
/**
 * And how many one address receives from all accounts together in that window: the bound on a flood spread over
 * many accounts. Higher than the per-account one, so blocking a person's invitations from everyone takes opening
 * several accounts (each within the sign-up limit of its network) and still lasts only a day.
 */
export const INVITATION_MAILS_PER_RECIPIENT = 10;
export const INVITATION_MAIL_RECIPIENT_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * Throws InvitationMailLimitError (with the seconds until a mail may go) when one more invitation mail would pass
 * any of the limits. Counts the invitations table itself, in PostgreSQL, so every instance sees the same mails;
 * each invitation row is one mail (a revoked or replaced one too: its mail went out). Call it inside the
 * transaction that inserts the invitation: it locks the account's row and the recipient's advisory lock first, so
 * parallel requests are decided one after the other and a burst cannot all pass a count taken before any was
 * written. Returns the time it decided at (`now`, or the clock once the locks are held): the invitation's date.
 */
export async function requireInvitationMailAllowed(trx: Db, input: { accountId: string; email: string; now?: Date }): Promise<Date> {
  await trx.selectFrom('accounts').select('id').where('id', '=', input.accountId).forUpdate().execute();
  await sql`select pg_advisory_xact_lock(hashtextextended(${`invitation-mail:${input.email}`}, 0))`.execute(trx);
  // The time of the decision, once the locks are held: every invitation counted was written by a request that held
  // them before, so none is newer, and a refusal's wait is at most its window. Taken before the locks, a request
  // that waited for them told its sender "61 minutes" of a 60-minute window.
  const now = input.now ?? new Date();
  const accountSince = new Date(now.getTime() - INVITATION_MAIL_ACCOUNT_WINDOW_MS);
  const recipientSince = new Date(now.getTime() - INVITATION_MAIL_RECIPIENT_WINDOW_MS);
  // For each limit, the mail whose leaving its window brings the count below it: the limit-th newest one inside it.
  const { rows } = await sql<{ account_at: Date | null; pair_at: Date | null; recipient_at: Date | null }>`
    select (select created_at from invitations where account_id = ${input.accountId} and created_at > ${accountSince}
            order by created_at desc offset ${INVITATION_MAILS_PER_ACCOUNT - 1} limit 1) as account_at,
           (select created_at from invitations where account_id = ${input.accountId} and email = ${input.email}
              and created_at > ${recipientSince}
            order by created_at desc offset ${INVITATION_MAILS_PER_ACCOUNT_RECIPIENT - 1} limit 1) as pair_at,
           (select created_at from invitations where email = ${input.email} and created_at > ${recipientSince}
            order by created_at desc offset ${INVITATION_MAILS_PER_RECIPIENT - 1} limit 1) as recipient_at`.execute(trx);
  const { account_at: accountAt, pair_at: pairAt, recipient_at: recipientAt } = rows[0]!;
  if (accountAt === null && pairAt === null && recipientAt === null) return now;
  // Several may be reached: a mail may go when the last of them releases.
  const opensAt = Math.max(
    accountAt ? accountAt.getTime() + INVITATION_MAIL_ACCOUNT_WINDOW_MS : 0,
    pairAt ? pairAt.getTime() + INVITATION_MAIL_RECIPIENT_WINDOW_MS : 0,
    recipientAt ? recipientAt.getTime() + INVITATION_MAIL_RECIPIENT_WINDOW_MS : 0,
  );
  const limit = recipientAt !== null ? 'recipient' : pairAt !== null ? 'accountRecipient' : 'account';
  throw new InvitationMailLimitError(Math.max(1, Math.ceil((opensAt - now.getTime()) / 1000)), limit);
}
