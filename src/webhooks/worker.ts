import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { AdaptiveLimit, type AdaptiveLimitOptions, DEFAULT_ADAPTIVE_LIMIT } from './adaptive-limit.js';
import { AttemptRecorder } from './attempt-recorder.js';
import { type DeliveryDependencies, outcomeOf, sendAttempt } from './delivery-attempt.js';
import { allowedAttempts, claimDueDeliveries, type ClaimedDelivery, releaseClaims } from './outbox.js';

export interface WorkerOptions {
  /**
   * Requests waiting on their receivers at once in this worker, not counting those that have waited longer than
   * the latency target (stalled), so hung receivers never take the others' slots. With the stalled ones and the
   * answered attempts still being recorded, never more than twice this.
   */
  concurrency: number;
  /**
   * Deliveries in flight at once per account when nothing is known of its receiver yet. From there the bound
   * adapts to the receiver (adaptive-limit.ts), between the floor and the ceiling below.
   */
  perAccountConcurrency: number;
  /** Least per account, however slow its receiver (never above `perAccountConcurrency`). */
  perAccountConcurrencyFloor: number;
  /** Most per account, however fast its receiver: below `concurrency`, so one account never takes every slot. */
  perAccountConcurrencyCeiling: number;
  /** Answers faster than this let an account's bound grow; slower ones and failures shrink it. */
  latencyTargetMs: number;
  /** How long a claim holds before another worker may take the row (longer than one attempt can last). */
  leaseMs: number;
  /** Safety net for missed notifications, and how retries that fall due are noticed. */
  pollIntervalMs: number;
}

export const DEFAULT_WORKER_OPTIONS: WorkerOptions = {
  concurrency: 128,
  perAccountConcurrency: DEFAULT_ADAPTIVE_LIMIT.initial,
  perAccountConcurrencyFloor: DEFAULT_ADAPTIVE_LIMIT.floor,
  perAccountConcurrencyCeiling: DEFAULT_ADAPTIVE_LIMIT.ceiling,
  latencyTargetMs: DEFAULT_ADAPTIVE_LIMIT.latencyTargetMs,
  leaseMs: 30_000,
  pollIntervalMs: 1_000,
};

/** Accounts whose learned bound is kept while they have nothing in flight; past it, idle ones start over. */
const MAX_REMEMBERED_ACCOUNTS = 10_000;

interface InFlight {
  deliveryId: string;
  accountId: string;
  claimToken: string;
  controller: AbortController;
  /** `performance.now()` when the request was started. */
  startedAt: number;
  /** Still waiting for the receiver (false once it answered or failed, while the attempt is being recorded). */
  awaitingReceiver: boolean;
  /** Seen waiting on its receiver longer than the latency target: it no longer counts against `concurrency`. */
  stalled: boolean;
  done: Promise<void>;
}

/**
 * Delivers the outbox. Wakes on the insert notification (or the poll timer), claims what is due within its free
 * slots and each account's adaptive bound, and runs each attempt on its own; an answered attempt frees its slot
 * and wakes the claim loop, and finished attempts are recorded together (AttemptRecorder). Any number of
 * workers can run against one database (SKIP LOCKED); delivery is at-least-once.
 *
 * Every promise here ends in a handler: the database may go away at any moment (a claim, a record, a release),
 * and a rejection nobody handles would end the whole process, the API and redirects with it. A failed claim waits
 * for the next poll; a failed record leaves the claim to lapse (the attempt is already counted); a failed release
 * leaves the row to its lease.
 */
export class WebhookWorker {
  readonly id = `worker-${randomBytes(6).toString('hex')}`;
  /**
   * Every claim not finished yet, by claim token: waiting on its receiver, or answered and being recorded. Not by
   * delivery: after a PostgreSQL crash forgot a claim, this worker can claim the same delivery again while the first
   * attempt's outcome is still being recorded.
   */
  private readonly inFlight = new Map<string, InFlight>();
  /** Requests waiting on their receiver, per account (what the account's bound limits). */
  private readonly perAccount = new Map<string, number>();
  /** Requests waiting on their receiver, all accounts. */
  private awaitingCount = 0;
  private readonly limits = new Map<string, AdaptiveLimit>();
  private readonly limitOptions: AdaptiveLimitOptions;
  /** Ends the recorder's waits for an absent database once stopping gives up on attempts in flight. */
  private readonly recording = new AbortController();
  private readonly recorder: AttemptRecorder;
  private claiming: Promise<void> | undefined;
  private wakeAgain = false;
  private pollTimer: NodeJS.Timeout | undefined;
  /** Looks at how long requests have been waiting on their receivers (see `lookAtWaitingRequests`). */
  private lookTimer: NodeJS.Timeout | undefined;
  /** Requests in flight marked `stalled`. */
  private stalledCount = 0;
  /** Claims given back while stopping (a claim that raced the stop); `stop` waits for them. Never reject. */
  private readonly releases: Promise<void>[] = [];
  private stopped = true;
  /** `abandoned`: failed at claim time, their last attempt never recorded; `unrecorded`: outcomes that came too late. */
  readonly stats = { claimed: 0, succeeded: 0, retried: 0, failed: 0, released: 0, abandoned: 0, unrecorded: 0 };

  constructor(
    private readonly deps: DeliveryDependencies,
    private readonly logger: Logger,
    private readonly options: WorkerOptions = DEFAULT_WORKER_OPTIONS,
  ) {
    this.limitOptions = {
      initial: options.perAccountConcurrency,
      floor: Math.min(options.perAccountConcurrencyFloor, options.perAccountConcurrency),
      ceiling: Math.max(options.perAccountConcurrencyCeiling, options.perAccountConcurrency),
      latencyTargetMs: options.latencyTargetMs,
    };
    this.recorder = new AttemptRecorder(deps, this.id, this.recording.signal, logger);
  }

  /** Statements the recorder ran and outcomes it recorded (the group commit's batch size is their ratio). */
  get recordStats(): Readonly<{ statements: number; recorded: number }> {
    return this.recorder.stats;
  }

  /** The account's current in-flight bound in this worker. */
  accountLimit(accountId: string): number {
    return this.limits.get(accountId)?.current ?? this.limitOptions.initial;
  }

  start(): void {
    this.stopped = false;
    this.pollTimer = setInterval(() => this.wake(), this.options.pollIntervalMs);
    this.pollTimer.unref();
    // Two looks per latency target: a hung receiver is noticed between one and one and a half targets after it
    // hung. On the check phase (setImmediate), after the loop's I/O: answers that arrived while a timer was due are
    // handled first, so they never count as still waiting.
    const lookIntervalMs = Math.max(5, this.options.latencyTargetMs / 2);
    this.lookTimer = setInterval(() => setImmediate(() => this.lookAtWaitingRequests()), lookIntervalMs);
    this.lookTimer.unref();
    this.wake();
  }

  /** Something may be due: claim now, or right after the claim in progress. */
  wake(): void {
    if (this.stopped) return;
    if (this.claiming) {
      this.wakeAgain = true;
      return;
    }
    this.claiming = this.claimLoop()
      .catch((error: unknown) => this.logger.error({ err: error }, 'webhook claim loop failed; trying again on the next poll'))
      .finally(() => {
        this.claiming = undefined;
      });
  }

  /**
   * Stops claiming, lets attempts in flight finish for up to `timeoutMs`, then aborts the rest and gives their
   * rows back (due at once) without counting an attempt. Nothing claimed is left behind a lease, unless the
   * database is gone: then the leases run out instead, and stop still resolves.
   */
  async stop(timeoutMs: number): Promise<void> {
    this.stopped = true;
    clearInterval(this.pollTimer);
    clearInterval(this.lookTimer);
    await this.claiming;
    const finished = Promise.all([...this.inFlight.values()].map((task) => task.done));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([finished, new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
    clearTimeout(timer);
    const unfinished = [...this.inFlight.values()].map((task) => ({ id: task.deliveryId, claimToken: task.claimToken }));
    for (const task of this.inFlight.values()) task.controller.abort();
    this.recording.abort();
    await finished;
    await Promise.all(this.releases);
    if (unfinished.length > 0) {
      await this.release(unfinished);
      this.logger.info({ released: unfinished.length }, 'webhook deliveries still in flight at shutdown were released');
    }
  }

  /** Gives claims back; a failure is logged, not thrown: the rows' leases run out and another worker takes them. */
  private async release(claims: Array<{ id: string; claimToken: string }>): Promise<void> {
    try {
      this.stats.released += await releaseClaims(this.deps.db, this.id, claims);
    } catch (error) {
      this.logger.warn({ err: error, deliveries: claims.map((c) => c.id) }, 'cannot release webhook claims; they are retried when their lease ends');
    }
  }

  /**
   * How many more each account may take now (0 = none), for the accounts where that is not `initial`: those with
   * deliveries in flight here and those whose bound moved. The rest take `initial`, so the claim's parameters
   * stay small however many accounts this worker remembers.
   */
  private accountSlots(): Map<string, number> {
    const slots = new Map<string, number>();
    for (const [accountId, limit] of this.limits) {
      const inFlight = this.perAccount.get(accountId) ?? 0;
      if (inFlight > 0 || limit.current !== this.limitOptions.initial) slots.set(accountId, limit.current - inFlight);
    }
    for (const [accountId, count] of this.perAccount) if (!slots.has(accountId)) slots.set(accountId, this.limitOptions.initial - count);
    return slots;
  }

  private async claimLoop(): Promise<void> {
    do {
      this.wakeAgain = false;
      const free = this.freeSlots();
      if (free <= 0) return;
      let claimed: ClaimedDelivery[];
      let abandoned: string[];
      try {
        ({ claimed, abandoned } = await claimDueDeliveries(this.deps.db, {
          workerId: this.id,
          leaseMs: this.options.leaseMs,
          limit: free,
          perAccount: this.limitOptions.initial,
          busy: this.accountSlots(),
          maxAttempts: allowedAttempts(this.deps.retryPolicy),
        }));
      } catch (error) {
        this.logger.warn({ err: error }, 'cannot claim webhook deliveries; trying again on the next poll');
        return;
      }
      if (this.stopped) {
        // Claimed while stop began (the statement was already on its way): give the rows straight back.
        this.releases.push(this.release(claimed.map(({ id, claimToken }) => ({ id, claimToken }))));
        return;
      }
      this.stats.claimed += claimed.length;
      if (abandoned.length > 0) {
        this.stats.abandoned += abandoned.length;
        this.logger.warn({ deliveries: abandoned }, 'webhook deliveries failed: their last attempt was never recorded');
      }
      for (const delivery of claimed) this.run(delivery);
      // A full claim means more may be due; claim again now rather than at the next poll.
      if (claimed.length + abandoned.length === free) this.wakeAgain = true;
    } while (this.wakeAgain && !this.stopped);
  }

  /**
   * A stalled request (waiting on its receiver past the latency target) holds a socket and a few hundred bytes,
   * nothing else, for up to the 15 s timeout: it does not count against `concurrency`, up to as many again. Without
   * this, a receiver that hangs while holding the 64-request ceiling took half of the worker's 128 slots from every
   * other account until its requests timed out, and two of them all of it.
   */
  private freeSlots(): number {
    const counted = this.awaitingCount - this.stalledCount;
    return Math.min(this.options.concurrency - counted, 2 * this.options.concurrency - this.inFlight.size);
  }

  private limitOf(accountId: string): AdaptiveLimit {
    let limit = this.limits.get(accountId);
    if (!limit) {
      if (this.limits.size >= MAX_REMEMBERED_ACCOUNTS) {
        for (const known of this.limits.keys()) if (!this.perAccount.has(known)) this.limits.delete(known);
      }
      limit = new AdaptiveLimit(this.limitOptions);
      this.limits.set(accountId, limit);
    }
    return limit;
  }

  /**
   * A receiver that stops answering tells nothing until its requests time out (15 s). Twice per latency target,
   * this counts each account's requests waiting on their receiver and those waiting longer than the target, for
   * its bound (AdaptiveLimit.overdue), and marks the latter stalled (`freeSlots`). It runs after the loop's I/O
   * (see `start`), so after this process was blocked (a long GC, a starved CPU) the answers that arrived meanwhile
   * are taken first and their requests are not counted as waiting.
   */
  private lookAtWaitingRequests(): void {
    if (this.inFlight.size === 0) return;
    const now = performance.now();
    const byAccount = new Map<string, { waiting: number; overdue: number; now: number }>();
    let newlyStalled = 0;
    for (const task of this.inFlight.values()) {
      if (!task.awaitingReceiver) continue;
      let counts = byAccount.get(task.accountId);
      if (!counts) byAccount.set(task.accountId, (counts = { waiting: 0, overdue: 0, now }));
      counts.waiting++;
      if (now - task.startedAt <= this.options.latencyTargetMs) continue;
      counts.overdue++;
      if (!task.stalled) {
        task.stalled = true;
        this.stalledCount++;
        newlyStalled++;
      }
    }
    for (const [accountId, counts] of byAccount) this.limitOf(accountId).overdue(counts);
    // Slots opened: other accounts' due deliveries can go now rather than at the next poll.
    if (newlyStalled > 0) this.wake();
  }

  /**
   * A delivery holds its account's slot and a worker slot while its request waits on the receiver, and only a
   * place in `inFlight` while its outcome is recorded: the receiver's bound is about requests it holds, and a slot
   * kept through the record (a group commit, then the next claim) left a fast receiver's connections idle while
   * the worker waited on its database. Those being recorded still count against twice `concurrency` (`freeSlots`).
   */
  private run(delivery: ClaimedDelivery): void {
    const controller = new AbortController();
    this.perAccount.set(delivery.accountId, (this.perAccount.get(delivery.accountId) ?? 0) + 1);
    this.awaitingCount++;
    const limit = this.limitOf(delivery.accountId);
    const task: InFlight = {
      deliveryId: delivery.id, accountId: delivery.accountId, claimToken: delivery.claimToken, controller, startedAt: performance.now(),
      awaitingReceiver: true, stalled: false, done: Promise.resolve(),
    };
    const answered = () => {
      if (!task.awaitingReceiver) return;
      task.awaitingReceiver = false;
      this.awaitingCount--;
      if (task.stalled) {
        task.stalled = false;
        this.stalledCount--;
      }
      const left = (this.perAccount.get(delivery.accountId) ?? 1) - 1;
      if (left > 0) this.perAccount.set(delivery.accountId, left);
      else this.perAccount.delete(delivery.accountId);
      this.wake();
    };
    task.done = sendAttempt(this.deps, delivery, controller.signal)
      .then(async (record) => {
        // The bound learns from this answer before the freed slot is claimed again.
        if (record) limit.observe({ fast: record.succeeded && record.latencyMs <= this.options.latencyTargetMs, latencyMs: record.latencyMs, now: performance.now() });
        answered();
        if (!record) return; // aborted by stop: released there, uncounted
        const outcome = outcomeOf(delivery, record, await this.recorder.record(delivery, record));
        if (!outcome.recorded) {
          this.stats.unrecorded++;
          this.logger.warn({ delivery: outcome.deliveryId, attempt: outcome.attemptNumber }, 'webhook attempt finished after its claim lapsed; not recorded');
          return;
        }
        if (outcome.status === 'succeeded') this.stats.succeeded++;
        else if (outcome.status === 'pending') this.stats.retried++;
        else this.stats.failed++;
        if (outcome.status !== 'succeeded') {
          this.logger.info({ delivery: outcome.deliveryId, attempt: outcome.attemptNumber, status: outcome.status, statusCode: outcome.statusCode, error: outcome.error, retryInMs: outcome.retryInMs }, 'webhook attempt failed');
        }
        if (outcome.endpointDisabled) {
          this.logger.warn({ account: delivery.accountId, reason: outcome.endpointDisabled }, 'webhook endpoint disabled');
        }
      })
      .catch((error: unknown) => {
        // The attempt could not be recorded (database down): the lease runs out and the row is retried.
        this.logger.error({ err: error, delivery: delivery.id }, 'webhook attempt could not be recorded');
      })
      .finally(() => {
        answered();
        this.inFlight.delete(delivery.claimToken);
        this.wake();
      });
    this.inFlight.set(delivery.claimToken, task);
  }
}
