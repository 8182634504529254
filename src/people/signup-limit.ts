import { sql } from 'kysely';
import type { Db } from '../db/schema/index.js';
import { ipKey, LOGIN_LIMIT_WINDOW_MS } from './login-limit.js';

/**
 * New accounts one address may open through /signup (SIGNUP=open) per LOGIN_LIMIT_WINDOW_MS. Without a limit a
 * script could open accounts without end, each with its codes, keys and webhooks, and fill the database. Five in a
 * quarter of an hour leaves room for an office behind one address; the next waits until the oldest ages out.
 */
export const SIGNUPS_PER_IP = 5;

export interface SignupSlot {
  limited: boolean;
  /** 0 when not limited; else when the oldest sign-up that keeps the limit reached leaves the window. */
  retryAfterSeconds: number;
  /** This sign-up's row (none when refused): released when the sign-up fails after all (a taken email). */
  id?: string;
}

/**
 * Counts this sign-up against its address *before* the account is made, then reads the count with it included,
 * the same race-free order as beginLoginAttempt: a burst of parallel requests cannot all pass a check made before
 * any of them was written. The rows live with the failed sign-ins (`login_failures`, keyed by what they count
 * against), which are pruned once they leave the same window.
 */
export async function takeSignupSlot(db: Db, ip: string): Promise<SignupSlot> {
  const key = signupKey(ip);
  const { id } = await db.insertInto('login_failures').values({ key }).returning('id').executeTakeFirstOrThrow();
  const window = sql`make_interval(secs => ${LOGIN_LIMIT_WINDOW_MS / 1000})`;
  // With this one counted, the limit is passed when a (limit + 1)-th newest sign-up is still in the window.
  const { rows } = await sql<{ blocking_at: Date | null; now: Date }>`
    select (select at from login_failures where key = ${key} and at > now() - ${window}
            order by at desc offset ${SIGNUPS_PER_IP} limit 1) as blocking_at,
           now() as now`.execute(db);
  const { blocking_at: blockingAt, now } = rows[0]!;
  if (blockingAt === null) return { limited: false, retryAfterSeconds: 0, id };
  await releaseSignupSlot(db, id);
  return { limited: true, retryAfterSeconds: Math.max(1, Math.ceil((blockingAt.getTime() + LOGIN_LIMIT_WINDOW_MS - now.getTime()) / 1000)) };
}

/** A sign-up that did not make an account does not count. */
export async function releaseSignupSlot(db: Db, id: string): Promise<void> {
  await db.deleteFrom('login_failures').where('id', '=', id).execute();
}

/** `signup-ip:` + the address, grouped as the sign-in limit groups them (IPv6 by its /64). */
function signupKey(ip: string): string {
  return `signup-${ipKey(ip)}`;
}
