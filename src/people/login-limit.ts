import ipaddr from 'ipaddr.js';
import { sql } from 'kysely';
import type { Db } from '../db/schema/index.js';
import { normalizeEmail } from './users.js';

/**
 * The window both limits count failed sign-ins over. 15 minutes is OWASP's usual lockout period: long enough that
 * guessing at the limit's pace is hopeless (5 per 15 min is 480 a day per email), short enough that a person who
 * mistyped five times waits a coffee, not a day (and a password reset clears it).
 */
export const LOGIN_LIMIT_WINDOW_MS = 15 * 60 * 1000;
/** Per email: stops guessing one person's password, from however many addresses. */
export const LOGIN_FAILURES_PER_EMAIL = 5;
/**
 * Per address: stops one address from trying a few passwords on many emails (credential stuffing). Higher than the
 * per-email limit because an office or a carrier's NAT puts many honest people behind one address.
 */
export const LOGIN_FAILURES_PER_IP = 30;

export interface LoginLimit {
  limited: boolean;
  /** 0 when not limited; else when the oldest failure that keeps the limit reached leaves the window. */
  retryAfterSeconds: number;
}

/**
 * Whether sign-in is refused for this address or this email now. Counted in PostgreSQL against the database clock
 * (`now()`), so every instance sees the same failures and the same time; `now` only replaces it in tests.
 */
export async function isLoginLimited(db: Db, input: { ip: string; email: string }, now?: Date): Promise<LoginLimit> {
  return limitState(db, input, now, 0);
}

/** `own`: how many of the failures in the window are the asking attempt's own (beginLoginAttempt counts itself). */
async function limitState(db: Db, input: { ip: string; email: string }, now: Date | undefined, own: number): Promise<LoginLimit> {
  const at = sql<Date>`${now ?? sql`now()`}::timestamptz`;
  const window = sql`make_interval(secs => ${LOGIN_LIMIT_WINDOW_MS / 1000})`;
  // The failure whose leaving the window brings the count below the limit: the limit-th newest one in the window.
  const nthNewest = (key: string, limit: number) => sql<Date | null>`(
    select at from login_failures where key = ${key} and at > ${at} - ${window} order by at desc offset ${limit - 1} limit 1)`;
  const { rows } = await sql<{ email_at: Date | null; ip_at: Date | null; now: Date }>`
    select ${nthNewest(emailKey(input.email), LOGIN_FAILURES_PER_EMAIL + own)} as email_at,
           ${nthNewest(ipKey(input.ip), LOGIN_FAILURES_PER_IP + own)} as ip_at,
           ${at} as now`.execute(db);
  const { email_at: emailAt, ip_at: ipAt, now: databaseNow } = rows[0]!;
  if (emailAt === null && ipAt === null) return { limited: false, retryAfterSeconds: 0 };
  // Both limits may be reached: sign-in opens when the later of the two releases.
  const opensAt = Math.max(emailAt?.getTime() ?? 0, ipAt?.getTime() ?? 0) + LOGIN_LIMIT_WINDOW_MS;
  return { limited: true, retryAfterSeconds: Math.max(1, Math.ceil((opensAt - databaseNow.getTime()) / 1000)) };
}

export interface LoginAttempt extends LoginLimit {
  /** This attempt's rows in login_failures (none when refused): what loginSucceeded takes back. */
  failureIds: string[];
}

/**
 * The race-free way to sign in: counts this attempt as a failure *before* the password is checked, then reads the
 * limits with it included. Check-then-record (isLoginLimited, verify, recordLoginFailure) lets a burst of parallel
 * requests all pass the check before any failure is written, so 1,000 requests at once would be 1,000 guesses;
 * here at most the limit's worth of a burst gets through (fewer, never more, when requests interleave). A refused
 * attempt takes its rows back (it checked no password); after a correct password call loginSucceeded.
 */
export async function beginLoginAttempt(db: Db, input: { ip: string; email: string }): Promise<LoginAttempt> {
  const inserted = await db
    .insertInto('login_failures')
    .values([{ key: ipKey(input.ip) }, { key: emailKey(input.email) }])
    .returning('id')
    .execute();
  const failureIds = inserted.map((row) => row.id);
  const limit = await limitState(db, input, undefined, 1);
  if (!limit.limited) return { ...limit, failureIds };
  await db.deleteFrom('login_failures').where('id', 'in', failureIds).execute();
  return { ...limit, failureIds: [] };
}

/** The password was right: the email's failures are forgiven, and this attempt no longer counts against the address. */
export async function loginSucceeded(db: Db, input: { email: string; failureIds: string[] }): Promise<void> {
  await db
    .deleteFrom('login_failures')
    .where((eb) => eb.or([eb('key', '=', emailKey(input.email)), ...(input.failureIds.length ? [eb('id', 'in', input.failureIds)] : [])]))
    .execute();
}

/** Counts one failed sign-in against the address and the email. */
export async function recordLoginFailure(db: Db, input: { ip: string; email: string }): Promise<void> {
  await db
    .insertInto('login_failures')
    .values([{ key: ipKey(input.ip) }, { key: emailKey(input.email) }])
    .execute();
}

/** After a successful sign-in (or a password reset): the email starts with a clean slate; the address does not. */
export async function clearLoginFailures(db: Db, input: { email: string }): Promise<void> {
  await db.deleteFrom('login_failures').where('key', '=', emailKey(input.email)).execute();
}

/** Failures older than the window count for nothing; deletes up to `limit` of them (the pruning job batches). */
export async function pruneLoginFailures(db: Db, limit = 10_000): Promise<number> {
  const result = await sql`
    delete from login_failures where id in (
      select id from login_failures where at < now() - make_interval(secs => ${LOGIN_LIMIT_WINDOW_MS / 1000}) limit ${limit})`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * `email:` + the normalized email; a string that is no address still gets a key (trimmed, lower-cased, capped),
 * so nonsense cannot dodge the per-email count by varying case or spaces.
 */
export function emailKey(email: string): string {
  return `email:${normalizeEmail(email) ?? email.trim().toLowerCase().slice(0, 320)}`;
}

/**
 * `ip:` + the address. IPv4-mapped IPv6 counts as the IPv4 address; other IPv6 addresses count by their /64,
 * since one subscriber usually holds a whole /64 and could otherwise try each of its addresses in turn.
 */
export function ipKey(address: string): string {
  if (!ipaddr.isValid(address)) return `ip:${address.slice(0, 100)}`;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  if (parsed.kind() === 'ipv4') return `ip:${parsed.toString()}`;
  const prefix = ipaddr.IPv6.networkAddressFromCIDR(`${parsed.toString()}/64`);
  return `ip:${prefix.toString()}/64`;
}
