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
 * Outcomes that fail a delivery for good or disable its endpoint are rare and decide the endpoint's failure streak,
 * so they keep their own statement, after the batch they finished with. A database that is away is waited for as
 * with single records (about 14 s, ended by `signal`); a value PostgreSQL refuses (class 22) sends that batch's
 * outcomes one by one, so only the offending one loses what could not be stored.
 */
export class AttemptRecorder {
  private queue: Pending[] = [];
  private flushing = false;
  readonly stats = { statements: 0, recorded: 0 };

  constructor(
    private readonly deps: DeliveryDependencies,
    private readonly workerId: string,
    private readonly signal: AbortSignal,
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
    while (this.queue.length > 0) await this.flush(this.queue.splice(0, MAX_BATCH));
    this.flushing = false;
  }

  /** Settles every entry; never throws. */
  private async flush(batch: Pending[]): Promise<void> {
    const grouped = batch.filter((entry) => groupable(entry.record));
    if (grouped.length > 0) {
      try {
        this.stats.statements++;
        const recorded = await retryWhileDatabaseAway(() => recordAttemptBatch(this.deps.db, this.workerId, grouped), this.signal);
        this.stats.recorded += recorded.size;
        for (const entry of grouped) entry.resolve({ recorded: recorded.has(entry.delivery.id), disabled_reason: null, newly_disabled: null });
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        if (typeof code === 'string' && code.startsWith('22') && !isDatabaseUnavailable(error)) {
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
