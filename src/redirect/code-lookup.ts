import type { Database } from '../db/schema/index.js';

/** What a redirect needs to know about a slug. */
export type RedirectTarget =
  | { state: 'active' | 'paused'; codeId: string; accountId: string; slug: string; name: string; destinationUrl: string }
  | { state: 'gone' };

interface Entry {
  target: RedirectTarget;
  expiresAt: number;
}

/**
 * slug → target, cached per instance. Correctness comes from invalidation: `invalidate` is called for every
 * committed change (LISTEN/NOTIFY, see db/notification-listener.ts), and cached targets are not trusted while that
 * channel is down. The TTL is only a safety net. Concurrent misses for one slug share one query.
 *
 * Stale if error: when the database cannot be read, the last known target is served, so printed codes keep
 * working through a database outage (nobody can change a code while the database is down anyway).
 */
export class CodeLookup {
  private readonly entries = new Map<string, Entry>();
  private readonly inFlight = new Map<string, Promise<RedirectTarget>>();
  /** Bumped by every invalidation, so a lookup that raced one does not cache what it read before it. */
  private generation = 0;
  /** Whether change notifications are flowing, so a fresh cache entry can be trusted. */
  private notificationsLive = false;

  constructor(
    private readonly db: Database,
    private readonly options: { ttlMs: number; maxEntries: number; now?: () => number },
  ) {}

  async resolve(slug: string): Promise<RedirectTarget> {
    const cached = this.entries.get(slug);
    if (cached && this.notificationsLive && cached.expiresAt > this.now()) return cached.target;
    const pending = this.inFlight.get(slug);
    if (pending) return pending;
    const lookup = this.load(slug).finally(() => this.inFlight.delete(slug));
    this.inFlight.set(slug, lookup);
    return lookup;
  }

  invalidate(slug: string): void {
    this.generation++;
    this.entries.delete(slug);
  }

  /**
   * Trust cached targets (change notifications flowing) or not. Either way what is cached is no longer fresh,
   * since notifications may have been missed, but it stays as the fallback for a database outage.
   */
  setNotificationsLive(live: boolean): void {
    this.generation++;
    this.notificationsLive = live;
    for (const entry of this.entries.values()) entry.expiresAt = 0;
  }

  private async load(slug: string): Promise<RedirectTarget> {
    const generation = this.generation;
    let row;
    try {
      row = await this.db
        .selectFrom('qr_codes')
        .select(['id', 'account_id', 'slug', 'name', 'destination_url', 'active', 'deleted_at'])
        .where('slug', '=', slug)
        .executeTakeFirst();
    } catch (error) {
      const lastKnown = this.entries.get(slug);
      if (lastKnown) return lastKnown.target;
      throw error;
    }
    const target: RedirectTarget =
      !row || row.deleted_at
        ? { state: 'gone' }
        : {
            state: row.active ? 'active' : 'paused',
            codeId: row.id,
            accountId: row.account_id,
            slug: row.slug,
            name: row.name,
            destinationUrl: row.destination_url,
          };
    if (generation === this.generation) {
      if (!this.entries.has(slug) && this.entries.size >= this.options.maxEntries) {
        this.entries.delete(this.entries.keys().next().value!);
      }
      this.entries.set(slug, { target, expiresAt: this.notificationsLive ? this.now() + this.options.ttlMs : 0 });
    }
    return target;
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }
}
