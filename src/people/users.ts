import { sql } from 'kysely';
import type { Db } from '../db/schema/index.js';
import type { UserRole } from '../db/schema/people.js';
import { inTransaction } from '../db/transaction.js';
import { newId } from '../ids.js';
import {
  EmailTakenError,
  InvalidEmailError,
  LastOwnerError,
  UnacceptablePasswordError,
  UserNotFoundError,
  WrongPasswordError,
} from './errors.js';
import { checkNewPassword, hashPassword, verifyDummyPassword, verifyPassword } from './passwords.js';

export interface User {
  id: string;
  accountId: string;
  email: string;
  role: UserRole;
  createdAt: Date;
}

export const USER_ROLES: readonly UserRole[] = ['owner', 'member'];

/** RFC 5321's limit on a forward path; longer addresses cannot receive mail anyway. */
const EMAIL_MAX_LENGTH = 254;
/**
 * One `@`, something on each side, and none of the characters that would make an address list or a header out of
 * it (`,` `;` `<` `>` quotes, whitespace, controls): the address goes into a mail's To line as is.
 */
const EMAIL_SHAPE = /^[^\s@,;:<>()[\]\\"\p{Cc}]+@[^\s@,;:<>()[\]\\"\p{Cc}]+$/u;

/**
 * The form of an email address that is stored and compared: trimmed and lower-cased (people type their address
 * in whatever case; mailboxes are case-insensitive in practice). Undefined when it cannot be an address.
 */
export function normalizeEmail(raw: string): string | undefined {
  const email = raw.trim().normalize('NFC').toLowerCase();
  if (email.length > EMAIL_MAX_LENGTH || !EMAIL_SHAPE.test(email)) return undefined;
  const domain = email.slice(email.indexOf('@') + 1);
  if (domain.startsWith('.') || domain.endsWith('.') || domain.includes('..')) return undefined;
  return email;
}

export function isUserRole(value: string): value is UserRole {
  return (USER_ROLES as readonly string[]).includes(value);
}

/** The email, normalized, or InvalidEmailError. */
export function requireEmail(raw: string): string {
  const email = normalizeEmail(raw);
  if (email === undefined) throw new InvalidEmailError();
  return email;
}

/** The new password, or UnacceptablePasswordError with the sentence saying why. */
export function requireAcceptablePassword(password: string): string {
  const problem = checkNewPassword(password);
  if (problem !== undefined) throw new UnacceptablePasswordError(problem);
  return password;
}

export async function createUser(
  db: Db,
  input: { accountId: string; email: string; role: UserRole; password: string },
): Promise<User> {
  const email = requireEmail(input.email);
  const passwordHash = await hashPassword(requireAcceptablePassword(input.password));
  return insertUser(db, { accountId: input.accountId, email, role: input.role, passwordHash });
}

/**
 * Inserts a user whose email is already normalized and password already hashed (callers hash before opening a
 * transaction: hashing takes far longer than the insert). ON CONFLICT instead of catching the unique violation,
 * so a taken email does not abort the caller's transaction before it can answer.
 */
export async function insertUser(
  db: Db,
  input: { accountId: string; email: string; role: UserRole; passwordHash: string },
): Promise<User> {
  const row = await db
    .insertInto('users')
    .values({ id: newId('usr'), account_id: input.accountId, email: input.email, role: input.role, password_hash: input.passwordHash })
    .onConflict((oc) => oc.column('email').doNothing())
    .returning(['id', 'account_id', 'email', 'role', 'created_at'])
    .executeTakeFirst();
  if (!row) throw new EmailTakenError();
  return toUser(row);
}

export async function getUser(db: Db, userId: string): Promise<User | undefined> {
  const row = await db
    .selectFrom('users')
    .select(['id', 'account_id', 'email', 'role', 'created_at'])
    .where('id', '=', userId)
    .executeTakeFirst();
  return row && toUser(row);
}

/** The user with this email (any form the person typed), or undefined. */
export async function findUserByEmail(db: Db, rawEmail: string): Promise<User | undefined> {
  const email = normalizeEmail(rawEmail);
  if (email === undefined) return undefined;
  const row = await db
    .selectFrom('users')
    .select(['id', 'account_id', 'email', 'role', 'created_at'])
    .where('email', '=', email)
    .executeTakeFirst();
  return row && toUser(row);
}

/** The account's people, owners first, then in the order they joined. */
export async function listUsers(db: Db, accountId: string): Promise<User[]> {
  const rows = await db
    .selectFrom('users')
    .select(['id', 'account_id', 'email', 'role', 'created_at'])
    .where('account_id', '=', accountId)
    .orderBy(sql`role = 'owner'`, 'desc')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toUser);
}

/**
 * The user whose email and password these are, or undefined. Runs exactly one argon2 verify whatever happens
 * (against DUMMY_HASH for an unknown or malformed email), so the answer's timing does not tell whether the email
 * has an account. The login limit is the caller's (login-limit.ts), checked before this.
 */
export async function authenticateUser(db: Db, input: { email: string; password: string }): Promise<User | undefined> {
  const email = normalizeEmail(input.email);
  const row =
    email === undefined
      ? undefined
      : await db
          .selectFrom('users')
          .select(['id', 'account_id', 'email', 'role', 'created_at', 'password_hash'])
          .where('email', '=', email)
          .executeTakeFirst();
  if (!row) {
    await verifyDummyPassword(input.password);
    return undefined;
  }
  return (await verifyPassword(row.password_hash, input.password)) ? toUser(row) : undefined;
}

/**
 * Changes a password after checking the current one. Ending the user's other sessions is the caller's job: it
 * knows which session is making the request (sessions.ts endAllSessions with `except`).
 */
export async function changePassword(db: Db, input: { userId: string; currentPassword: string; newPassword: string }): Promise<void> {
  requireAcceptablePassword(input.newPassword);
  const row = await db.selectFrom('users').select('password_hash').where('id', '=', input.userId).executeTakeFirst();
  if (!row) throw new UserNotFoundError();
  if (!(await verifyPassword(row.password_hash, input.currentPassword))) throw new WrongPasswordError();
  await setPasswordHash(db, input.userId, await hashPassword(input.newPassword));
}

/** Stores a new password hash and when it changed (shown to the person; sessions older than it can be judged). */
export async function setPasswordHash(db: Db, userId: string, passwordHash: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ password_hash: passwordHash, password_changed_at: sql<Date>`now()` })
    .where('id', '=', userId)
    .execute();
}

/** Makes a person owner or member; refuses (LastOwnerError) to demote the account's last owner. */
export async function setUserRole(db: Db, input: { accountId: string; userId: string; role: UserRole }): Promise<User> {
  return inTransaction(db, async (trx) => {
    const { user, owners } = await lockPeople(trx, input);
    if (user.role === 'owner' && input.role !== 'owner' && owners <= 1) throw new LastOwnerError();
    const row = await trx
      .updateTable('users')
      .set({ role: input.role })
      .where('id', '=', user.id)
      .returning(['id', 'account_id', 'email', 'role', 'created_at'])
      .executeTakeFirstOrThrow();
    return toUser(row);
  });
}

/** Removes a person (their sessions and reset links go with them); refuses to remove the account's last owner. */
export async function removeUser(db: Db, input: { accountId: string; userId: string }): Promise<User> {
  return inTransaction(db, async (trx) => {
    const { user, owners } = await lockPeople(trx, input);
    if (user.role === 'owner' && owners <= 1) throw new LastOwnerError();
    await trx.deleteFrom('users').where('id', '=', user.id).execute();
    return user;
  });
}

/**
 * Locks the account row, so role changes and removals in one account run one at a time: two owners demoting each
 * other at once would otherwise both see "two owners" and leave none. Then reads the target and the owner count.
 */
async function lockPeople(db: Db, input: { accountId: string; userId: string }): Promise<{ user: User; owners: number }> {
  await db.selectFrom('accounts').select('id').where('id', '=', input.accountId).forUpdate().executeTakeFirst();
  const row = await db
    .selectFrom('users')
    .select(['id', 'account_id', 'email', 'role', 'created_at'])
    .select((eb) =>
      eb
        .selectFrom('users as owners')
        .select(eb.fn.countAll<string>().as('n'))
        .where('owners.account_id', '=', input.accountId)
        .where('owners.role', '=', 'owner')
        .as('owners'),
    )
    .where('id', '=', input.userId)
    .where('account_id', '=', input.accountId)
    .executeTakeFirst();
  if (!row) throw new UserNotFoundError();
  return { user: toUser(row), owners: Number(row.owners) };
}

function toUser(row: { id: string; account_id: string; email: string; role: UserRole; created_at: Date }): User {
  return { id: row.id, accountId: row.account_id, email: row.email, role: row.role, createdAt: row.created_at };
}
