import { sql } from 'kysely';
import type { Logger } from 'pino';
import { answerWithin } from './answer-within.js';
import type { Database } from './schema/index.js';
import { isDatabaseUnavailable } from './unavailable.js';

/** Why a read that could have gone to a replica went where it did (the `reason` label of the reads counter). */
export type ReadRoute = 'replica' | 'no_usable_replica' | 'replica_failed' | 'own_recent_write' | 'retried_on_primary';

/** What a replica looked like at its last probe. */
export interface ReplicaStatus {
  /** host:port of its URL (never the password), the label in /metrics. */
  name: string;
  /** It answered the last probe and is in recovery (a standby). */
  up: boolean;
  /** At most this many seconds behind the primary, as far as the probes can tell; undefined: not known. */
  lagSeconds: number | undefined;
  /** Reads go to it now: up and within READ_REPLICA_MAX_LAG_SECONDS. */
  usable: boolean;
}

/** Reads that may be slightly stale: analytics, lists, exports, the API's scans list. */
export interface StaleReads {
  /**
   * Runs `work` on a usable replica (round robin), else on the primary. When the replica fails to answer (down,
   * or a query cancelled by a conflict with its recovery), or `retryOnPrimary` says the answer may just be stale (a
   * code created a moment ago is not on the replica yet), the same work runs again on the primary. `work` must
   * only read and must not have answered anyone yet when it fails.
   */
  read<T>(work: (db: Database) => Promise<T>, options?: { retryOnPrimary?: (error: unknown) => boolean }): Promise<T>;
  /** The same reads, all on the primary: for a browser that has just written (read-your-own-writes). */
  readonly primaryOnly: StaleReads;
  readonly hasReplicas: boolean;
}

export interface ReadReplicaObserver {
  read(route: ReadRoute): void;
}

export interface ReadReplicaOptions {
  /** READ_REPLICA_MAX_LAG_SECONDS. */
  maxLagSeconds: number;
  /** How often the primary's WAL position and each replica's replay position are read. */
  probeIntervalMs?: number;
  /** A replica (or primary) that does not answer a probe within this is taken as down for this round. */
  probeTimeoutMs?: number;
  now?: () => number;
  observer?: ReadReplicaObserver;
}

interface Replica {
  name: string;
  db: Database;
  up: boolean;
  /** The replica holds everything the primary had written at this time (a primary sample it has replayed). */
  containsUpTo: number | undefined;
  /** A read failed on it: not used again until a probe finds it answering. */
  failed: boolean;
  warnedNotStandby: boolean;
}

/** One sample of the primary's WAL position. */
interface PrimarySample {
  at: number;
  lsn: bigint;
}

/**
 * Routes stale-tolerant reads to streaming replicas (DATABASE_READ_URL) and keeps them honest.
 *
 * How far behind a replica is: every probe reads the primary's current WAL position first, then each replica's
 * replayed position. A replica that has replayed a position the primary had at time t holds everything committed
 * by t, so it is at most `now - t` behind, where t is the newest such sample. This needs no writes (unlike a
 * heartbeat table) and is right on an idle primary too: nothing new is written, so the replica is current although
 * its last replayed transaction may be hours old (which is what `now() - pg_last_xact_replay_timestamp()` gets
 * wrong). It errs only on the safe side, by up to a probe interval.
 *
 * A replica is read from while it answers its probes, is a standby (`pg_is_in_recovery()`: a promoted one takes no
 * more changes) and is at most `maxLagSeconds` behind. Otherwise reads go to the primary, and /metrics says so.
 */
export class ReadReplicas implements StaleReads {
  private readonly replicas: Replica[];
  private samples: PrimarySample[] = [];
  private timer: NodeJS.Timeout | undefined;
  private probing: Promise<void> | undefined;
  private next = 0;
  private readonly now: () => number;
  private readonly probeIntervalMs: number;
  private readonly probeTimeoutMs: number;
  readonly primaryOnly: StaleReads;

  constructor(
    private readonly primary: Database,
    replicas: ReadonlyArray<{ name: string; db: Database }>,
    private readonly logger: Logger,
    private readonly options: ReadReplicaOptions,
  ) {
    this.replicas = replicas.map(({ name, db }) => ({
      name, db, up: false, containsUpTo: undefined, failed: false, warnedNotStandby: false,
    }));
    this.now = options.now ?? Date.now;
    this.probeIntervalMs = options.probeIntervalMs ?? 1_000;
    this.probeTimeoutMs = options.probeTimeoutMs ?? 1_000;
    this.primaryOnly = primaryReads(primary, (route) => options.observer?.read(route));
  }

  get hasReplicas(): boolean {
    return this.replicas.length > 0;
  }

  /** Probes at once (reads go to the primary until a replica is known to be current), then every interval. */
  start(): void {
    if (this.replicas.length === 0 || this.timer) return;
    const tick = () => {
      this.probing = this.probe().finally(() => {
        this.probing = undefined;
      });
    };
    tick();
    this.timer = setInterval(() => {
      if (!this.probing) tick();
    }, this.probeIntervalMs);
    this.timer.unref();
  }

  /** Stops probing and closes the replicas' pools. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.probing;
    await Promise.all(this.replicas.map((replica) => replica.db.destroy()));
  }

  /** Every replica as of its last probe, for /metrics and the logs. */
  statuses(): ReplicaStatus[] {
    const now = this.now();
    return this.replicas.map((replica) => {
      const lagSeconds = this.lagSeconds(replica, now);
      return { name: replica.name, up: replica.up, lagSeconds, usable: this.isUsable(replica, lagSeconds) };
    });
  }

  async read<T>(work: (db: Database) => Promise<T>, options: { retryOnPrimary?: (error: unknown) => boolean } = {}): Promise<T> {
    if (this.replicas.length === 0) return work(this.primary);
    const replica = this.choose();
    if (!replica) {
      this.options.observer?.read('no_usable_replica');
      return work(this.primary);
    }
    try {
      const result = await work(replica.db);
      this.options.observer?.read('replica');
      return result;
    } catch (error) {
      if (replicaFailed(error)) {
        // Unavailable: not chosen again until a probe finds it answering. A recovery conflict says nothing about
        // the next query, so only this one moves.
        if (isDatabaseUnavailable(error)) replica.failed = true;
        this.logger.warn({ err: error, replica: replica.name }, 'a read replica failed to answer; reading from the primary');
        this.options.observer?.read('replica_failed');
        return work(this.primary);
      }
      if (options.retryOnPrimary?.(error)) {
        this.options.observer?.read('retried_on_primary');
        return work(this.primary);
      }
      throw error;
    }
  }

  private choose(): Replica | undefined {
    const now = this.now();
    for (let tried = 0; tried < this.replicas.length; tried++) {
      const replica = this.replicas[this.next++ % this.replicas.length]!;
      if (this.isUsable(replica, this.lagSeconds(replica, now))) return replica;
    }
    return undefined;
  }

  private isUsable(replica: Replica, lagSeconds: number | undefined): boolean {
    return replica.up && !replica.failed && lagSeconds !== undefined && lagSeconds <= this.options.maxLagSeconds;
  }

  /** At most how far behind, in seconds, at `now`: undefined when no primary sample it holds is known. */
  private lagSeconds(replica: Replica, now: number): number | undefined {
    return replica.containsUpTo === undefined ? undefined : Math.max(0, now - replica.containsUpTo) / 1000;
  }

  private async probe(): Promise<void> {
    // The primary first: a replica probed after a sample and found past it holds everything up to the sample.
    try {
      const { rows } = await answerWithin(sql<{ lsn: string }>`select pg_current_wal_lsn()::text as lsn`.execute(this.primary), this.probeTimeoutMs);
      this.samples.push({ at: this.now(), lsn: parseLsn(rows[0]!.lsn) });
    } catch (error) {
      // Without new samples the replicas' lag grows with the clock and reads go back to the primary after
      // maxLagSeconds: with the primary unreachable, how far behind a replica is cannot be known.
      this.logger.debug({ err: error }, 'could not read the primary WAL position for replica lag');
    }
    // Samples older than the lag limit cannot make a replica usable; the newest is always kept.
    const oldest = this.now() - (this.options.maxLagSeconds * 1000 + 2 * this.probeIntervalMs);
    while (this.samples.length > 1 && this.samples[0]!.at < oldest) this.samples.shift();
    await Promise.all(this.replicas.map((replica) => this.probeReplica(replica)));
  }

  private async probeReplica(replica: Replica): Promise<void> {
    let standby: boolean;
    let replayed: bigint | undefined;
    try {
      const { rows } = await answerWithin(
        sql<{ standby: boolean; lsn: string | null }>`select pg_is_in_recovery() as standby, pg_last_wal_replay_lsn()::text as lsn`.execute(replica.db),
        this.probeTimeoutMs,
      );
      standby = rows[0]!.standby;
      replayed = rows[0]!.lsn === null ? undefined : parseLsn(rows[0]!.lsn);
    } catch (error) {
      if (replica.up) this.logger.warn({ err: error, replica: replica.name }, 'read replica unreachable; its reads go to the primary');
      replica.up = false;
      return;
    }
    if (!standby || replayed === undefined) {
      if (!replica.warnedNotStandby) this.logger.error({ replica: replica.name }, 'DATABASE_READ_URL names a server that is not a streaming replica (pg_is_in_recovery() is false); it is not read from');
      replica.warnedNotStandby = true;
      replica.up = false;
      return;
    }
    if (!replica.up) this.logger.info({ replica: replica.name }, 'read replica answering');
    replica.up = true;
    replica.failed = false;
    // The newest primary sample the replica has replayed.
    for (let index = this.samples.length - 1; index >= 0; index--) {
      const sample = this.samples[index]!;
      if (sample.lsn <= replayed) {
        if (replica.containsUpTo === undefined || sample.at > replica.containsUpTo) replica.containsUpTo = sample.at;
        break;
      }
    }
  }
}

/** Stale reads when there are no replicas (or for a browser that has just written): everything on the primary. */
export function primaryReads(primary: Database, observe?: (route: ReadRoute) => void): StaleReads {
  const reads: StaleReads = {
    read: (work) => {
      observe?.('own_recent_write');
      return work(primary);
    },
    get primaryOnly() {
      return reads;
    },
    hasReplicas: false,
  };
  return reads;
}

/**
 * A replica's failure that the primary may not share: unreachable or shutting down, or a query cancelled by a
 * conflict with its WAL replay (40001 on a standby, 57P04 for a dropped database). A statement timeout (57014) is
 * not one: the query was slow and would be as slow on the primary.
 */
function replicaFailed(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === '57014') return false;
  return code === '40001' || code === '57P04' || isDatabaseUnavailable(error);
}

/** `16/B374D848` → its position as one number. */
export function parseLsn(text: string): bigint {
  const [high, low] = text.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

/** host:port of a connection URL, for labels and logs (never the user or password). */
export function replicaName(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || '5432'}`;
  } catch {
    return 'replica';
  }
}
