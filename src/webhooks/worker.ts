import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { attemptDelivery, type DeliveryDependencies } from './delivery-attempt.js';
import { claimDueDeliveries, type ClaimedDelivery, releaseClaims } from './outbox.js';

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
  controller: AbortController;
  done: Promise<void>;
}

/**
 * Delivers the outbox. Wakes on the insert notification (or the poll timer), claims what is due within its free
 * slots, and runs each attempt on its own; a finished attempt frees its slot and, if the last claim was full,
 * claims again. Any number of workers can run against one database (SKIP LOCKED); delivery is at-least-once.
 */
export class WebhookWorker {
  readonly id = `worker-${randomBytes(6).toString('hex')}`;
  private readonly inFlight = new Map<string, InFlight>();
  private readonly perAccount = new Map<string, number>();
  private claiming: Promise<void> | undefined;
  private wakeAgain = false;
  private pollTimer: NodeJS.Timeout | undefined;
  /** Claims given back while stopping (a chained claim that raced the stop); `stop` waits for them. */
  private readonly releases: Promise<unknown>[] = [];
  private stopped = true;
  readonly stats = { claimed: 0, succeeded: 0, retried: 0, failed: 0, released: 0 };

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
    this.claiming = this.claimLoop().finally(() => {
      this.claiming = undefined;
    });
  }

  /**
   * Stops claiming, lets attempts in flight finish for up to `timeoutMs`, then aborts the rest and gives their
   * rows back (due at once) without counting an attempt. Nothing claimed is left behind a lease.
   */
  async stop(timeoutMs: number): Promise<void> {
    this.stopped = true;
    clearInterval(this.pollTimer);
    await this.claiming;
    const finished = Promise.all([...this.inFlight.values()].map((task) => task.done));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([finished, new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
    clearTimeout(timer);
    const unfinished = [...this.inFlight.keys()];
    for (const task of this.inFlight.values()) task.controller.abort();
    await finished;
    await Promise.all(this.releases);
    if (unfinished.length > 0) {
      this.stats.released += await releaseClaims(this.deps.db, this.id, unfinished);
      this.logger.info({ released: unfinished.length }, 'webhook deliveries still in flight at shutdown were released');
    }
  }

  private async claimLoop(): Promise<void> {
    do {
      this.wakeAgain = false;
      const free = this.options.concurrency - this.inFlight.size;
      if (free <= 0) return;
      let claimed: ClaimedDelivery[];
      try {
        claimed = await claimDueDeliveries(this.deps.db, {
          workerId: this.id,
          leaseMs: this.options.leaseMs,
          limit: free,
          perAccount: this.options.perAccountConcurrency,
          busy: new Map([...this.perAccount].map(([accountId, count]) => [accountId, this.options.perAccountConcurrency - count])),
        });
      } catch (error) {
        this.logger.warn({ err: error }, 'cannot claim webhook deliveries; trying again on the next poll');
        return;
      }
      this.stats.claimed += claimed.length;
      for (const delivery of claimed) this.run(delivery);
      // A full claim means more may be due; claim again now rather than at the next poll.
      if (claimed.length === free) this.wakeAgain = true;
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
        if (outcome.next) {
          // The account's next delivery, claimed while recording this one: send it in the slot just freed.
          if (this.stopped) this.releases.push(releaseClaims(this.deps.db, this.id, [outcome.next.id]));
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
    this.inFlight.set(delivery.id, { accountId: delivery.accountId, controller, done });
  }
}
