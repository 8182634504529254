import type { Logger } from 'pino';
import { isDatabaseUnavailable } from '../db/unavailable.js';
import {
  type AttemptRecord,
  type DeliveryDependencies,
  groupable,
  type RecordedRow,
  recordAttemptBatch,
  recordWithFallback,
  retryWhileDatabaseAway,
} from './delivery-attempt.js';
import type { ClaimedDelivery } from './outbox.js';

/** Most outcomes in one statement: keeps a statement's parameters and its locks few. */
const MAX_BATCH = 256;

interface Pending {
  delivery: ClaimedDelivery;
  record: AttemptRecord;
  resolve: (row: RecordedRow) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for one worker's attempt outcomes: one statement records every outcome that finished while the
 * previous statement ran, instead of one statement (and one commit) per delivery. One statement is in flight at a
 * time, so a batch grows with the rate at which answers arrive, and a lone outcome is recorded at once.
 *
 * A batch holds at most one outcome per delivery: one delivery can have two (an outcome of a claim a PostgreSQL
 * crash forgot, and one of the claim made again after it), and at most one of them still holds its claim; the
 * second waits for the next statement, where it records nothing. So no batch ever carries two attempts of one
 * number, and no row of one can conflict with another row of the same batch.
 *
 * Outcomes that fail a delivery for good or disable its endpoint are rare and decide the endpoint's failure streak,
 * so they keep their own statement, after the batch they finished with. A database that is away is waited for as
 * with single records (about 14 s, ended by `signal`); a value PostgreSQL refuses (class 22) or a constraint it
 * enforces (class 23) sends that batch's outcomes one by one, so only the offending one loses what could not be
 * stored, and the others are recorded rather than sent again when their lease ends.
 */
export class AttemptRecorder {
  private queue: Pending[] = [];
  private flushing = false;
  /** `attemptRowsKept`: outcomes recorded whose attempt row of that number was already there (see BatchRecorded). */
  readonly stats = { statements: 0, recorded: 0, attemptRowsKept: 0 };

  constructor(
    private readonly deps: DeliveryDependencies,
    private readonly workerId: string,
    private readonly signal: AbortSignal,
    private readonly logger: Logger,
  ) {}

  record(delivery: ClaimedDelivery, record: AttemptRecord): Promise<RecordedRow> {
    return new Promise((resolve, reject) => {
      this.queue.push({ delivery, record, resolve, reject });
      if (!this.flushing) void this.flushLoop();
    });
  }

  private async flushLoop(): Promise<void> {
    this.flushing = true;
    // Nothing can be queued between the last check and the reset: both run in one turn of the event loop.
    while (this.queue.length > 0) await this.flush(this.nextBatch());
    this.flushing = false;
  }

  /** Up to MAX_BATCH queued outcomes, oldest first, at most one per delivery; the others stay queued in order. */
  private nextBatch(): Pending[] {
    const batch: Pending[] = [];
    const left: Pending[] = [];
    const deliveries = new Set<string>();
    for (const entry of this.queue) {
      if (batch.length < MAX_BATCH && !deliveries.has(entry.delivery.id)) {
        deliveries.add(entry.delivery.id);
        batch.push(entry);
      } else {
        left.push(entry);
      }
    }
    this.queue = left;
    return batch;
  }

  /** Settles every entry; never throws. */
  private async flush(batch: Pending[]): Promise<void> {
    const grouped = batch.filter((entry) => groupable(entry.record));
    if (grouped.length > 0) {
      try {
        this.stats.statements++;
        const { recorded, attemptRowKept } = await retryWhileDatabaseAway(() => recordAttemptBatch(this.deps.db, this.workerId, grouped), this.signal);
        this.stats.recorded += recorded.size;
        if (attemptRowKept.size > 0) {
          this.stats.attemptRowsKept += attemptRowKept.size;
          const kept = grouped.filter((entry) => attemptRowKept.has(entry.delivery.claimToken));
          this.logger.warn({ attempts: kept.map((entry) => ({ delivery: entry.delivery.id, attempt: entry.record.attemptNumber })) },
            'webhook outcomes recorded, but an attempt row of the same number was already there and was kept');
        }
        for (const entry of grouped) entry.resolve({ recorded: recorded.has(entry.delivery.claimToken), disabled_reason: null, newly_disabled: null });
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        if (typeof code === 'string' && (code.startsWith('22') || code.startsWith('23')) && !isDatabaseUnavailable(error)) {
          for (const entry of grouped) await this.recordOne(entry);
        } else {
          for (const entry of grouped) entry.reject(error);
        }
      }
    }
    for (const entry of batch) if (!groupable(entry.record)) await this.recordOne(entry);
  }

  private async recordOne(entry: Pending): Promise<void> {
    try {
      this.stats.statements++;
      const row = await recordWithFallback(this.deps, entry.delivery, { workerId: this.workerId, signal: this.signal }, entry.record);
      if (row.recorded) this.stats.recorded++;
      entry.resolve(row);
    } catch (error) {
      entry.reject(error);
    }
  }
}
