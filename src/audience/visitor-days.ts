import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Db } from '../db/schema/index.js';

const DAY_MS = 86_400_000;

/**
 * The next day's secret is fetched this long before midnight, so the first scans of a day find it in memory
 * (the redirect path never waits on the database in the common case).
 */
const PREFETCH_BEFORE_MIDNIGHT_MS = 60_000;
/**
 * A fetch the first scans of a day wait for at most this long, counted from when the fetch started: after it
 * their visitor is null (not known), and scans arriving while that fetch still hangs (a frozen database answers
 * neither the query nor its failure until the pool's query timeout) get null at once rather than a wait each.
 */
const FETCH_WAIT_MS = 1_000;
/** After a failed fetch (database down), the next is tried this much later: scans meanwhile have no visitor. */
const RETRY_AFTER_MS = 5_000;

/**
 * How long after a day has ended its secret and its (code, visitor) pairs are kept: the day's last scans may still
 * be in a batch being written (a commit retried after a lost answer, a short outage held in memory), and are
 * judged against the day's pairs as long as they exist. Afterwards a late batch of that day stores its scans as
 * "unique not known" (scan-batch.ts).
 */
export const DAY_END_GRACE_MS = 2 * 60_000;

/** The UTC day of a time, `YYYY-MM-DD` (PostgreSQL's `date` in text). */
export function utcDay(ms: number): string {
  return new Date(Math.floor(ms / DAY_MS) * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The first day whose secret may still exist, by the database's clock: a day ended more than DAY_END_GRACE_MS ago is
 * over. The database's clock, not an instance's: one clock for every instance, so an instance running ahead cannot
 * destroy a day the others still hash with, nor one running behind create a destroyed day's secret again.
 */
const FIRST_LIVE_DAY = sql<string>`((now() - ${sql.raw(`interval '${DAY_END_GRACE_MS} milliseconds'`)}) at time zone 'UTC')::date`;

/**
 * The UTC day's secret that every instance hashes visitors with (src/audience/visitor-hash.ts): the first instance
 * to need it creates it (a random 32-byte key, inserted `on conflict do nothing`), all then read the same row.
 * Null for a day that is over by the database's clock (FIRST_LIVE_DAY): its secret was destroyed, or is about to
 * be, and a new one would hash that day's visitors anew, counting each of them unique a second time.
 */
export async function daySecret(db: Db, day: string): Promise<Buffer | null> {
  const { rows } = await sql<{ secret: Buffer | null }>`
    with live as (
      select ${day}::date >= ${FIRST_LIVE_DAY} as live
    ),
    created as (
      insert into visitor_secrets (day, secret) select ${day}::date, ${randomBytes(32)} from live where live
      on conflict do nothing returning secret
    )
    select secret from created
    union all
    select secret from visitor_secrets where day = ${day}::date and (select live from live)
    union all
    select null from live where not live
    limit 1`.execute(db);
  // The `created` row when this call made it; else the one another instance made (its commit is visible: a
  // conflicting insert waits for it); else null, the day being over.
  if (!rows[0]) throw new Error(`no visitor secret for ${day}`);
  return rows[0].secret;
}

/**
 * Deletes the secrets and (code, visitor) pairs of the days that ended more than DAY_END_GRACE_MS ago by the
 * database's clock (FIRST_LIVE_DAY): from then on nobody, the operator included, can tell which address a stored
 * scan came from. `now` replaces that clock for tests that move time (the visitor-days job's `now`). Idempotent, so
 * every instance may run it. Returns what it deleted.
 */
export async function deletePastVisitorDays(db: Db, now?: number): Promise<{ secrets: number; visitors: number }> {
  const before = now === undefined ? FIRST_LIVE_DAY : sql<string>`${utcDay(now - DAY_END_GRACE_MS)}::date`;
  return db.transaction().execute(async (trx) => {
    const secrets = await trx.deleteFrom('visitor_secrets').where('day', '<', before).executeTakeFirst();
    const visitors = await trx.deleteFrom('scan_visitors').where('day', '<', before).executeTakeFirst();
    return { secrets: Number(secrets.numDeletedRows), visitors: Number(visitors.numDeletedRows) };
  });
}

export interface VisitorDaysOptions {
  /** The clock (tests move it to change the day). */
  now?: () => number;
  fetchWaitMs?: number;
  retryAfterMs?: number;
  /**
   * Whether the database is known not to answer now (the code lookup's signal, src/redirect/code-lookup.ts): scans
   * then get no secret at once instead of waiting for a fetch that cannot succeed. A fetch still starts, so the
   * secret is back as soon as the database answers.
   */
  databaseUnresponsive?: () => boolean;
}

/** The one fetch of a day's secret in flight. */
interface Fetching {
  day: string;
  promise: Promise<Buffer | null>;
  /** performance.now() when it started: scans wait for it until FETCH_WAIT_MS after that, not each for as long. */
  startedAt: number;
  /** A scan's wait for it ran out: it hangs, and later scans do not wait for it. */
  waitedOut: boolean;
}

/** A day's secret; `from` is the day's first millisecond, so a scan's time is matched without formatting it. */
interface DaySecret {
  day: string;
  secret: Buffer;
  from: number;
}

/**
 * The day's secret kept in memory for the redirect path: `secretFor` answers from memory all day; the next
 * day's is fetched just before midnight (or by the day's first scan, when this process was not running then), by
 * one fetch at a time. A secret is kept for its own day only: a past day's is dropped as soon as the day turns.
 * When the secret cannot be had (the database is down as the day begins) scans get none (their visitor is null)
 * until a fetch succeeds, tried again every few seconds.
 */
export class VisitorDays {
  private current: DaySecret | undefined;
  private next: DaySecret | undefined;
  private fetching: Fetching | undefined;
  private failed: { day: string; until: number } | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly now: () => number;

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    private readonly options: VisitorDaysOptions = {},
  ) {
    this.now = options.now ?? Date.now;
  }

  /**
   * The secret of the UTC day `at` falls in: from memory (synchronously) on every scan but the first ones of a
   * day nobody fetched ahead, which wait for the one fetch until FETCH_WAIT_MS after it started. Null when it
   * cannot be had (synchronously while a fetch failed a moment ago, hangs past that wait, or the database is known
   * not to answer), and for a time in a day that is over or not yet begun by this process's clock.
   */
  secretFor(at: Date): Buffer | null | Promise<Buffer | null> {
    const ms = at.getTime();
    // Every scan of the day but its first ones: a comparison, not a day's name made from the time (toISOString).
    if (this.current && ms >= this.current.from && ms - this.current.from < DAY_MS) return this.current.secret;
    const day = utcDay(ms);
    this.turnTo(utcDay(this.now()));
    if (this.current?.day === day) return this.current.secret;
    if (day !== utcDay(this.now())) return null;
    if (this.failed?.day === day && this.now() < this.failed.until) return null;
    const fetching = this.startFetch(day);
    if (this.options.databaseUnresponsive?.()) return null;
    const waitMs = (this.options.fetchWaitMs ?? FETCH_WAIT_MS) - (performance.now() - fetching.startedAt);
    if (fetching.waitedOut || waitMs <= 0) {
      fetching.waitedOut = true;
      return null;
    }
    let timeout: NodeJS.Timeout | undefined;
    return Promise.race([
      fetching.promise,
      new Promise<null>((resolve) => {
        timeout = setTimeout(() => {
          fetching.waitedOut = true;
          resolve(null);
        }, waitMs);
      }),
    ]).finally(() => clearTimeout(timeout));
  }

  /** Fetches today's secret now and the next day's before midnight, from here on. */
  start(): void {
    if (this.stopped) return;
    this.startFetch(utcDay(this.now()));
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.current = undefined;
    this.next = undefined;
  }

  /** Moves to `today`: a prefetched secret becomes the current one; a past day's is dropped. */
  private turnTo(today: string): void {
    if (this.next && this.next.day <= today) {
      this.current = this.next.day === today ? this.next : undefined;
      this.next = undefined;
    }
    if (this.current && this.current.day < today) this.current = undefined;
  }

  /** Just before each midnight: the next day's secret. Right after it: the past day's dropped. */
  private schedule(): void {
    if (this.stopped) return;
    const now = this.now();
    const midnight = (Math.floor(now / DAY_MS) + 1) * DAY_MS;
    const prefetchAt = midnight - PREFETCH_BEFORE_MIDNIGHT_MS;
    const wait = now < prefetchAt ? prefetchAt - now : midnight - now + 1;
    this.timer = setTimeout(() => {
      const at = this.now();
      this.turnTo(utcDay(at));
      if (at >= prefetchAt && at < midnight) this.startFetch(utcDay(midnight));
      this.schedule();
    }, Math.max(1_000, wait));
    // Never what keeps a process alive.
    this.timer.unref();
  }

  /** The day's fetch in flight, or a new one: one at a time. Its promise never rejects. */
  private startFetch(day: string): Fetching {
    if (this.fetching?.day === day) return this.fetching;
    const promise = daySecret(this.db, day).then(
      (secret) => {
        if (secret === null) {
          // Over by the database's clock although not by this host's: this clock is behind the database's.
          this.failed = { day, until: this.now() + (this.options.retryAfterMs ?? RETRY_AFTER_MS) };
          this.logger.warn({ day }, "the database says this day is over (this host's clock is behind the database's): scans are recorded without a visitor until this clock turns too");
          return null;
        }
        this.failed = undefined;
        if (this.stopped) return secret;
        const today = utcDay(this.now());
        this.turnTo(today);
        const key = { day, secret, from: Date.parse(`${day}T00:00:00Z`) };
        if (day === today) this.current = key;
        else if (day > today) this.next = key;
        return secret;
      },
      (error: unknown) => {
        this.failed = { day, until: this.now() + (this.options.retryAfterMs ?? RETRY_AFTER_MS) };
        this.logger.warn({ err: error, day }, "the day's visitor secret cannot be read: scans are recorded without a visitor (unique not known) until it can");
        return null;
      },
    );
    const fetching: Fetching = { day, promise, startedAt: performance.now(), waitedOut: false };
    this.fetching = fetching;
    void promise.finally(() => {
      if (this.fetching === fetching) this.fetching = undefined;
    });
    return fetching;
  }
}
