import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { attemptDelivery, type DeliveryDependencies } from './delivery-attempt.js';
import { allowedAttempts, claimDueDeliveries, type ClaimedDelivery, releaseClaims } from './outbox.js';

export interface WorkerOptions {
  /** Deliveries in flight at once in this worker. */
  concurrency: number;
  /** Deliveries in flight at once per account in this worker, so one slow receiver cannot take every slot. */
  perAccountConcurrency: number;
  /** How long a claim holds before another worker may take the row (longer than one attempt can last). */
  leaseMs: number;
  /** Safety net for missed notifications, and how retries that fall due are noticed. */
  pollIntervalMs: number;
}

export const DEFAULT_WORKER_OPTIONS: WorkerOptions = { concurrency: 64, perAccountConcurrency: 8, leaseMs: 30_000, pollIntervalMs: 1_000 };

interface InFlight {
  accountId: string;
  attemptNumber: number;
  controller: AbortController;
  done: Promise<void>;
}

/**
 * Delivers the outbox. Wakes on the insert notification (or the poll timer), claims what is due within its free
 * slots, and runs each attempt on its own; a finished attempt frees its slot and, if the last claim was full,
 * claims again. Any number of workers can run against one database (SKIP LOCKED); delivery is at-least-once.
 *
 * Every promise here ends in a handler: the database may go away at any moment (a claim, a record, a release, a
 * chained claim), and a rejection nobody handles would end the whole process, the API and redirects with it. A
 * failed claim waits for the next poll; a failed record leaves the claim to lapse (the attempt is already
 * counted); a failed release leaves the row to its lease.
 */
export class WebhookWorker {
  readonly id = `worker-${randomBytes(6).toString('hex')}`;
  private readonly inFlight = new Map<string, InFlight>();
  private readonly perAccount = new Map<string, number>();
  private claiming: Promise<void> | undefined;
  private wakeAgain = false;
  private pollTimer: NodeJS.Timeout | undefined;
  /** Claims given back while stopping (a chained claim that raced the stop); `stop` waits for them. Never reject. */
  private readonly releases: Promise<void>[] = [];
  private stopped = true;
  /** `abandoned`: failed at claim time, their last attempt never recorded; `unrecorded`: outcomes that came too late. */
  readonly stats = { claimed: 0, succeeded: 0, retried: 0, failed: 0, released: 0, abandoned: 0, unrecorded: 0 };

  constructor(
    private readonly deps: DeliveryDependencies,
    private readonly logger: Logger,
    private readonly options: WorkerOptions = DEFAULT_WORKER_OPTIONS,
  ) {}

  start(): void {
    this.stopped = false;
    this.pollTimer = setInterval(() => this.wake(), this.options.pollIntervalMs);
    this.pollTimer.unref();
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
    await this.claiming;
    const finished = Promise.all([...this.inFlight.values()].map((task) => task.done));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([finished, new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
    clearTimeout(timer);
    const unfinished = [...this.inFlight.entries()].map(([id, task]) => ({ id, attemptNumber: task.attemptNumber }));
    for (const task of this.inFlight.values()) task.controller.abort();
    await finished;
    await Promise.all(this.releases);
    if (unfinished.length > 0) {
      await this.release(unfinished);
      this.logger.info({ released: unfinished.length }, 'webhook deliveries still in flight at shutdown were released');
    }
  }

  /** Gives claims back; a failure is logged, not thrown: the rows' leases run out and another worker takes them. */
  private async release(claims: Array<{ id: string; attemptNumber: number }>): Promise<void> {
    try {
      this.stats.released += await releaseClaims(this.deps.db, this.id, claims);
    } catch (error) {
      this.logger.warn({ err: error, deliveries: claims.map((c) => c.id) }, 'cannot release webhook claims; they are retried when their lease ends');
    }
  }

  private async claimLoop(): Promise<void> {
    do {
      this.wakeAgain = false;
      const free = this.options.concurrency - this.inFlight.size;
      if (free <= 0) return;
      let claimed: ClaimedDelivery[];
      let abandoned: string[];
      try {
        ({ claimed, abandoned } = await claimDueDeliveries(this.deps.db, {
          workerId: this.id,
          leaseMs: this.options.leaseMs,
          limit: free,
          perAccount: this.options.perAccountConcurrency,
          busy: new Map([...this.perAccount].map(([accountId, count]) => [accountId, this.options.perAccountConcurrency - count])),
          maxAttempts: allowedAttempts(this.deps.retryPolicy),
        }));
      } catch (error) {
        this.logger.warn({ err: error }, 'cannot claim webhook deliveries; trying again on the next poll');
        return;
      }
      if (this.stopped) {
        // Claimed while stop began (the statement was already on its way): give the rows straight back.
        await this.release(claimed.map(({ id, attemptNumber }) => ({ id, attemptNumber })));
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

  private run(delivery: ClaimedDelivery): void {
    const controller = new AbortController();
    this.perAccount.set(delivery.accountId, (this.perAccount.get(delivery.accountId) ?? 0) + 1);
    const done = attemptDelivery(this.deps, delivery, {
      workerId: this.id,
      signal: controller.signal,
      // Chained claims skip the oldest-due-first order across accounts, so they are only taken while this worker
      // has slots to spare; when every slot is busy, the freed slot goes back to the claim loop, which is fair.
      claimNext: { leaseMs: this.options.leaseMs, wanted: () => !this.stopped && this.inFlight.size < this.options.concurrency },
    })
      .then((outcome) => {
        if (!outcome) return;
        if (!outcome.recorded) {
          this.stats.unrecorded++;
          this.logger.warn({ delivery: outcome.deliveryId, attempt: outcome.attemptNumber }, 'webhook attempt finished after its claim lapsed; not recorded');
          return;
        }
        if (outcome.next) {
          // The account's next delivery, claimed while recording this one: send it in the slot just freed.
          if (this.stopped) this.releases.push(this.release([{ id: outcome.next.id, attemptNumber: outcome.next.attemptNumber }]));
          else {
            this.stats.claimed++;
            this.run(outcome.next);
          }
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
        this.inFlight.delete(delivery.id);
        const left = (this.perAccount.get(delivery.accountId) ?? 1) - 1;
        if (left > 0) this.perAccount.set(delivery.accountId, left);
        else this.perAccount.delete(delivery.accountId);
        this.wake();
      });
    this.inFlight.set(delivery.id, { accountId: delivery.accountId, attemptNumber: delivery.attemptNumber, controller, done });
  }
}
