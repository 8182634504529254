import { type ExpressionBuilder, sql } from 'kysely';
import { getAccount } from '../accounts/account-service.js';
import type { DatabaseSchema, Db } from '../db/schema/index.js';
import type { UserRole } from '../db/schema/people.js';
import { inTransaction } from '../db/transaction.js';
import { newId } from '../ids.js';
import { EmailTakenError, InvitationInvalidError } from './errors.js';
import { requireInvitationMailAllowed } from './invitation-limit.js';
import { hashPassword } from './passwords.js';
import { hashLinkToken, isLinkTokenShaped, linkUrl, newLinkToken } from './tokens.js';
import { insertUser, requireAcceptablePassword, requireEmail, type User } from './users.js';

/** A week: long enough to reach someone back from a long weekend, short enough that a forgotten link dies. */
export const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

export interface CreatedInvitation {
  id: string;
  accountId: string;
  email: string;
  role: UserRole;
  /** The one-time link; the token in it is stored only as its SHA-256, so this is the only time it exists. */
  url: string;
  expiresAt: Date;
  /**
   * The email already has a user (only with `allowTakenEmail`): the link can never be accepted, so the person is
   * mailed a notice instead of it, and the inviter is answered as for anyone else.
   */
  emailTaken: boolean;
}

export interface PendingInvitation {
  id: string;
  accountId: string;
  accountName: string;
  email: string;
  role: UserRole;
  createdAt: Date;
  expiresAt: Date;
  /** Who invited (null: the operator, from the admin CLI, or a person since removed). */
  invitedByEmail: string | null;
}

/**
 * Invites an email into an account. Earlier pending invitations of the same email to the same account are revoked,
 * so only the newest link works. Refuses an email that already has a user (EmailTakenError): it could never be
 * accepted; with `allowTakenEmail` it is recorded all the same (`emailTaken`), so the inviter's answer and list do
 * not tell who has an account. With `limitMails` (the invitation is going to be mailed on an account's behalf)
 * refuses past the limits of invitation-limit.ts (InvitationMailLimitError). Throws AccountNotFoundError for an
 * unknown account and InvalidEmailError for a malformed email.
 */
export async function createInvitation(
  db: Db,
  input: {
    accountId: string;
    email: string;
    role: UserRole;
    invitedByUserId?: string;
    siteUrl: string;
    now?: Date;
    limitMails?: boolean;
    allowTakenEmail?: boolean;
  },
): Promise<CreatedInvitation> {
  const email = requireEmail(input.email);
  const token = newLinkToken();
  return inTransaction(db, async (trx) => {
    await getAccount(trx, input.accountId);
    const taken = await trx.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
    if (taken && !input.allowTakenEmail) throw new EmailTakenError();
    // Limited, the invitation is dated when the limits' locks are held (see requireInvitationMailAllowed).
    const now = input.limitMails
      ? await requireInvitationMailAllowed(trx, { accountId: input.accountId, email, now: input.now })
      : (input.now ?? new Date());
    const expiresAt = new Date(now.getTime() + INVITATION_LIFETIME_MS);
    await trx
      .updateTable('invitations')
      .set({ revoked_at: now })
      .where(isPending(now))
      .where('account_id', '=', input.accountId)
      .where('email', '=', email)
      .execute();
    const id = newId('inv');
    await trx
      .insertInto('invitations')
      .values({
        id,
        account_id: input.accountId,
        email,
        role: input.role,
        token_hash: hashLinkToken(token),
        invited_by_user_id: input.invitedByUserId ?? null,
        created_at: now,
        expires_at: expiresAt,
      })
      .execute();
    const url = invitationUrl(input.siteUrl, token);
    return { id, accountId: input.accountId, email, role: input.role, url, expiresAt, emailTaken: taken !== undefined };
  });
}

export function invitationUrl(siteUrl: string, token: string): string {
  return linkUrl(siteUrl, 'invitation', token);
}

/** The invitation behind a link, if it can still be accepted (not unknown, expired, accepted or revoked). */
export async function findPendingInvitation(db: Db, token: string, now = new Date()): Promise<PendingInvitation | undefined> {
  if (!isLinkTokenShaped(token)) return undefined;
  const row = await pendingInvitations(db, now).where('invitations.token_hash', '=', hashLinkToken(token)).executeTakeFirst();
  return row && toPendingInvitation(row);
}

/**
 * Accepts an invitation: creates the user with the invitation's email and role and the chosen password, and marks
 * the invitation accepted, in one transaction holding the invitation's row lock, so a link used twice at once
 * creates one user and the second use fails (InvitationInvalidError). Also UnacceptablePasswordError and
 * EmailTakenError (the email got a user since the invitation was made).
 */
export async function acceptInvitation(db: Db, input: { token: string; password: string; now?: Date }): Promise<User> {
  requireAcceptablePassword(input.password);
  const now = input.now ?? new Date();
  // A cheap look first, so a dead link does not cost a password hash; the locked read below decides.
  if (!(await findPendingInvitation(db, input.token, now))) throw new InvitationInvalidError();
  const passwordHash = await hashPassword(input.password);
  return inTransaction(db, async (trx) => {
    const invitation = await trx
      .selectFrom('invitations')
      .select(['id', 'account_id', 'email', 'role'])
      .where(isPending(now))
      .where('token_hash', '=', hashLinkToken(input.token))
      .forUpdate()
      .executeTakeFirst();
    if (!invitation) throw new InvitationInvalidError();
    const user = await insertUser(trx, { accountId: invitation.account_id, email: invitation.email, role: invitation.role, passwordHash });
    await trx.updateTable('invitations').set({ accepted_at: now }).where('id', '=', invitation.id).execute();
    return user;
  });
}

/** The account's invitations that can still be accepted, newest first. */
export async function listPendingInvitations(db: Db, accountId: string, now = new Date()): Promise<PendingInvitation[]> {
  const rows = await pendingInvitations(db, now).where('invitations.account_id', '=', accountId).orderBy('invitations.created_at', 'desc').execute();
  return rows.map(toPendingInvitation);
}

/** Revokes a pending invitation of this account; false when there is none by that id (or it is no longer pending). */
export async function revokeInvitation(db: Db, input: { accountId: string; invitationId: string; now?: Date }): Promise<boolean> {
  const now = input.now ?? new Date();
  const result = await db
    .updateTable('invitations')
    .set({ revoked_at: now })
    .where(isPending(now))
    .where('id', '=', input.invitationId)
    .where('account_id', '=', input.accountId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Invitations that ended (expired, accepted or revoked) over 30 days ago, for the pruning job; up to `limit`. */
export async function pruneInvitations(db: Db, limit: number): Promise<number> {
  const result = await sql`
    delete from invitations where id in (
      select id from invitations
      -- Whichever came first ended it (least() skips nulls).
      where least(expires_at, accepted_at, revoked_at) < now() - interval '30 days'
      limit ${limit})`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** The one definition of "pending" (can still be accepted), shared by every read and update here. */
function isPending(now: Date) {
  return (eb: ExpressionBuilder<DatabaseSchema, 'invitations'>) =>
    eb.and([eb('invitations.accepted_at', 'is', null), eb('invitations.revoked_at', 'is', null), eb('invitations.expires_at', '>', now)]);
}

function pendingInvitations(db: Db, now: Date) {
  return db
    .selectFrom('invitations')
    .innerJoin('accounts', 'accounts.id', 'invitations.account_id')
    .leftJoin('users as inviter', 'inviter.id', 'invitations.invited_by_user_id')
    .select([
      'invitations.id',
      'invitations.account_id',
      'accounts.name as account_name',
      'invitations.email',
      'invitations.role',
      'invitations.created_at',
      'invitations.expires_at',
      'inviter.email as invited_by_email',
    ])
    .where(isPending(now));
}

function toPendingInvitation(row: {
  id: string;
  account_id: string;
  account_name: string;
  email: string;
  role: UserRole;
  created_at: Date;
  expires_at: Date;
  invited_by_email: string | null;
}): PendingInvitation {
  return {
    id: row.id,
    accountId: row.account_id,
    accountName: row.account_name,
    email: row.email,
    role: row.role,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    invitedByEmail: row.invited_by_email,
  };
}
