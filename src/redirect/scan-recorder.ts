import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../db/schema/index.js';
import { newId } from '../ids.js';
import { scanCreatedBody } from '../webhooks/payload.js';

export interface ScanEvent {
  codeId: string;
  accountId: string;
  /** The code's slug and name when it was scanned: what its webhook reports, even if they change later. */
  slug: string;
  name: string;
  at: Date;
  device: string;
  os: string;
  browser: string;
  destinationUrl: string;
  referrerHost: string | null;
  /** Bots only add to the code's bot counter: no scan row, no webhook. */
  bot: boolean;
}

export interface ScanRecorderOptions {
  /** Most scans written in one transaction. */
  maxBatch: number;
  /** Scans kept in memory while the database cannot be written; beyond it the oldest are dropped and counted. */
  maxBuffered: number;
  /** Pause between attempts to write buffered scans while the database is failing. */
  retryDelayMs: number;
  /**
   * Batches written at the same time (each on its own connection). 1 by default: with 2, a popular code's
   * counter row lock serialised the writers anyway and the bench got slower (0.37 → 0.22 of bare).
   */
  concurrentWrites: number;
}

interface Waiting {
  scan: ScanEvent;
  done: () => void;
}

/**
 * Group commit for scans. `record` resolves once the scan, its code's counter and its webhook outbox row are
 * committed, so a redirect that was answered is never lost, and neither is its webhook. Scans that arrive while a transaction is
 * in flight wait for the next one, which takes them all: one transaction per batch, a bulk insert, and one
 * counter update per code per batch, so a code scanned by thousands of clients does not serialise on its row.
 *
 * When the database cannot be written, `record` resolves anyway (the redirect is still answered) and the scans
 * stay in memory, retried until they are written; if even that buffer overflows, what is dropped is counted and
 * logged, never silent.
 */
export class ScanRecorder {
  private queue: Waiting[] = [];
  private buffered: ScanEvent[] = [];
  private writesInFlight = 0;
  private degraded = false;
  private retryTimer: NodeJS.Timeout | undefined;
  /** The one pass over `buffered` in progress; a second pass at once would write the same scans twice. */
  private bufferedPass: Promise<boolean> | undefined;
  private stopped = false;
  readonly stats = { written: 0, batches: 0, failedBatches: 0, dropped: 0 };

  constructor(
    private readonly db: Database,
    private readonly logger: Logger,
    private readonly options: ScanRecorderOptions = { maxBatch: 500, maxBuffered: 100_000, retryDelayMs: 1_000, concurrentWrites: 1 },
  ) {}

  record(scan: ScanEvent): Promise<void> {
    if (this.degraded || this.stopped) {
      this.buffer([scan]);
      return Promise.resolve();
    }
    return new Promise((done) => {
      this.queue.push({ scan, done });
      this.pump();
    });
  }

  /** Scans accepted but not yet written (waiting for a transaction, or buffered while the database fails). */
  get backlog(): number {
    return this.queue.length + this.buffered.length;
  }

  /** Writes everything still in memory (for shutdown); gives up after `timeoutMs` and reports what is left. */
  async stop(timeoutMs: number): Promise<number> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    const deadline = Date.now() + timeoutMs;
    while (this.writesInFlight > 0 && Date.now() < deadline) await delay(10);
    while (this.buffered.length > 0 && Date.now() < deadline) {
      if (!(await this.writeBuffered())) await delay(Math.min(this.options.retryDelayMs, Math.max(0, deadline - Date.now())));
    }
    if (this.buffered.length > 0) {
      this.logger.error({ lost: this.buffered.length }, 'scans could not be written before shutdown');
    }
    return this.buffered.length;
  }

  /** Starts batch writes while there is queued work and a free writer. */
  private pump(): void {
    while (this.writesInFlight < this.options.concurrentWrites && this.queue.length > 0 && !this.degraded) {
      const batch = this.queue.splice(0, this.options.maxBatch);
      this.writesInFlight++;
      void this.writeQueued(batch).finally(() => {
        this.writesInFlight--;
        this.pump();
      });
    }
  }

  private async writeQueued(batch: Waiting[]): Promise<void> {
    try {
      await this.write(batch.map((w) => w.scan));
    } catch (error) {
      this.stats.failedBatches++;
      this.logger.error({ err: error, scans: batch.length }, 'scan batch failed; keeping scans in memory and retrying');
      this.degraded = true;
      this.buffer(batch.map((w) => w.scan));
      const waiting = this.queue.splice(0);
      this.buffer(waiting.map((w) => w.scan));
      for (const w of waiting) w.done();
      this.scheduleRetry();
    }
    for (const waiting of batch) waiting.done();
  }

  private buffer(scans: ScanEvent[]): void {
    this.buffered.push(...scans);
    const overflow = this.buffered.length - this.options.maxBuffered;
    if (overflow > 0) {
      this.buffered.splice(0, overflow);
      this.stats.dropped += overflow;
      this.logger.error({ dropped: overflow, droppedTotal: this.stats.dropped }, 'scan buffer full; oldest scans dropped');
    }
    if (!this.retryTimer && !this.stopped) this.scheduleRetry();
  }

  private scheduleRetry(): void {
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.writeBuffered().then((ok) => {
        if (ok && this.buffered.length === 0) {
          this.degraded = false;
          this.logger.info('scans are being written again');
        } else if (!this.stopped) this.scheduleRetry();
      });
    }, this.options.retryDelayMs);
    this.retryTimer.unref();
  }

  /** Writes buffered scans batch by batch; false as soon as one batch fails. Joins a pass already running. */
  private writeBuffered(): Promise<boolean> {
    this.bufferedPass ??= this.passOverBuffered().finally(() => {
      this.bufferedPass = undefined;
    });
    return this.bufferedPass;
  }

  private async passOverBuffered(): Promise<boolean> {
    while (this.buffered.length > 0) {
      const batch = this.buffered.slice(0, this.options.maxBatch);
      try {
        await this.write(batch);
      } catch (error) {
        this.logger.warn({ err: error, buffered: this.buffered.length }, 'still cannot write buffered scans');
        return false;
      }
      this.buffered.splice(0, batch.length);
    }
    return true;
  }

  private async write(scans: ScanEvent[]): Promise<void> {
    const humans = scans.filter((s) => !s.bot);
    // One row per code, in id order so concurrent batches on several instances lock rows in the same order.
    const counts = new Map<string, { humans: number; bots: number }>();
    for (const scan of scans) {
      const count = counts.get(scan.codeId) ?? { humans: 0, bots: 0 };
      if (scan.bot) count.bots++;
      else count.humans++;
      counts.set(scan.codeId, count);
    }
    const codeIds = [...counts.keys()].sort();
    // The webhook body is serialised here, once: every attempt sends these bytes. Rows are kept only for accounts
    // with an enabled endpoint (the join), so building a body for the others costs a JSON.stringify and no I/O.
    const deliveryIds = humans.map((s) => newId('whd', s.at.getTime() * 1000));
    const bodies = humans.map((s, i) =>
      scanCreatedBody({ deliveryId: deliveryIds[i]!, qrCodeId: s.codeId, slug: s.slug, name: s.name, device: s.device, os: s.os, browser: s.browser, at: s.at }),
    );
    // One statement is one transaction and one round trip: scan rows, outbox rows and counters commit together.
    await sql`
      with inserted as (
        insert into scans (qr_code_id, created_at, device, os, browser, destination_url, referrer_host)
        select * from unnest(
          ${humans.map((s) => s.codeId)}::text[], ${humans.map((s) => s.at)}::timestamptz[],
          ${humans.map((s) => s.device)}::text[], ${humans.map((s) => s.os)}::text[],
          ${humans.map((s) => s.browser)}::text[], ${humans.map((s) => s.destinationUrl)}::text[],
          ${humans.map((s) => s.referrerHost)}::text[])
        returning 1
      ),
      outbox as (
        insert into webhook_deliveries (id, account_id, qr_code_id, event, body, created_at)
        select d.id, d.account_id, d.qr_code_id, 'scan.created', d.body, d.at
        from unnest(${deliveryIds}::text[], ${humans.map((s) => s.accountId)}::text[], ${humans.map((s) => s.codeId)}::text[],
                    ${bodies}::text[], ${humans.map((s) => s.at)}::timestamptz[]) as d(id, account_id, qr_code_id, body, at)
        join webhook_endpoints e on e.account_id = d.account_id and e.disabled_at is null
      )
      update qr_codes set scan_count = scan_count + c.humans, bot_scan_count = bot_scan_count + c.bots
      from unnest(${codeIds}::text[], ${codeIds.map((id) => counts.get(id)!.humans)}::bigint[],
                  ${codeIds.map((id) => counts.get(id)!.bots)}::bigint[]) as c(id, humans, bots)
      where qr_codes.id = c.id
    `.execute(this.db);
    this.stats.written += scans.length;
    this.stats.batches++;
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
