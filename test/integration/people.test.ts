import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAccount, InvalidAccountNameError, parseAccountName } from '../../src/accounts/account-service.js';
import {
  EmailTakenError,
  InvalidEmailError,
  InvitationInvalidError,
  InvitationMailLimitError,
  LastOwnerError,
  ResetLinkInvalidError,
  SignupLinkInvalidError,
  UnacceptablePasswordError,
  WrongPasswordError,
} from '../../src/people/errors.js';
import {
  acceptInvitation,
  createInvitation,
  findPendingInvitation,
  listPendingInvitations,
  revokeInvitation,
} from '../../src/people/invitations.js';
import {
  beginLoginAttempt,
  clearLoginFailures,
  isLoginLimited,
  loginSucceeded,
  LOGIN_FAILURES_PER_EMAIL,
  LOGIN_FAILURES_PER_IP,
  recordLoginFailure,
} from '../../src/people/login-limit.js';
import { INVITATION_MAILS_PER_ACCOUNT } from '../../src/people/invitation-limit.js';
import { hashLinkToken, newLinkToken } from '../../src/people/tokens.js';
import { newId } from '../../src/ids.js';
import { createPasswordReset, isPasswordResetValid, PASSWORD_RESET_MAIL_INTERVAL_MS, resetPassword } from '../../src/people/password-resets.js';
import { createSession, findSession } from '../../src/people/sessions.js';
import { signUp } from '../../src/people/signup.js';
import { confirmSignup, requestSignup, SIGNUP_MAILS_PER_ADDRESS } from '../../src/people/signup-requests.js';
import { releaseSignupSlot, type SignupSlot, SIGNUPS_PER_IP, takeSignupSlot } from '../../src/people/signup-limit.js';
import {
  authenticateUser,
  changePassword,
  createUser,
  listUsers,
  normalizeEmail,
  removeUser,
  setUserRole,
} from '../../src/people/users.js';
import { type TestDatabase, useTestDatabase, waitsForLock } from '../support/database.js';

const SITE = 'https://qr.test';
const PASSWORD = 'correct horse battery';
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const LIFETIME = { idleMs: 12 * 60 * MINUTE, maxMs: 30 * DAY };

/** The token at the end of a one-time link. */
const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);

describe('people', () => {
  let database: TestDatabase;
  let db: TestDatabase['db'];
  let accountId: string;
  let serial = 0;
  /** A fresh, unused email per call, so tests do not collide on the global unique email. */
  const freshEmail = () => `person${++serial}-${Date.now()}@example.com`;

  useTestDatabase((created) => (database = created));
  beforeAll(async () => {
    db = database.db;
    accountId = (await createAccount(db, { name: 'Acme & Co <b>', plan: 'business' })).id;
  });

  describe('email addresses', () => {
    it('are trimmed and lower-cased, and the same person signs in however they type theirs', async () => {
      expect(normalizeEmail('  Ada.Lovelace@Example.COM ')).toBe('ada.lovelace@example.com');
      const user = await createUser(db, { accountId, email: ' Grace@Example.com', role: 'member', password: PASSWORD });
      expect(user.email).toBe('grace@example.com');
      expect(await authenticateUser(db, { email: 'GRACE@example.com  ', password: PASSWORD })).toMatchObject({ id: user.id });
    });

    it('refuses what cannot be one address', () => {
      for (const bad of ['', 'no-at.example.com', 'two@@example.com', 'a@b@example.com', 'sp ace@example.com', '@example.com',
        'name@', 'a@example.com,b@example.com', 'a@example..com', 'a@.example.com', 'a\n@example.com', `${'x'.repeat(250)}@e.com`]) {
        expect(normalizeEmail(bad), JSON.stringify(bad)).toBeUndefined();
      }
      expect(normalizeEmail(`${'x'.repeat(240)}@example.com`)).toBeDefined();
    });

    it('belong to one person across all accounts', async () => {
      const email = freshEmail();
      await createUser(db, { accountId, email, role: 'member', password: PASSWORD });
      const other = await createAccount(db, { name: 'Other', plan: 'free' });
      await expect(createUser(db, { accountId: other.id, email: email.toUpperCase(), role: 'owner', password: PASSWORD })).rejects.toThrow(EmailTakenError);
      await expect(createUser(db, { accountId, email: 'not an email', role: 'member', password: PASSWORD })).rejects.toThrow(InvalidEmailError);
    });
  });

  describe('signing in', () => {
    it('accepts the right password only, and spends one password check on an unknown email too', async () => {
      const email = freshEmail();
      const user = await createUser(db, { accountId, email, role: 'member', password: PASSWORD });
      expect(await authenticateUser(db, { email, password: PASSWORD })).toEqual({
        id: user.id, accountId, email, role: 'member', createdAt: user.createdAt,
      });
      expect(await authenticateUser(db, { email, password: `${PASSWORD}!` })).toBeUndefined();
      expect(await authenticateUser(db, { email: freshEmail(), password: PASSWORD })).toBeUndefined();

      // Timing: an unknown email must not answer measurably faster than a known one with a wrong password (without
      // the dummy verify it is about 10 times faster). The best of 7 of each, taken in turns so both see the same
      // moments of a busy machine (one after the other, a burst of load during the known ones failed it at 0.36),
      // with a wide margin.
      const timed = async (who: string) => {
        const started = performance.now();
        await authenticateUser(db, { email: who, password: 'wrong password here' });
        return performance.now() - started;
      };
      let known = Infinity;
      let unknown = Infinity;
      for (let i = 0; i < 7; i++) {
        known = Math.min(known, await timed(email));
        unknown = Math.min(unknown, await timed(freshEmail()));
      }
      expect(unknown).toBeGreaterThan(known * 0.4);
    });

    it('changes a password only with the current one, and refuses a short new one', async () => {
      const email = freshEmail();
      const user = await createUser(db, { accountId, email, role: 'member', password: PASSWORD });
      await expect(changePassword(db, { userId: user.id, currentPassword: 'wrong password', newPassword: 'a new long password' }))
        .rejects.toThrow(WrongPasswordError);
      await expect(changePassword(db, { userId: user.id, currentPassword: PASSWORD, newPassword: 'short' }))
        .rejects.toThrow(UnacceptablePasswordError);
      await changePassword(db, { userId: user.id, currentPassword: PASSWORD, newPassword: 'a new long password' });
      expect(await authenticateUser(db, { email, password: PASSWORD })).toBeUndefined();
      expect(await authenticateUser(db, { email, password: 'a new long password' })).toMatchObject({ id: user.id });
    });
  });

  describe('invitations', () => {
    it('are accepted once: the link creates the person with the invited email and role, then is dead', async () => {
      const email = freshEmail();
      const invitation = await createInvitation(db, { accountId, email: email.toUpperCase(), role: 'member', siteUrl: SITE });
      expect(invitation).toMatchObject({ id: expect.stringMatching(/^inv_/), accountId, email, role: 'member' });
      expect(invitation.url).toMatch(/^https:\/\/qr\.test\/invitations\/[A-Za-z0-9_-]{43}$/);
      const token = tokenOf(invitation.url);
      expect(await findPendingInvitation(db, token)).toMatchObject({ id: invitation.id, accountName: 'Acme & Co <b>', email, role: 'member' });
      // Only the hash is stored.
      const stored = await db.selectFrom('invitations').select('token_hash').where('id', '=', invitation.id).executeTakeFirstOrThrow();
      expect(stored.token_hash.toString('base64url')).not.toBe(token);

      await expect(acceptInvitation(db, { token, password: 'short' })).rejects.toThrow(UnacceptablePasswordError);
      const user = await acceptInvitation(db, { token, password: PASSWORD });
      expect(user).toMatchObject({ accountId, email, role: 'member' });
      expect(await authenticateUser(db, { email, password: PASSWORD })).toMatchObject({ id: user.id });
      await expect(acceptInvitation(db, { token, password: PASSWORD })).rejects.toThrow(InvitationInvalidError);
      expect(await findPendingInvitation(db, token)).toBeUndefined();
    });

    it('accepted a second time while the first acceptance is still committing: the second fails, one person exists', async () => {
      const email = freshEmail();
      const token = tokenOf((await createInvitation(db, { accountId, email, role: 'owner', siteUrl: SITE })).url);
      let second: Promise<unknown> | undefined;
      await db.transaction().execute(async (trx) => {
        await acceptInvitation(trx, { token, password: PASSWORD });
        second = acceptInvitation(db, { token, password: 'another good password' }).catch((error: unknown) => error);
        // The second acceptance is waiting on the first's lock before the first commits.
        await expect.poll(async () => {
          const { rows } = await sql<{ n: number }>`
            select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`.execute(db);
          return rows[0]!.n;
        }).toBe(1);
      });
      expect(await second).toBeInstanceOf(InvitationInvalidError);
      const { n } = await db.selectFrom('users').select((eb) => eb.fn.countAll<string>().as('n')).where('email', '=', email).executeTakeFirstOrThrow();
      expect(Number(n)).toBe(1);
    });

    it('expire after 7 days', async () => {
      const now = new Date('2030-01-01T00:00:00Z');
      const invitation = await createInvitation(db, { accountId, email: freshEmail(), role: 'member', siteUrl: SITE, now });
      expect(invitation.expiresAt).toEqual(new Date('2030-01-08T00:00:00Z'));
      const token = tokenOf(invitation.url);
      expect(await findPendingInvitation(db, token, new Date(now.getTime() + 7 * DAY - 1000))).toBeDefined();
      const later = new Date(now.getTime() + 7 * DAY + 1000);
      expect(await findPendingInvitation(db, token, later)).toBeUndefined();
      await expect(acceptInvitation(db, { token, password: PASSWORD, now: later })).rejects.toThrow(InvitationInvalidError);
    });

    it('a new invitation of the same email replaces the earlier link; revoked ones are dead', async () => {
      const email = freshEmail();
      const first = await createInvitation(db, { accountId, email, role: 'member', siteUrl: SITE });
      const second = await createInvitation(db, { accountId, email, role: 'owner', siteUrl: SITE });
      expect(await findPendingInvitation(db, tokenOf(first.url))).toBeUndefined();
      const pending = await listPendingInvitations(db, accountId);
      expect(pending.filter((p) => p.email === email).map((p) => p.id)).toEqual([second.id]);

      expect(await revokeInvitation(db, { accountId: 'acc_someone_else', invitationId: second.id })).toBe(false);
      expect(await revokeInvitation(db, { accountId, invitationId: second.id })).toBe(true);
      await expect(acceptInvitation(db, { token: tokenOf(second.url), password: PASSWORD })).rejects.toThrow(InvitationInvalidError);
    });

    it('are refused for an email that already has a person, and fail to accept if it got one since', async () => {
      const email = freshEmail();
      const invitation = await createInvitation(db, { accountId, email, role: 'member', siteUrl: SITE });
      await createUser(db, { accountId, email, role: 'member', password: PASSWORD });
      await expect(createInvitation(db, { accountId, email, role: 'member', siteUrl: SITE })).rejects.toThrow(EmailTakenError);
      await expect(acceptInvitation(db, { token: tokenOf(invitation.url), password: PASSWORD })).rejects.toThrow(EmailTakenError);
      // The failed acceptance left the invitation as it was (its transaction rolled back).
      expect(await findPendingInvitation(db, tokenOf(invitation.url))).toBeDefined();
    });

    it('know nothing of malformed or unknown tokens', async () => {
      expect(await findPendingInvitation(db, 'x')).toBeUndefined();
      expect(await findPendingInvitation(db, 'A'.repeat(43))).toBeUndefined();
    });

    it('refused past the hourly limit behind a request that held its lock, say a wait of at most the hour', async () => {
      const account = (await createAccount(db, { name: 'Burst', plan: 'business' })).id;
      let refused: Promise<unknown> = Promise.resolve();
      // Another request holds the limit's lock when this one starts, and writes the hour's last allowed mails after.
      await db.transaction().execute(async (trx) => {
        await trx.selectFrom('accounts').select('id').where('id', '=', account).forUpdate().execute();
        refused = createInvitation(db, { accountId: account, email: freshEmail(), role: 'member', siteUrl: SITE, limitMails: true }).then(
          () => undefined,
          (error: unknown) => error,
        );
        await expect.poll(() => waitsForLock(db, { queryLike: '%for update%' })).toBe(true);
        for (let i = 0; i < INVITATION_MAILS_PER_ACCOUNT; i++) {
          const now = new Date();
          await trx.insertInto('invitations').values({
            id: newId('inv'), account_id: account, email: freshEmail(), role: 'member', token_hash: hashLinkToken(newLinkToken()),
            invited_by_user_id: null, created_at: now, expires_at: new Date(now.getTime() + DAY),
          }).execute();
        }
      });
      const error = await refused;
      expect(error).toBeInstanceOf(InvitationMailLimitError);
      // Dated when it started, it would be told the hour and the time it waited: 3,601 s, "61 minutes".
      expect((error as InvitationMailLimitError).retryAfterSeconds).toBeLessThanOrEqual(3_600);
      expect((error as InvitationMailLimitError).retryAfterSeconds).toBeGreaterThan(3_500);
    });
  });

  describe('owners', () => {
    it('the last owner can be neither demoted nor removed; with two, one can', async () => {
      const account = await createAccount(db, { name: 'Owned', plan: 'business' });
      const first = await createUser(db, { accountId: account.id, email: freshEmail(), role: 'owner', password: PASSWORD });
      const member = await createUser(db, { accountId: account.id, email: freshEmail(), role: 'member', password: PASSWORD });
      await expect(setUserRole(db, { accountId: account.id, userId: first.id, role: 'member' })).rejects.toThrow(LastOwnerError);
      await expect(removeUser(db, { accountId: account.id, userId: first.id })).rejects.toThrow(LastOwnerError);

      await setUserRole(db, { accountId: account.id, userId: member.id, role: 'owner' });
      expect(await setUserRole(db, { accountId: account.id, userId: first.id, role: 'member' })).toMatchObject({ role: 'member' });
      await removeUser(db, { accountId: account.id, userId: first.id });
      expect((await listUsers(db, account.id)).map((u) => [u.id, u.role])).toEqual([[member.id, 'owner']]);
    });

    it('two owners demoting each other at once leave one owner', async () => {
      const account = await createAccount(db, { name: 'Race', plan: 'business' });
      const a = await createUser(db, { accountId: account.id, email: freshEmail(), role: 'owner', password: PASSWORD });
      const b = await createUser(db, { accountId: account.id, email: freshEmail(), role: 'owner', password: PASSWORD });
      const results = await Promise.allSettled([
        setUserRole(db, { accountId: account.id, userId: a.id, role: 'member' }),
        setUserRole(db, { accountId: account.id, userId: b.id, role: 'member' }),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
      expect((await listUsers(db, account.id)).filter((u) => u.role === 'owner')).toHaveLength(1);
    });
  });

  describe('password resets', () => {
    it('set the new password and end every session of the person, once', async () => {
      const email = freshEmail();
      const user = await createUser(db, { accountId, email, role: 'member', password: PASSWORD });
      const laptop = await createSession(db, { userId: user.id, lifetime: LIFETIME });
      const phone = await createSession(db, { userId: user.id, lifetime: LIFETIME });
      expect(await findSession(db, laptop.token, LIFETIME)).toBeDefined();

      expect(await createPasswordReset(db, { email: freshEmail(), siteUrl: SITE })).toBeUndefined();
      const earlier = await createPasswordReset(db, { email: email.toUpperCase(), siteUrl: SITE });
      const reset = (await createPasswordReset(db, { email, siteUrl: SITE }))!;
      expect(reset.user.id).toBe(user.id);
      expect(reset.url).toMatch(/^https:\/\/qr\.test\/password-reset\/[A-Za-z0-9_-]{43}$/);
      await expect(resetPassword(db, { token: tokenOf(earlier!.url), newPassword: 'a brand new password' })).rejects.toThrow(ResetLinkInvalidError);

      await resetPassword(db, { token: tokenOf(reset.url), newPassword: 'a brand new password' });
      expect(await findSession(db, laptop.token, LIFETIME)).toBeUndefined();
      expect(await findSession(db, phone.token, LIFETIME)).toBeUndefined();
      expect(await authenticateUser(db, { email, password: PASSWORD })).toBeUndefined();
      expect(await authenticateUser(db, { email, password: 'a brand new password' })).toMatchObject({ id: user.id });
      await expect(resetPassword(db, { token: tokenOf(reset.url), newPassword: 'yet another password' })).rejects.toThrow(ResetLinkInvalidError);
    });

    it('expire after an hour', async () => {
      const email = freshEmail();
      await createUser(db, { accountId, email, role: 'member', password: PASSWORD });
      const now = new Date();
      const reset = (await createPasswordReset(db, { email, siteUrl: SITE, now }))!;
      expect(reset.expiresAt.getTime() - now.getTime()).toBe(60 * MINUTE);
      await expect(resetPassword(db, { token: tokenOf(reset.url), newPassword: 'a brand new password', now: new Date(now.getTime() + 61 * MINUTE) }))
        .rejects.toThrow(ResetLinkInvalidError);
    });
  });

  describe('password reset mails from the public form', () => {
    it(`make one link per person per ${PASSWORD_RESET_MAIL_INTERVAL_MS / MINUTE} minutes, and leave the first one working`, async () => {
      const email = freshEmail();
      await createUser(db, { accountId, email, role: 'member', password: PASSWORD });
      const asked = (minutesFromNow: number) =>
        createPasswordReset(db, { email, siteUrl: SITE, now: new Date(Date.now() + minutesFromNow * MINUTE), unlessLinkNewerThanMs: PASSWORD_RESET_MAIL_INTERVAL_MS });
      const first = (await asked(0))!;
      expect(await asked(1)).toBeUndefined();
      expect(await asked(4.9)).toBeUndefined();
      expect(await isPasswordResetValid(db, tokenOf(first.url))).toBe(true);
      const later = (await asked(5.1))!;
      expect(later.url).not.toBe(first.url);
      expect(await isPasswordResetValid(db, tokenOf(first.url))).toBe(false);
      // An owner handing over a link is not held back.
      expect(await createPasswordReset(db, { email, siteUrl: SITE })).toBeDefined();
    });

    it('make one link when the form is sent many times at once', async () => {
      // Several rounds: the first may run one request after another while the pool opens its connections.
      for (let round = 0; round < 4; round++) {
        const email = freshEmail();
        await createUser(db, { accountId, email, role: 'member', password: PASSWORD });
        const results = await Promise.all(Array.from({ length: 8 }, () =>
          createPasswordReset(db, { email, siteUrl: SITE, unlessLinkNewerThanMs: PASSWORD_RESET_MAIL_INTERVAL_MS })));
        expect(results.filter((reset) => reset !== undefined), `round ${round}`).toHaveLength(1);
      }
    });
  });

  describe('sign-up limit', () => {
    it(`lets one address open ${SIGNUPS_PER_IP} accounts in 15 minutes, never more when they arrive at once; a released one does not count`, async () => {
      // Several rounds, each from its own address: the first may run one request after another while the pool connects.
      for (let round = 0; round < 3; round++) {
        const ip = `198.51.100.${200 + round}`;
        const burst = await Promise.all(Array.from({ length: SIGNUPS_PER_IP + 4 }, () => takeSignupSlot(db, ip)));
        // Requests that interleave may refuse each other (fewer pass, never more); one after another fill the rest.
        let taken = burst.filter((slot) => !slot.limited).length;
        expect(taken, `round ${round}`).toBeLessThanOrEqual(SIGNUPS_PER_IP);
        let refused: SignupSlot | undefined;
        for (let i = 0; i < SIGNUPS_PER_IP * 2 && !refused; i++) {
          const slot = await takeSignupSlot(db, ip);
          if (slot.limited) refused = slot;
          else taken++;
        }
        expect(taken, `round ${round}`).toBe(SIGNUPS_PER_IP);
        expect(refused!.retryAfterSeconds).toBeGreaterThan(14 * 60);
        expect(refused!.retryAfterSeconds).toBeLessThanOrEqual(15 * 60);
      }
      // Another address is not held back; a sign-up that failed gives its place back.
      const other = await takeSignupSlot(db, '203.0.113.50');
      expect(other.limited).toBe(false);
      for (let i = 1; i < SIGNUPS_PER_IP; i++) expect((await takeSignupSlot(db, '203.0.113.50')).limited).toBe(false);
      expect((await takeSignupSlot(db, '203.0.113.50')).limited).toBe(true);
      await releaseSignupSlot(db, other.id!);
      expect((await takeSignupSlot(db, '203.0.113.50')).limited).toBe(false);
    });
  });

  describe('login limit', () => {
    const at = (minutesFromNow: number) => new Date(Date.now() + minutesFromNow * MINUTE);

    it(`refuses an email after ${LOGIN_FAILURES_PER_EMAIL} failures in 15 minutes, from any address, until they age out`, async () => {
      const email = freshEmail();
      for (let i = 0; i < LOGIN_FAILURES_PER_EMAIL - 1; i++) await recordLoginFailure(db, { ip: `198.51.100.${i}`, email });
      expect(await isLoginLimited(db, { ip: '203.0.113.9', email })).toEqual({ limited: false, retryAfterSeconds: 0 });
      await recordLoginFailure(db, { ip: '198.51.100.77', email: ` ${email.toUpperCase()}` });
      const limit = await isLoginLimited(db, { ip: '203.0.113.9', email });
      expect(limit.limited).toBe(true);
      expect(limit.retryAfterSeconds).toBeGreaterThan(14 * 60);
      expect(limit.retryAfterSeconds).toBeLessThanOrEqual(15 * 60);
      // Another email from the same addresses is not affected.
      expect((await isLoginLimited(db, { ip: '198.51.100.1', email: freshEmail() })).limited).toBe(false);
      expect((await isLoginLimited(db, { ip: '203.0.113.9', email }, at(14))).limited).toBe(true);
      expect((await isLoginLimited(db, { ip: '203.0.113.9', email }, at(16))).limited).toBe(false);
      await clearLoginFailures(db, { email });
      expect((await isLoginLimited(db, { ip: '203.0.113.9', email })).limited).toBe(false);
    });

    it(`refuses an address after ${LOGIN_FAILURES_PER_IP} failures in 15 minutes, whatever the emails; IPv6 counts by /64`, async () => {
      const rows = Array.from({ length: LOGIN_FAILURES_PER_IP }, (_, i) => ({ ip: i % 2 ? '2001:db8:1:2::a' : `2001:db8:1:2::${i + 100}`, email: freshEmail() }));
      for (const row of rows.slice(1)) await recordLoginFailure(db, row);
      expect((await isLoginLimited(db, { ip: '2001:db8:1:2:ffff::1', email: freshEmail() })).limited).toBe(false);
      await recordLoginFailure(db, rows[0]!);
      expect(await isLoginLimited(db, { ip: '2001:db8:1:2:ffff::1', email: freshEmail() })).toMatchObject({ limited: true });
      expect((await isLoginLimited(db, { ip: '2001:db8:1:3::1', email: freshEmail() })).limited).toBe(false);
      // Clearing an email (a successful sign-in) does not forgive the address.
      await clearLoginFailures(db, { email: rows[0]!.email });
      expect((await isLoginLimited(db, { ip: '2001:db8:1:2::a', email: freshEmail() })).limited).toBe(true);
    });

    it(`lets at most ${LOGIN_FAILURES_PER_EMAIL} of a burst of parallel attempts on one email check a password`, async () => {
      const email = freshEmail();
      const attempts = await Promise.all(Array.from({ length: 20 }, (_, i) => beginLoginAttempt(db, { ip: `198.51.100.${i}`, email })));
      // When all 20 insert before any counts, none is admitted: the limit errs on the closed side, never the open.
      const admitted = attempts.filter((attempt) => !attempt.limited);
      expect(admitted.length).toBeLessThanOrEqual(LOGIN_FAILURES_PER_EMAIL);
      for (const refused of attempts.filter((attempt) => attempt.limited)) {
        expect(refused).toMatchObject({ failureIds: [], retryAfterSeconds: expect.any(Number) });
      }
      // Refused attempts checked no password and took their rows back; admitted ones count as failures until told.
      const counted = await db.selectFrom('login_failures').select('id').where('key', '=', `email:${email}`).execute();
      expect(counted).toHaveLength(admitted.length);
    });

    it('after a right password, forgives the email and takes the attempt back from the address', async () => {
      const email = freshEmail();
      await recordLoginFailure(db, { ip: '192.0.2.200', email });
      const attempt = await beginLoginAttempt(db, { ip: '192.0.2.201', email });
      expect(attempt).toMatchObject({ limited: false, failureIds: [expect.anything(), expect.anything()] });
      await loginSucceeded(db, { email, failureIds: attempt.failureIds });
      const left = await db.selectFrom('login_failures').select('key').where('key', 'in', ['ip:192.0.2.200', 'ip:192.0.2.201', `email:${email}`]).execute();
      expect(left).toEqual([{ key: 'ip:192.0.2.200' }]);
    });

    it('counts an IPv4 address the same whether it arrives as IPv4 or IPv4-mapped IPv6', async () => {
      for (let i = 0; i < LOGIN_FAILURES_PER_IP; i++) await recordLoginFailure(db, { ip: '::ffff:192.0.2.44', email: freshEmail() });
      expect((await isLoginLimited(db, { ip: '192.0.2.44', email: freshEmail() })).limited).toBe(true);
    });
  });

  describe('sign-up', () => {
    it('creates an account on the given plan with its owner, or nothing when the email is taken', async () => {
      const email = freshEmail();
      const { account, user } = await signUp(db, { accountName: '  Bakery ', email, password: PASSWORD, plan: 'free' });
      expect(account).toMatchObject({ name: 'Bakery', plan: 'free' });
      expect(user).toMatchObject({ accountId: account.id, email, role: 'owner' });

      const before = await sql<{ n: number }>`select count(*)::int as n from accounts`.execute(db);
      await expect(signUp(db, { accountName: 'Copycat', email, password: PASSWORD, plan: 'free' })).rejects.toThrow(EmailTakenError);
      const after = await sql<{ n: number }>`select count(*)::int as n from accounts`.execute(db);
      expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
    });
  });

  describe('sign-up requests', () => {
    const MINUTE = 60_000;
    it(`mail one address at most ${SIGNUP_MAILS_PER_ADDRESS} times a day, a link or a notice, counted in the database`, async () => {
      const email = freshEmail();
      const start = Date.now();
      const at = (ms: number) => ({ accountName: 'Shop', email, siteUrl: 'https://qr.test', now: new Date(start + ms) });
      // One every 6 minutes: past the 5-minute quiet interval each time.
      const kinds = [];
      for (let i = 0; i <= SIGNUP_MAILS_PER_ADDRESS; i++) kinds.push((await requestSignup(db, at(i * 6 * MINUTE))).kind);
      expect(kinds).toEqual([...Array<string>(SIGNUP_MAILS_PER_ADDRESS).fill('confirm'), 'quiet']);
      // A day after the first, one more may go.
      expect((await requestSignup(db, at(24 * 60 * MINUTE + 1000))).kind).toBe('confirm');
      // An address with a user gets notices under the same bound.
      const taken = freshEmail();
      await signUp(db, { accountName: 'Owner', email: taken, password: PASSWORD, plan: 'free' });
      const notices = [];
      for (let i = 0; i <= SIGNUP_MAILS_PER_ADDRESS; i++) notices.push((await requestSignup(db, { ...at(i * 6 * MINUTE), email: taken })).kind);
      expect(notices).toEqual([...Array<string>(SIGNUP_MAILS_PER_ADDRESS).fill('taken'), 'quiet']);
    });

    it("keep each mailed link working when the address is named again, the name only proposed, the password the link holder's", async () => {
      const email = freshEmail();
      const now = Date.now();
      const first = await requestSignup(db, { accountName: 'Owner Co', email, siteUrl: 'https://qr.test', now: new Date(now - 10 * MINUTE) });
      const second = await requestSignup(db, { accountName: 'Someone Else', email, siteUrl: 'https://qr.test' });
      if (first.kind !== 'confirm' || second.kind !== 'confirm') throw new Error('expected two links');
      const token = first.url.split('/').pop()!;
      const { account } = await confirmSignup(db, { token, accountName: 'Owner Co', password: PASSWORD, plan: 'free' });
      expect(account.name).toBe('Owner Co');
      expect(await authenticateUser(db, { email, password: PASSWORD })).toBeDefined();
      // The other link made nothing and is dead now.
      await expect(confirmSignup(db, { token: second.url.split('/').pop()!, accountName: 'Someone Else', password: PASSWORD, plan: 'free' })).rejects.toThrow(SignupLinkInvalidError);
    });
  });

  describe('account names', () => {
    it('are held to one rule wherever an account is made: trimmed, 1 to 200 code points, visible, one line', async () => {
      const astral = '\u{1D49C}'; // 𝒜: one code point, two UTF-16 units
      expect(parseAccountName(`  ${astral.repeat(200)} `)).toBe(astral.repeat(200));
      for (const name of ['', '\u200b', astral.repeat(201), 'Evil\r\nURGENT', 'Tab\there']) {
        expect(() => parseAccountName(name), JSON.stringify(name)).toThrow(InvalidAccountNameError);
        await expect(createAccount(db, { name, plan: 'free' }), JSON.stringify(name)).rejects.toThrow(InvalidAccountNameError);
      }
      expect((await createAccount(db, { name: ` ${astral.repeat(200)}`, plan: 'free' })).name).toBe(astral.repeat(200));
      expect((await signUp(db, { accountName: astral.repeat(200), email: freshEmail(), password: PASSWORD, plan: 'free' })).account.name).toBe(astral.repeat(200));
    });
  });
});
