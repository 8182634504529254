import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../db/schema/index.js';
import { isDatabaseUnavailable } from '../db/unavailable.js';
import type { ScanRecorderObserver } from '../metrics/scan-metrics.js';
import { prepareScanBatch, type PreparedScanBatch, ScanBatchWriter, type ScanEvent } from './scan-batch.js';
import type { ScanJournal } from './scan-journal.js';
import { writeWithinLimits } from './scan-limits.js';

export type { ScanEvent } from './scan-batch.js';

export interface ScanRecorderOptions {
  /** Most scans written in one transaction. */
  maxBatch: number;
  /**
   * Live batches written at once, each on its own connection. A batch starts beside one in flight only under
   * light load (fewer than `overlapBelow` scans in flight and waiting), where overlapping cuts each scan's wait
   * for the commit before its own, or when a full batch is waiting. In between, scans wait for the batch in
   * flight: fewer, larger batches cost PostgreSQL less per scan (measured at 100 connections: 12.6 µs of
   * PostgreSQL CPU per scan with batches of about 48, 19 µs with two overlapping batches of about 24).
   * Under light load, too, the next batch is sent before the committed one's scans are answered.
   */
  maxConcurrentBatches: number;
  overlapBelow: number;
  /**
   * Scans waiting for their commit (each holds a request open). Past it, new scans are answered at once and
   * kept in memory, as during an outage, rather than queueing without end behind a slow database.
   */
  maxWaiting: number;
  /** Scans kept in memory while the database cannot be written; beyond it the oldest are dropped and counted. */
  maxBuffered: number;
  /** Pause between attempts to write buffered scans while the database is failing. */
  retryDelayMs: number;
  /**
   * A batch not committed after this long is treated as failed: its scans are answered and kept in memory, and
   * later scans are answered at once until the database commits again. The statement may still commit; the
   * batch id makes the later retry a no-op then.
   */
  commitTimeoutMs: number;
}

export const DEFAULT_SCAN_RECORDER_OPTIONS: ScanRecorderOptions = {
  maxBatch: 500,
  maxConcurrentBatches: 2,
  overlapBelow: 16,
  maxWaiting: 10_000,
  maxBuffered: 100_000,
  retryDelayMs: 1_000,
  commitTimeoutMs: 2_000,
};

interface Waiting {
  scan: ScanEvent;
  done: () => void;
}

/** A scan of a code with a scan limit, waiting to learn whether it was admitted. */
interface WaitingForLimit {
  scan: ScanEvent;
  admitted: (admitted: boolean) => void;
  failed: (error: unknown) => void;
}

/** Why a scan of a limited code was not decided: its caller answers 503 (temporarily unavailable). */
export class ScanLimitUndecidedError extends Error {}

/** A batch kept in memory until it is known to be committed. */
interface BufferedBatch {
  batch: PreparedScanBatch;
  /** A write of this batch whose outcome is not known yet (it timed out, or is being retried now). */
  writing: Promise<void> | undefined;
  /** Failed writes of this batch, to tell a database that is down from a batch it refuses. */
  failures: number;
  /** Appended to the journal before its scans were answered: a crash of this process does not lose it. */
  journaled: boolean;
}

const POISON_AFTER_FAILURES = 3;
/** How often the journal directory is looked at for files of stopped processes (on other hosts: once stale). */
const JOURNAL_LOOK_INTERVAL_MS = 15_000;

/**
 * Group commit for scans, and what happens when the database cannot take them.
 *
 * Healthy (`live`): `record` resolves once the scan, its code's counter and its webhook outbox row are committed,
 * so an answered redirect is never lost, nor its webhook. Scans that arrive while a batch is being written go
 * into the next one: one statement per batch, whatever the number of clients.
 *
 * When a batch fails or does not commit within `commitTimeoutMs`, the recorder stops waiting for commits:
 * `record` resolves at once (the redirect is still answered) and scans are kept in memory as sealed batches, each
 * with its id, webhook delivery ids and bodies fixed. A drain writes them, oldest first, retrying every
 * `retryDelayMs`. As soon as one write succeeds the recorder is live again: new scans wait for their own commit
 * while the drain writes the backlog beside them. Rewriting a batch whose first write may have committed
 * (a timeout, a connection lost during COMMIT) is harmless: its id is recorded with it and a second write of
 * the same id changes nothing, so no scan is counted twice and no webhook gets a second id.
 *
 * With a journal (`useJournal`), no scan is answered from memory alone: scans that will not wait for a commit are
 * sealed into batches, appended to the journal and fsync'd (one write for all that arrived meanwhile), and only then
 * answered; a live batch that fails or times out is journaled before its waiting scans are answered. The journal of
 * a process that died is replayed by the next one to look (at start, whenever the database answers again, and
 * every JOURNAL_LOOK_INTERVAL_MS while it answers: not during an outage, when every write would fail), idempotently
 * through the batch ids, and the own file is emptied once every batch in it is committed. When the journal cannot take a batch (full, disk full) its scans are kept in memory as
 * without one, and counted (`stats.unjournaled`).
 */
export class ScanRecorder {
  private waiting: Waiting[] = [];
  private liveWritesInFlight = 0;
  private liveScansInFlight = 0;
  private live = true;
  /** Scans answered without a commit, not yet sealed into a batch. */
  private unsealed: ScanEvent[] = [];
  private readonly buffered: BufferedBatch[] = [];
  private bufferedScans = 0;
  private draining: Promise<void> | undefined;
  private probing: Promise<void> | undefined;
  private drainWake: (() => void) | undefined;
  private stopped = false;
  /** Past the shutdown deadline: the drain gives up (what is left was reported as lost). */
  private closed = false;
  /** Ends the drain's and the probe's waits at once when the recorder closes. */
  private readonly closing = new AbortController();
  /**
   * `evicted`: journaled scans dropped from memory when it was full; the journal still has them (replayed once the
   * memory is empty). `replayed`: scans written from journal files.
   */
  readonly stats = { written: 0, batches: 0, failedBatches: 0, timedOutBatches: 0, dropped: 0, evicted: 0 };
  private journal: ScanJournal | undefined;
  /** Scans waiting for their journal append (then answered). */
  private journalQueue: Waiting[] = [];
  private journaling: Promise<void> | undefined;
  private replaying: Promise<void> | undefined;
  private journalLooks: NodeJS.Timeout | undefined;
  /** Picks each batch's statement (with or without the webhook outbox). */
  private readonly writer: ScanBatchWriter;
  /** Scans of limited codes waiting for the next decision; one decision (transaction) in flight at a time. */
  private waitingForLimit: WaitingForLimit[] = [];
  private limitWrite: Promise<void> | undefined;

  constructor(
    private readonly db: Database,
    private readonly logger: Logger,
    private readonly options: ScanRecorderOptions = DEFAULT_SCAN_RECORDER_OPTIONS,
    /** Told the size of every committed batch (GET /metrics). */
    private readonly observer?: ScanRecorderObserver,
  ) {
    this.writer = new ScanBatchWriter(db);
  }

  record(scan: ScanEvent): Promise<void> {
    if (!this.live || this.stopped || this.waiting.length >= this.options.maxWaiting) {
      if (this.journal && !this.closed) return new Promise((done) => this.keepDurably({ scan, done }));
      this.keepInMemory(scan);
      return Promise.resolve();
    }
    return new Promise((done) => {
      this.waiting.push({ scan, done });
      this.pump();
    });
  }

  /**
   * For a scan of a code with a scan limit (issue 28): resolves true once it is committed within the limit, false
   * when the code had reached its limit (nothing written: the caller answers as for an expired code). Decided where
   * the scan is committed (scan-limits.ts), with every such scan that arrives meanwhile (group commit). Never kept
   * in memory or journaled, since its admission cannot be decided without the database: while the database fails
   * (or the recorder stops) it rejects with ScanLimitUndecidedError, and the scan is answered 503.
   */
  recordWithinLimit(scan: ScanEvent): Promise<boolean> {
    if (!this.live || this.stopped) {
      return Promise.reject(new ScanLimitUndecidedError('scans of a code with a scan limit cannot be decided while the database fails'));
    }
    return new Promise((admitted, failed) => {
      this.waitingForLimit.push({ scan, admitted, failed });
      this.limitWrite ??= this.decideLimits();
    });
  }

  /** Writes limited scans, everything that waits in one transaction, until none waits. */
  private async decideLimits(): Promise<void> {
    while (this.waitingForLimit.length > 0) {
      const taken = this.waitingForLimit.splice(0, this.options.maxBatch);
      const scans = taken.map((w) => w.scan);
      let admitted: boolean[] = [];
      const outcome = await settleWithin(
        writeWithinLimits(this.db, scans, this.options.commitTimeoutMs).then((answer) => {
          admitted = answer;
        }),
        this.options.commitTimeoutMs,
      );
      if (outcome.status === 'fulfilled') {
        const written = admitted.filter(Boolean).length;
        this.stats.written += written;
        this.stats.batches++;
        if (written > 0) this.observer?.batchWritten(written);
        taken.forEach((w, i) => w.admitted(admitted[i]!));
        continue;
      }
      const reason = outcome.status === 'timeout' ? new Error(`scans of limited codes not committed within ${this.options.commitTimeoutMs} ms`) : outcome.reason;
      this.logger.error({ err: reason, scans: taken.length }, 'scans of codes with a scan limit could not be decided; answered 503');
      const error = new ScanLimitUndecidedError('scans of a code with a scan limit could not be decided', { cause: reason });
      for (const w of taken) w.failed(error);
    }
    this.limitWrite = undefined;
  }

  /** Scans accepted but not yet known to be written (waiting for a commit or the journal, or kept in memory). */
  get backlog(): number {
    return this.waiting.length + this.journalQueue.length + this.unsealed.length + this.bufferedScans;
  }

  /** The journal's counters and size (GET /metrics); undefined without a journal. */
  get journalStats(): (ScanJournal['stats'] & { bytes: number }) | undefined {
    return this.journal && { ...this.journal.stats, bytes: this.journal.bytes };
  }

  /**
   * From now on, scans not committed in time are journaled before they are answered; files left by stopped
   * processes are replayed now and whenever the database answers again.
   */
  useJournal(journal: ScanJournal): void {
    this.journal = journal;
    this.journalLooks = setInterval(() => {
      if (this.live) this.replayJournal();
    }, JOURNAL_LOOK_INTERVAL_MS).unref();
    this.replayJournal();
  }

  /** Batches written by each statement (GET /metrics): without the webhook outbox, with it, or rewritten with it. */
  get batchStatements(): Readonly<ScanBatchWriter['stats']> {
    return this.writer.stats;
  }

  /** Whether new scans wait for their commit (false while the database is failing). */
  get isLive(): boolean {
    return this.live;
  }

  /**
   * Writes everything still in memory (for shutdown); gives up after `timeoutMs` and reports what is left. Returns
   * within about `timeoutMs` whatever the database does: a journal append or replay still running then is not
   * waited for past it (a frozen database would hold a write for the pool's query timeout, past a container's
   * stop grace).
   */
  async stop(timeoutMs: number): Promise<number> {
    this.stopped = true;
    const deadline = Date.now() + timeoutMs;
    while ((this.liveWritesInFlight > 0 || this.backlog > 0 || this.replaying || this.limitWrite) && Date.now() < deadline) {
      this.drain();
      // Only promises: an undefined in the race would settle it at once and spin without yielding to timers or I/O.
      const settling = [this.draining, this.replaying, this.limitWrite].filter((promise) => promise !== undefined);
      await Promise.race([...settling, delay(Math.min(50, Math.max(0, deadline - Date.now())))]);
    }
    this.closed = true;
    this.closing.abort();
    this.drainWake?.();
    clearInterval(this.journalLooks);
    // Scans waiting for their append are answered once it is done: let it finish, then close the file (close
    // comes after the append in the journal's own order). A replay stops before its next write (`closed`); what it
    // has not written stays in its claimed file, for the next start.
    const remaining = () => Math.max(0, deadline - Date.now());
    await settleWithin(Promise.all([this.journaling, this.replaying]).then(() => undefined), remaining());
    await settleWithin(this.journal?.close() ?? Promise.resolve(), remaining());
    const journaled = this.buffered.filter((entry) => entry.journaled).reduce((sum, entry) => sum + entry.batch.size, 0);
    const left = this.backlog - journaled;
    if (journaled > 0) this.logger.warn({ journaled }, 'scans not written before shutdown are in the journal; the next start writes them');
    if (left > 0) this.logger.error({ lost: left }, 'scans could not be written before shutdown');
    return left;
  }

  /** Starts the next live batch when a write slot is free and overlapping pays (see `maxConcurrentBatches`). */
  private pump(): void {
    const { maxConcurrentBatches, overlapBelow, maxBatch } = this.options;
    while (this.liveWritesInFlight < maxConcurrentBatches && this.waiting.length > 0) {
      const lightLoad = this.liveScansInFlight + this.waiting.length < overlapBelow;
      if (this.liveWritesInFlight > 0 && !lightLoad && this.waiting.length < maxBatch) return;
      const taken = this.waiting.splice(0, maxBatch);
      this.liveWritesInFlight++;
      this.liveScansInFlight += taken.length;
      void this.writeLive(taken);
    }
  }

  private async writeLive(taken: Waiting[]): Promise<void> {
    try {
      const batch = prepareScanBatch(taken.map((w) => w.scan));
      const write = this.write(batch);
      const outcome = await settleWithin(write, this.options.commitTimeoutMs);
      if (outcome.status !== 'fulfilled') {
        if (outcome.status === 'timeout') this.stats.timedOutBatches++;
        else this.stats.failedBatches++;
        this.goDegraded(outcome.status === 'timeout' ? new Error(`scan batch not committed within ${this.options.commitTimeoutMs} ms`) : outcome.reason);
        // Its scans are answered below: journal it first. (goDegraded has sent the scans waiting behind it there.)
        const journaled = (await this.journal?.append([batch])) ?? false;
        // A timed-out write may still commit; until it settles the drain leaves the batch alone.
        this.addBuffered({ batch, writing: outcome.status === 'timeout' ? write : undefined, failures: 0, journaled });
        if (outcome.status === 'timeout') this.followLateWrite(write);
      }
    } finally {
      this.liveWritesInFlight--;
      this.liveScansInFlight -= taken.length;
      if (taken.length + this.liveScansInFlight + this.waiting.length < this.options.overlapBelow) {
        // Light load: the next batch goes to PostgreSQL before these scans are answered, so it commits sooner
        // (pg-pool sends it on the next tick; answering on a later tick keeps that order). Measured at 10
        // connections: about a tenth more redirects a second.
        this.continueAfterBatch();
        process.nextTick(answerAll, taken);
      } else {
        // Heavy load: answers first (their microtasks run before pg-pool's next tick sends the next batch).
        // Sending the batch first shortened the cycle and with it every batch (measured at 100 connections:
        // batches of 41 instead of 46, and up to 15 % fewer redirects a second); small batches cost PostgreSQL
        // more a scan.
        answerAll(taken);
        this.continueAfterBatch();
      }
    }
  }

  private continueAfterBatch(): void {
    if (this.live) this.pump();
    else this.releaseWaiting();
  }

  private goDegraded(reason: unknown): void {
    if (this.live) {
      this.logger.error({ err: reason }, 'scans cannot be committed; answering from memory and retrying');
    }
    this.live = false;
    this.releaseWaiting();
    this.drain();
    this.probing ??= this.probeUntilLive().finally(() => {
      this.probing = undefined;
    });
  }

  private goLive(): void {
    if (this.live) return;
    this.live = true;
    this.logger.info({ stillInMemory: this.backlog }, 'scans are committed again; writing the rest from memory');
    this.replayJournal();
  }

  /**
   * While degraded, asks the database every `retryDelayMs` whether it answers, so redirects wait for commits again
   * as soon as it does, even while the backlog's first batch is still stuck (behind a lock its timed-out write
   * holds, say) and the drain cannot tell.
   */
  private async probeUntilLive(): Promise<void> {
    while (!this.live && !this.closed) {
      await this.sleep(this.options.retryDelayMs);
      const probe = await settleWithin(sql`select 1`.execute(this.db).then(() => undefined), this.options.commitTimeoutMs);
      if (probe.status === 'fulfilled') this.goLive();
    }
  }

  /** Scans waiting for a commit that will not come soon: answer them (once journaled) and keep them in memory. */
  private releaseWaiting(): void {
    const released = this.waiting;
    this.waiting = [];
    for (const w of released) {
      if (this.journal && !this.closed) {
        this.keepDurably(w);
        continue;
      }
      this.keepInMemory(w.scan);
      w.done();
    }
  }

  /** Journals the scan (with every other that arrives meanwhile), keeps it in memory, then answers it. */
  private keepDurably(waiting: Waiting): void {
    this.journalQueue.push(waiting);
    this.journaling ??= this.journalLoop()
      .catch((error: unknown) => this.logger.error({ err: error }, 'scan journal loop stopped unexpectedly'))
      .finally(() => {
        this.journaling = undefined;
        if (this.journalQueue.length > 0) this.keepDurably(this.journalQueue.pop()!);
      });
  }

  /** Group commit to the journal: everything queued during one append goes into the next, as batches of `maxBatch`. */
  private async journalLoop(): Promise<void> {
    while (this.journalQueue.length > 0) {
      const taken = this.journalQueue;
      this.journalQueue = [];
      const batches: PreparedScanBatch[] = [];
      for (let start = 0; start < taken.length; start += this.options.maxBatch) {
        batches.push(prepareScanBatch(taken.slice(start, start + this.options.maxBatch).map((w) => w.scan)));
      }
      const journaled = await this.journal!.append(batches);
      for (const batch of batches) this.addBuffered({ batch, writing: undefined, failures: 0, journaled });
      answerAll(taken);
      this.drain();
    }
  }

  /**
   * Writes the batches of every journal file this process may claim (see ScanJournal.claimAbandoned), oldest
   * first, and removes each file once all of it is committed. A batch the database refuses is split like one in
   * memory (`splitRefused`), so only the scan at fault is dropped. Stops at any other failure, or a write not
   * committed within `commitTimeoutMs`: the file stays claimed and is tried again at the next look.
   */
  private replayJournal(): void {
    if (!this.journal || this.closed) return;
    const journal = this.journal;
    this.replaying ??= (async () => {
      for (const file of await journal.claimAbandoned()) {
        const { batches, records } = await journal.read(file);
        let scans = 0;
        for (const batch of batches) {
          if (this.closed) return;
          scans += await this.replayBatch(batch);
        }
        journal.replayed(scans);
        await journal.remove(file);
        this.logger.info({ file, batches: records, scans }, 'scan journal replayed');
      }
    })()
      .catch((error: unknown) => this.logger.warn({ err: error }, 'scan journal could not be replayed yet; trying again later'))
      .finally(() => {
        this.replaying = undefined;
      });
  }

  /**
   * Writes one journaled batch, or the parts it splits into while the database refuses it (the drain's rule:
   * `refusedForGood`, then `splitRefused`). Returns the scans written. Throws when the database fails otherwise, a
   * write does not commit in time, or the recorder closes: the caller leaves the file for a later replay, which
   * forms the same parts with the same ids again (`splitRefused`), so parts committed now are not written twice.
   */
  private async replayBatch(batch: PreparedScanBatch): Promise<number> {
    const pending = [{ batch, failures: 0 }];
    let written = 0;
    while (pending.length > 0) {
      if (this.closed) throw new Error('the scan recorder closed during a journal replay');
      const next = pending[0]!;
      const outcome = await settleWithin(this.write(next.batch), this.options.commitTimeoutMs);
      if (outcome.status === 'fulfilled') {
        written += next.batch.size;
        pending.shift();
        continue;
      }
      if (outcome.status === 'timeout') throw new Error(`a journaled scan batch was not committed within ${this.options.commitTimeoutMs} ms`);
      next.failures++;
      if (await this.refusedForGood(next.failures, outcome.reason)) {
        pending.splice(0, 1, ...this.splitRefused(next.batch, outcome.reason).map((part) => ({ batch: part, failures: 0 })));
        continue;
      }
      if (!refusesTheData(outcome.reason)) throw outcome.reason;
      await this.sleep(this.options.retryDelayMs);
    }
    return written;
  }

  private keepInMemory(scan: ScanEvent): void {
    this.unsealed.push(scan);
    if (this.unsealed.length >= this.options.maxBatch) this.seal();
    this.dropOverflow();
    this.drain();
  }

  private seal(): void {
    if (this.unsealed.length === 0) return;
    const scans = this.unsealed;
    this.unsealed = [];
    this.addBuffered({ batch: prepareScanBatch(scans), writing: undefined, failures: 0, journaled: false });
  }

  private addBuffered(entry: BufferedBatch): void {
    this.buffered.push(entry);
    this.bufferedScans += entry.batch.size;
    this.dropOverflow();
    this.drainWake?.();
  }

  /** `committed`: the batch is in the database (not dropped, evicted or split). */
  private removeBuffered(entry: BufferedBatch, committed = true): void {
    const index = this.buffered.indexOf(entry);
    if (index === -1) return;
    this.buffered.splice(index, 1);
    this.bufferedScans -= entry.batch.size;
    if (entry.journaled && committed) this.journal?.committed(entry.batch.id);
    if (this.journal && this.buffered.length === 0 && this.unsealed.length === 0 && this.journalQueue.length === 0) {
      // Nothing in memory: empty the own journal file, or replay what only it holds.
      void this.journal.settle().then(
        (replay) => replay && this.replayJournal(),
        (error: unknown) => this.logger.warn({ err: error }, 'scan journal could not be settled'),
      );
    }
  }

  /**
   * Past `maxBuffered`, the oldest batches that are not being written leave memory: journaled ones stay in the
   * journal (replayed once memory is empty, or by the next process); the others are dropped, counted and logged.
   */
  private dropOverflow(): void {
    let overflow = this.bufferedScans + this.unsealed.length - this.options.maxBuffered;
    while (overflow > 0) {
      const oldest = this.buffered.find((entry) => !entry.writing);
      if (!oldest) break;
      this.removeBuffered(oldest, false);
      overflow -= oldest.batch.size;
      if (oldest.journaled) {
        this.journal?.evictedFromMemory(oldest.batch.id);
        this.stats.evicted += oldest.batch.size;
        continue;
      }
      this.stats.dropped += oldest.batch.size;
      this.logger.error({ dropped: oldest.batch.size, droppedTotal: this.stats.dropped }, 'scan memory full; oldest scans dropped');
    }
  }

  /** A timed-out live write that settles later: committed means done, failed means the drain retries it. */
  private followLateWrite(write: Promise<void>): void {
    write.then(
      () => {
        const entry = this.buffered.find((candidate) => candidate.writing === write);
        if (entry) this.removeBuffered(entry);
      },
      () => {
        const entry = this.buffered.find((candidate) => candidate.writing === write);
        if (entry) entry.writing = undefined;
        this.drainWake?.();
      },
    );
  }

  /** Runs the drain unless it is running. */
  private drain(): void {
    this.draining ??= this.drainLoop()
      .catch((error: unknown) => this.logger.error({ err: error }, 'scan drain stopped unexpectedly'))
      .finally(() => {
        this.draining = undefined;
        // Something may have arrived between the loop's last look and now.
        if (!this.closed && (this.unsealed.length > 0 || this.buffered.length > 0)) setImmediate(() => this.drain());
      });
  }

  /**
   * Writes what is kept in memory, oldest first, one batch at a time. Success makes the recorder live again at
   * once; failure waits `retryDelayMs`. Ends when nothing is left.
   */
  private async drainLoop(): Promise<void> {
    while (!this.closed) {
      if (this.buffered.every((entry) => entry.writing)) this.seal();
      const next = this.buffered.find((entry) => !entry.writing);
      if (!next) {
        if (this.buffered.length === 0) return;
        // Only writes of unknown outcome remain: wait for one to settle (or for new scans to be kept).
        await new Promise<void>((wake) => {
          this.drainWake = wake;
          void Promise.race(this.buffered.map((entry) => entry.writing)).then(wake, wake);
        });
        this.drainWake = undefined;
        continue;
      }
      const write = this.write(next.batch);
      next.writing = write;
      try {
        await write;
        this.removeBuffered(next);
        this.goLive();
      } catch (error) {
        next.writing = undefined;
        next.failures++;
        this.stats.failedBatches++;
        if (await this.refusedForGood(next.failures, error)) {
          this.isolate(next, error);
          continue;
        }
        this.goDegraded(error);
        this.logger.warn({ err: error, inMemory: this.backlog }, 'still cannot write scans kept in memory');
        await this.sleep(this.options.retryDelayMs);
      }
    }
  }

  private async databaseAnswers(): Promise<boolean> {
    const probe = await settleWithin(sql`select 1`.execute(this.db).then(() => undefined), this.options.commitTimeoutMs);
    return probe.status === 'fulfilled';
  }

  /**
   * Whether a batch that failed `failures` times in a row holds something the database refuses: a data or
   * integrity error, at least POISON_AFTER_FAILURES times, while the database answers. Such a batch cannot have
   * committed (a committed batch's rewrite is a no-op), so it may be split (`splitRefused`).
   */
  private async refusedForGood(failures: number, error: unknown): Promise<boolean> {
    return failures >= POISON_AFTER_FAILURES && refusesTheData(error) && (await this.databaseAnswers());
  }

  /**
   * A refused batch, halved and re-formed to find the scan at fault instead of blocking every scan behind it
   * forever; a single scan is dropped, counted and logged (no parts). The parts' ids are derived from the batch's,
   * so splitting the same batch again (its journal replayed after a crash) forms the same ids, and a part already
   * committed is not written twice.
   */
  private splitRefused(batch: PreparedScanBatch, error: unknown): PreparedScanBatch[] {
    const { scans } = batch;
    if (scans.length === 1) {
      this.stats.dropped++;
      // Without its visitor hash: a log outlives the day, and the hash must not (docs/dashboard/audience.md).
      const { visitor: _visitor, ...scan } = scans[0]!;
      this.logger.error({ err: error, batch: batch.id, scan }, 'a scan the database keeps refusing was dropped');
      return [];
    }
    const half = Math.ceil(scans.length / 2);
    return [scans.slice(0, half), scans.slice(half)].map((part, n) => prepareScanBatch(part, `${batch.id}.${n + 1}`));
  }

  /** A buffered batch the database refuses (`refusedForGood`): its parts replace it in memory (`splitRefused`). */
  private isolate(entry: BufferedBatch, error: unknown): void {
    // The parts are kept in memory only; the journal no longer waits for the whole (its record, replayed after a
    // crash, splits into the same parts with the same ids).
    if (entry.journaled) this.journal?.committed(entry.batch.id);
    const parts = this.splitRefused(entry.batch, error);
    if (parts.length === 0) {
      this.removeBuffered(entry, false);
      return;
    }
    const index = this.buffered.indexOf(entry);
    this.buffered.splice(index, 1, ...parts.map((part) => ({ batch: part, writing: undefined, failures: 0, journaled: false })));
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const signal = this.closing.signal;
      const wake = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      signal.addEventListener('abort', wake);
    });
  }

  private async write(batch: PreparedScanBatch): Promise<void> {
    await this.writer.write(batch);
    this.stats.written += batch.size;
    this.stats.batches++;
    this.observer?.batchWritten(batch.size);
  }
}

/**
 * Data exceptions (class 22) and integrity violations (class 23) are about what a batch holds; anything else (a
 * full disk, a read-only standby, a trigger refusing writes, a lost connection) is about the database, and is
 * waited out without dropping anything.
 */
function refusesTheData(error: unknown): boolean {
  // A database that cannot take the batch now (down, out of disk or memory: src/db/unavailable.ts) refuses nothing.
  if (isDatabaseUnavailable(error)) return false;
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && (code.startsWith('22') || code.startsWith('23'));
}

function answerAll(answered: readonly Waiting[]): void {
  for (const w of answered) w.done();
}

type Settled = { status: 'fulfilled' } | { status: 'rejected'; reason: unknown } | { status: 'timeout' };

function settleWithin(promise: Promise<void>, timeoutMs: number): Promise<Settled> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ status: 'timeout' }), timeoutMs);
    promise.then(
      () => {
        clearTimeout(timer);
        resolve({ status: 'fulfilled' });
      },
      (reason: unknown) => {
        clearTimeout(timer);
        resolve({ status: 'rejected', reason });
      },
    );
  });
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
