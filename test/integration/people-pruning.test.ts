import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/accounts/account-service.js';
import { pruneExpired } from '../../src/maintenance/prune.js';
import { createInvitation } from '../../src/people/invitations.js';
import { hashLinkToken } from '../../src/people/tokens.js';
import { createSession } from '../../src/people/sessions.js';
import { insertUser } from '../../src/people/users.js';
import { type TestDatabase, useTestDatabase } from '../support/database.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const ago = (ms: number) => new Date(Date.now() - ms);
const RETENTION = { webhookDeliveryDays: 30, scanDays: undefined };

describe('pruning what people leave behind', () => {
  let database: TestDatabase;
  let db: TestDatabase['db'];
  let accountId: string;
  let userId: string;

  useTestDatabase((created) => (database = created));
  beforeAll(async () => {
    db = database.db;
    accountId = (await createAccount(db, { name: 'Acme', plan: 'business' })).id;
    // The hash is never checked here: no need to spend an argon2 hash on it.
    userId = (await insertUser(db, { accountId, email: 'owner@example.com', role: 'owner', passwordHash: 'x' })).id;
  });

  async function sessionCreated(msAgo: number, lastSeenMsAgo: number): Promise<string> {
    const { token } = await createSession(db, { userId, lifetime: { idleMs: HOUR, maxMs: 30 * DAY }, now: ago(msAgo) });
    await db.updateTable('sessions').set({ last_seen_at: ago(lastSeenMsAgo) }).where('token_hash', '=', hashLinkToken(token)).execute();
    return token;
  }
  async function tokensLeft(): Promise<string[]> {
    const rows = await db.selectFrom('sessions').select('token_hash').execute();
    return rows.map((row) => row.token_hash.toString('hex'));
  }
  const hex = (token: string) => hashLinkToken(token).toString('hex');

  it('ends sessions past their absolute expiry, and past the idle time only when it is given', async () => {
    await sessionCreated(31 * DAY, MINUTE); // past its absolute expiry
    const idle = await sessionCreated(2 * DAY, 13 * HOUR);
    const fresh = await sessionCreated(2 * DAY, MINUTE);

    expect(await pruneExpired(db, RETENTION)).toMatchObject({ sessions: 1 });
    expect((await tokensLeft()).sort()).toEqual([hex(idle), hex(fresh)].sort());
    expect(await pruneExpired(db, { ...RETENTION, sessionIdleMs: 12 * HOUR })).toMatchObject({ sessions: 1 });
    expect(await tokensLeft()).toEqual([hex(fresh)]);
  });

  it('deletes invitations and reset links 30 days after they ended, and failed sign-ins past the 15-minute window', async () => {
    const invitation = async (email: string, changes: { expires_at?: Date; accepted_at?: Date; revoked_at?: Date }) => {
      const { id } = await createInvitation(db, { accountId, email, role: 'member', siteUrl: 'https://qr.test' });
      if (Object.keys(changes).length > 0) await db.updateTable('invitations').set(changes).where('id', '=', id).execute();
      return id;
    };
    await invitation('expired-long-ago@example.com', { expires_at: ago(31 * DAY) });
    const expiredRecently = await invitation('expired-recently@example.com', { expires_at: ago(29 * DAY) });
    await invitation('accepted-long-ago@example.com', { accepted_at: ago(31 * DAY) });
    await invitation('revoked-long-ago@example.com', { revoked_at: ago(40 * DAY) });
    const pending = await invitation('pending@example.com', {});

    const reset = (user: string, expiresAt: Date, usedAt: Date | null) =>
      db.insertInto('password_resets').values({ token_hash: hashLinkToken(user), user_id: userId, expires_at: expiresAt, used_at: usedAt }).execute();
    await reset('expired-long-ago', ago(31 * DAY), null);
    await reset('used-long-ago', ago(-HOUR), ago(31 * DAY));
    await reset('used-yesterday', ago(DAY), ago(DAY));

    await db.insertInto('login_failures').values([
      { key: 'ip:192.0.2.1', at: ago(16 * MINUTE) },
      { key: 'email:a@example.com', at: ago(16 * MINUTE) },
      { key: 'email:a@example.com', at: ago(14 * MINUTE) },
    ]).execute();

    // Batches of 1: each kind is deleted over several statements and nothing is left behind.
    const counts = await pruneExpired(db, RETENTION, 1);
    expect(counts).toMatchObject({ invitations: 3, passwordResets: 2, loginFailures: 2 });
    const invitationIds = (await db.selectFrom('invitations').select('id').execute()).map((row) => row.id);
    expect(invitationIds.sort()).toEqual([expiredRecently, pending].sort());
    const resets = await db.selectFrom('password_resets').select('token_hash').execute();
    expect(resets.map((row) => row.token_hash.toString('hex'))).toEqual([hex('used-yesterday')]);
    const { rows } = await sql<{ key: string }>`select key from login_failures`.execute(db);
    expect(rows).toEqual([{ key: 'email:a@example.com' }]);
  });

  it('deletes sign-up requests once they expired (their link no longer works and the daily count no longer needs them)', async () => {
    const request = (email: string, expiresAt: Date) =>
      db.insertInto('signup_requests').values({ token_hash: hashLinkToken(email), email, account_name: 'Shop', created_at: new Date(expiresAt.getTime() - DAY), expires_at: expiresAt }).execute();
    await request('expired-a@example.com', ago(MINUTE));
    await request('expired-b@example.com', ago(2 * DAY));
    await request('pending@example.com', ago(-HOUR));
    expect(await pruneExpired(db, RETENTION, 1)).toMatchObject({ signupRequests: 2 });
    expect(await db.selectFrom('signup_requests').select('email').execute()).toEqual([{ email: 'pending@example.com' }]);
  });
});
