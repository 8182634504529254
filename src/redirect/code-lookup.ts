import { LRUCache } from 'lru-cache';
import { accountChangePayload, type Branding } from '../accounts/branding.js';
import type { Database } from '../db/schema/index.js';
import { isDatabaseUnavailable } from '../db/unavailable.js';
import { compileRouting, type CompiledRouting, type Routing } from '../routing/index.js';

/** What a scan needs to know about a slug: where to redirect, or (page types) what page to render and for whom. */
export type RedirectTarget =
  | {
      state: 'active' | 'paused';
      codeId: string;
      accountId: string;
      slug: string;
      name: string;
      destinationUrl: string;
      type: string;
      /** The type's content (src/codes/types/); null for URL codes made through the API. */
      content: unknown;
      /** Shown on landing pages. An account's rename reaches cached pages within the TTL. */
      accountName: string;
      /**
       * The account's landing-page colour and logo, cached with the code so a page keeps its look through a
       * database outage. A change announces the account (src/accounts/branding.ts), dropping its codes here.
       */
      brand: Branding;
      /**
       * The code's routing (issue 28), compiled once when the code entered the cache; null without routing (or
       * with one that failed to compile: logged, and the code's own destination answers).
       */
      routing: CompiledRouting | null;
      /** When the code answers and how often; null when none of it is set (most codes: one check per scan). */
      schedule: CodeSchedule | null;
    }
  | { state: 'gone' };

/** A code's schedule (issue 28), times as epoch milliseconds. */
export interface CodeSchedule {
  /** Before this the short URL answers "not active yet" (404); -Infinity when not set. */
  activeFrom: number;
  /** From this on it answers "expired" (302 to `expiredUrl`, else 410); Infinity when not set. */
  expiresAt: number;
  /** Scans that reach a destination at most, decided where scans are committed (scan-recorder.ts); null: no limit. */
  scanLimit: number | null;
  expiredUrl: string | null;
}

interface Entry {
  target: RedirectTarget;
  expiresAt: number;
}

/** One slug's lookup in flight; `invalidated` when the slug changed while it read, so what it read may be old. */
interface Flight {
  promise: Promise<RedirectTarget>;
  invalidated: boolean;
}

/** Reads of one lookup when its slug keeps changing while it reads; the last answers the scan uncached. */
const MAX_READS = 3;

export interface CodeLookupOptions {
  ttlMs: number;
  /** Codes (active or paused) kept, least recently scanned dropped first. */
  maxEntries: number;
  /** Slugs that name no live code, kept apart so scans of made-up slugs never push out real codes. */
  maxGoneEntries: number;
  /**
   * How long a scan waits for the database before it is answered from the last known target. A hung database
   * must not hold printed codes hostage.
   */
  lookupTimeoutMs: number;
  /**
   * How long a scan of a slug this instance has never seen waits before it is answered 503: longer, since there
   * is nothing to fall back on and a slow database may still answer.
   */
  unknownLookupTimeoutMs: number;
  now?: () => number;
  /** Told about a stored routing that does not compile (the code then answers with its own destination). */
  onBadRouting?: (codeId: string, error: unknown) => void;
}

export class LookupTimeoutError extends Error {}

const ACCOUNT_PREFIX = accountChangePayload('');

/**
 * slug → target, cached per instance. Correctness comes from invalidation: `invalidate` is called for every
 * committed change (LISTEN/NOTIFY, see db/notification-listener.ts), and cached targets are not trusted while that
 * channel is down. The TTL is only a safety net. Concurrent misses for one slug share one query.
 *
 * Stale if error: when the database cannot be read, or does not answer within `lookupTimeoutMs`, the last known
 * target is served, so printed codes keep working through a database outage (nobody can change a code while
 * the database is down anyway). After the first such lookup the database counts as unresponsive: cached codes
 * are then answered from the last known target at once, not after another timeout each, and a single lookup at
 * a time (in the background) finds out when the database answers again.
 */
/** Lookups in flight past which no background probe starts while the database counts as unresponsive. */
const MAX_PROBES = 2;

export class CodeLookup {
  private readonly codes: LRUCache<string, Entry>;
  private readonly gone: LRUCache<string, Entry>;
  private readonly inFlight = new Map<string, Flight>();
  /**
   * Bumped when every lookup in flight must read again (notifications stopped or started, an account's branding
   * changed); a change of one slug marks only that slug's lookup (`Flight.invalidated`).
   */
  private generation = 0;
  /** Whether change notifications are flowing, so a fresh cache entry can be trusted. */
  private notificationsLive = false;
  /**
   * Set when a lookup timed out or could not reach the database; cleared by the next lookup it answers. Without
   * it every scan of a cached code waited `lookupTimeoutMs` during a freeze (measured: median 1,508 ms).
   */
  private unresponsive = false;
  /** Lookups that gave up waiting for the database (each one a scan that waited the whole timeout). */
  private timeoutCount = 0;
  /** When the last background lookup started while the database counted as unresponsive. */
  private probeStartedAt = 0;

  constructor(
    private readonly db: Database,
    private readonly options: CodeLookupOptions,
  ) {
    this.codes = new LRUCache({ max: options.maxEntries });
    this.gone = new LRUCache({ max: options.maxGoneEntries });
  }

  /** The cached target when it can be trusted now, without a promise (the hot path's usual case). */
  fresh(slug: string): RedirectTarget | undefined {
    const cached = this.codes.get(slug) ?? this.gone.get(slug);
    return cached && this.notificationsLive && cached.expiresAt > this.now() ? cached.target : undefined;
  }

  async resolve(slug: string): Promise<RedirectTarget> {
    const fresh = this.fresh(slug);
    if (fresh) return fresh;
    const cached = this.codes.peek(slug) ?? this.gone.peek(slug);
    if (cached && this.unresponsive) {
      // One probe at a time: a frozen database would otherwise collect a hung query (and a pool connection) per
      // slug. A second after `unknownLookupTimeoutMs`, so one stuck on a connection that will never answer (a host
      // that failed over) does not keep the cache stale until the pool's query timeout; never more than two, since
      // a frozen server never fires its statement_timeout and each hung probe holds a connection scans need.
      const probeDue = this.inFlight.size === 0 || (this.inFlight.size < MAX_PROBES && this.now() - this.probeStartedAt > this.options.unknownLookupTimeoutMs);
      if (probeDue) {
        this.probeStartedAt = this.now();
        this.lookup(slug).catch(() => undefined);
      }
      return cached.target;
    }
    return this.within(this.lookup(slug), cached);
  }

  /** Whether the database failed to answer the last lookup (cached codes are then served without asking it). */
  get databaseUnresponsive(): boolean {
    return this.unresponsive;
  }

  /** Lookups waiting on the database now (each holds a pool connection). */
  get lookupsInFlight(): number {
    return this.inFlight.size;
  }

  /** How many lookups gave up waiting for the database since start. */
  get timeouts(): number {
    return this.timeoutCount;
  }

  /**
   * A slug, or `account:<id>` (src/accounts/branding.ts) for every cached code of that account.
   *
   * A changed slug this instance had cached is read again at once, in the background: the next scan finds it
   * fresh, and a database outage right after a change still has the code's new target to fall back on (dropped
   * without a reread, a code edited, created or scanned a moment before an outage answered 503 through it).
   */
  invalidate(slugOrAccount: string): void {
    if (slugOrAccount.startsWith(ACCOUNT_PREFIX)) {
      this.generation++;
      // Rare (a branding change) and bounded by maxEntries: a scan over the cache is cheaper than an index.
      const accountId = slugOrAccount.slice(ACCOUNT_PREFIX.length);
      const slugs = [...this.codes.entries()]
        .filter(([, entry]) => entry.target.state !== 'gone' && entry.target.accountId === accountId)
        .map(([slug]) => slug);
      for (const slug of slugs) this.codes.delete(slug);
      return;
    }
    // Dropped even while a lookup is in flight: an outage must not fall back on what is known to be old.
    const wasCached = this.codes.delete(slugOrAccount) || this.gone.delete(slugOrAccount);
    const flight = this.inFlight.get(slugOrAccount);
    if (flight) flight.invalidated = true; // its lookup reads again before it caches
    else if (wasCached && this.notificationsLive && !this.unresponsive) this.lookup(slugOrAccount).catch(() => undefined);
  }

  /**
   * Trust cached targets (change notifications flowing) or not. Either way what is cached is no longer fresh,
   * since notifications may have been missed, but it stays as the fallback for a database outage.
   */
  setNotificationsLive(live: boolean): void {
    this.generation++;
    this.notificationsLive = live;
    for (const entry of this.codes.values()) entry.expiresAt = 0;
    for (const entry of this.gone.values()) entry.expiresAt = 0;
  }

  /** The slug's lookup in flight, or a new one: concurrent misses share one query. */
  private lookup(slug: string): Promise<RedirectTarget> {
    let flight = this.inFlight.get(slug);
    if (!flight) {
      const started: Flight = { promise: Promise.resolve({ state: 'gone' }), invalidated: false };
      started.promise = this.load(slug, started).finally(() => this.inFlight.delete(slug));
      this.inFlight.set(slug, started);
      flight = started;
    }
    return flight.promise;
  }

  /** The lookup's answer, or after `lookupTimeoutMs` the last known target (the lookup goes on and fills the cache). */
  private within(lookup: Promise<RedirectTarget>, lastKnown: Entry | undefined): Promise<RedirectTarget> {
    const timeoutMs = lastKnown ? this.options.lookupTimeoutMs : this.options.unknownLookupTimeoutMs;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.timeoutCount++;
        // The lookup that timed out goes on: it is the probe that finds out when the database answers.
        if (!this.unresponsive) this.probeStartedAt = this.now();
        this.unresponsive = true;
        if (lastKnown) resolve(lastKnown.target);
        else reject(new LookupTimeoutError(`the database did not answer within ${timeoutMs} ms`));
      }, timeoutMs);
      lookup.then(
        (target) => {
          clearTimeout(timer);
          resolve(target);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });
  }

  /** Reads the slug, again while it changed during the read (up to MAX_READS), and caches what it read last. */
  private async load(slug: string, flight: Flight): Promise<RedirectTarget> {
    for (let read = 1; ; read++) {
      const generation = this.generation;
      flight.invalidated = false;
      let target: RedirectTarget;
      try {
        target = await this.read(slug);
        this.unresponsive = false;
      } catch (error) {
        if (isDatabaseUnavailable(error)) this.unresponsive = true;
        const lastKnown = this.codes.peek(slug) ?? this.gone.peek(slug);
        if (lastKnown) return lastKnown.target;
        throw error;
      }
      if (generation === this.generation && !flight.invalidated) {
        this.remember(slug, target);
        return target;
      }
      // What it read may predate the change; a read that starts now sees it (a notice follows its commit).
      if (read === MAX_READS) return target;
    }
  }

  private async read(slug: string): Promise<RedirectTarget> {
    // One query per cache miss, as before: the account's name and branding come with the code by primary key.
    const row = await this.db
      .selectFrom('qr_codes')
      .innerJoin('accounts', 'accounts.id', 'qr_codes.account_id')
      // A logo whose file was deleted is no logo (rather than a broken image on the page).
      .leftJoin('files as logo', (join) => join.onRef('logo.id', '=', 'accounts.brand_logo_file_id').on('logo.deleted_at', 'is', null))
      .select([
        'qr_codes.id', 'qr_codes.account_id', 'qr_codes.slug', 'qr_codes.name', 'qr_codes.destination_url', 'qr_codes.active',
        'qr_codes.deleted_at', 'qr_codes.type', 'qr_codes.content', 'accounts.name as account_name',
        'accounts.brand_color', 'logo.id as logo_file_id', 'qr_codes.routing', 'qr_codes.active_from', 'qr_codes.expires_at',
        'qr_codes.scan_limit', 'qr_codes.expired_url',
      ])
      .where('qr_codes.slug', '=', slug)
      .executeTakeFirst();
    return !row || row.deleted_at
      ? { state: 'gone' }
      : {
          state: row.active ? 'active' : 'paused',
          codeId: row.id,
          accountId: row.account_id,
          slug: row.slug,
          name: row.name,
          destinationUrl: row.destination_url,
          type: row.type,
          content: row.content,
          accountName: row.account_name,
          brand: { color: row.brand_color, logoFileId: row.logo_file_id },
          routing: row.routing ? this.compile(row.routing as Routing, row.id) : null,
          schedule: scheduleOf(row),
        };
  }

  /** Once per read of a code, so per scan the routing costs only its evaluation. */
  private compile(routing: Routing, codeId: string): CompiledRouting | null {
    try {
      return compileRouting(routing, codeId);
    } catch (error) {
      this.options.onBadRouting?.(codeId, error);
      return null;
    }
  }

  private remember(slug: string, target: RedirectTarget): void {
    const entry = { target, expiresAt: this.notificationsLive ? this.now() + this.options.ttlMs : 0 };
    if (target.state === 'gone') {
      this.codes.delete(slug);
      this.gone.set(slug, entry);
    } else {
      this.gone.delete(slug);
      this.codes.set(slug, entry);
    }
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }
}

function scheduleOf(row: { active_from: Date | null; expires_at: Date | null; scan_limit: number | string | null; expired_url: string | null }): CodeSchedule | null {
  if (row.active_from === null && row.expires_at === null && row.scan_limit === null) return null;
  return {
    activeFrom: row.active_from?.getTime() ?? -Infinity,
    expiresAt: row.expires_at?.getTime() ?? Infinity,
    // bigint: pg hands it over as a string.
    scanLimit: row.scan_limit === null ? null : Number(row.scan_limit),
    expiredUrl: row.expired_url,
  };
}
