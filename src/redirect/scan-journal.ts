import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import type { Logger } from 'pino';
import { DAY_END_GRACE_MS } from '../audience/visitor-days.js';
import { syncDirectory } from '../durable-files.js';
import { prepareScanBatch, type PreparedScanBatch, SCAN_BATCH_LIFETIME_DAYS, type ScanEvent } from './scan-batch.js';

export interface ScanJournalOptions {
  /** Where the files live (DATA_DIR/journal, or SCAN_JOURNAL_DIR). One directory per host: see `isAbandoned`. */
  dir: string;
  /** Most bytes in this process's own file; past it batches are not journaled (kept in memory only). */
  maxBytes: number;
  /** How often the owner file's mtime is renewed, to tell a live owner on another host from a dead one. */
  heartbeatMs?: number;
  /** An owner file not renewed for this long belongs to a dead process, whatever its pid says. */
  staleAfterMs?: number;
  /**
   * Records appended longer ago than this are not replayed but set aside (see `read`): their batch ids may have
   * been pruned from scan_batches, so a committed one would be counted again.
   */
  replayWithinMs?: number;
  /** The time records are stamped with and aged by (a test sets it; the wall clock otherwise). */
  now?: () => number;
}

const DAY_MS = 24 * 3_600_000;
/**
 * Two days short of the scan_batches lifetime: the margin covers this host's clock running behind the database's
 * (pruning ages ids by the database's clock, records are aged by this one) and a batch committed by a timed-out
 * write shortly before it was journaled.
 */
export const JOURNAL_REPLAY_WITHIN_MS = (SCAN_BATCH_LIFETIME_DAYS - 2) * DAY_MS;

/**
 * The journal directory of one database: `embedded` for the embedded PostgreSQL (whose DATA_DIR is the database;
 * its port may change between runs), else a hash of DATABASE_URL's host, port and database name (credentials and
 * options left out). Instances of different databases sharing a directory (a default `./data` on one host) then
 * never replay each other's scans into the wrong database.
 */
export function journalDirFor(dir: string, databaseUrl: string | undefined): string {
  if (databaseUrl === undefined) return path.join(dir, 'embedded');
  let identity = databaseUrl;
  try {
    const url = new URL(databaseUrl);
    identity = `${url.hostname}:${url.port || '5432'}${url.pathname}`;
  } catch {
    // Not a URL (a libpq keyword string): the whole of it, then.
  }
  return path.join(dir, `db-${createHash('sha256').update(identity).digest('hex').slice(0, 16)}`);
}

/**
 * A record: magic, body length, CRC-32 of the body, body. The length and checksum let a reader tell a torn record
 * (the process died in the middle of a write) from a whole one, and skip it. Version 2's body is the time it was
 * appended (ms since 1970, a float64) and then the payload (one batch as JSON); version 1's (files written before
 * the stamp existed) is the payload alone, and is still read: its records are aged by the file's mtime.
 */
const MAGIC_V1 = 0x314a5351; // "QSJ1" read little-endian
const MAGIC_V2 = 0x324a5351; // "QSJ2"
const HEADER_BYTES = 12;
const STAMP_BYTES = 8;

/**
 * A scan as journaled: [codeId, accountId, at (ms), device, os, browser, destinationUrl, referrerHost, bot,
 * country, region, city, language, visitor, ruleId, variant]. Country to visitor came with audience analytics
 * (issue 27), ruleId and variant with routing (issue 28): a record of an earlier version ends before them, and its
 * scans replay with none of them (null), as that version knew none. The
 * visitor is the day's keyed hash, never the address (src/audience/visitor-hash.ts). It must not outlive its day:
 * a scan read after its day has ended (and DAY_END_GRACE_MS) comes back without it, so a replay cannot write it
 * and records set aside do not keep it (`read`); until then, a file not yet replayed holds it.
 */
type JournaledScan = [
  string, string, number | null, string, string, string, string, string | null, 0 | 1,
  (string | null)?, (string | null)?, (string | null)?, (string | null)?, (string | null)?,
  (string | null)?, (number | null)?,
];

export interface ReadJournal {
  /** Formed one at a time as they are iterated (once). */
  batches: Iterable<PreparedScanBatch>;
  /** Whole records found. */
  records: number;
  /** Records that failed their length or checksum (a torn last write, or damage), skipped. */
  tornRecords: number;
  skippedBytes: number;
  /** Records older than `replayWithinMs`, not in `batches`: copied to `expiredFile` instead. */
  expiredRecords: number;
  expiredFile: string | undefined;
}

/** What the owner file says about the process that writes `<token>.journal`. */
interface OwnerRecord {
  pid: number;
  host: string;
  /** `/proc/self/ns/pid` and `/proc/sys/kernel/random/boot_id`: a pid means something only within both. */
  pidNamespace?: string;
  bootId?: string;
  startTime?: string;
  startedAt?: string;
}

/**
 * The local journal of scans answered without a commit (see ScanRecorder). Each process appends to a file of its
 * own (`<token>.journal`) and keeps `<token>.owner` (its pid, start time, host, pid namespace and boot id, renewed
 * every few seconds) beside it. A file is replayed only by a process that claimed it by renaming it to
 * `<its token>.claimed-<n>.journal`: a rename succeeds once, so two processes never replay one file, and no
 * process takes the file of a live one. Every append is written and fsync'd (with the directory, when the file is
 * new) before it resolves; each record carries its append time, and records too old to replay safely are set
 * aside (`read`).
 */
export class ScanJournal {
  readonly token = randomBytes(6).toString('hex');
  private handle: fs.FileHandle | undefined;
  private fileBytes = 0;
  /** Ids of the batches in the own file whose commit the recorder has not reported yet. */
  private readonly uncommitted = new Set<string>();
  /** Of those, batches the recorder no longer holds in memory (its memory was full): only this file has them. */
  private readonly evicted = new Set<string>();
  private chain: Promise<unknown> = Promise.resolve();
  private heartbeat: NodeJS.Timeout | undefined;
  private claims = 0;
  /** Whether the last append failed for lack of room or a write error (logged on each change, not each scan). */
  private refusing: string | undefined;
  private closed = false;
  /** Claimed files whose expired records were already counted (a file read again after a failed replay). */
  private readonly expiredCounted = new Set<string>();
  /** `expiredScans`: scans in records too old to replay, set aside in `.expired` files. */
  readonly stats = { journaledScans: 0, unjournaledScans: 0, replayedScans: 0, tornRecords: 0, expiredScans: 0 };

  private constructor(
    private readonly options: Required<ScanJournalOptions>,
    private readonly logger: Logger,
    /** This process's pid namespace and boot, to tell whether another owner's pid can be looked up here. */
    private readonly pidSpace: { pidNamespace?: string; bootId?: string },
  ) {}

  /** Creates the directory and this process's owner file. Fails when the directory cannot be written. */
  static async open(options: ScanJournalOptions, logger: Logger): Promise<ScanJournal> {
    const pidSpace = await ownPidSpace();
    const journal = new ScanJournal(
      { heartbeatMs: 5_000, staleAfterMs: 30_000, replayWithinMs: JOURNAL_REPLAY_WITHIN_MS, now: Date.now, ...options },
      logger,
      pidSpace,
    );
    await fs.mkdir(options.dir, { recursive: true });
    await warnOfOtherDatabaseDirectories(options.dir, journal.options.staleAfterMs, logger);
    const owner: OwnerRecord = { pid: process.pid, host: os.hostname(), ...pidSpace, startTime: await processStartTime(process.pid), startedAt: new Date().toISOString() };
    await fs.writeFile(journal.ownerPath, JSON.stringify(owner));
    journal.heartbeat = setInterval(() => {
      const now = new Date();
      fs.utimes(journal.ownerPath, now, now).catch((error: unknown) => logger.warn({ err: error }, 'scan journal owner file could not be renewed'));
    }, journal.options.heartbeatMs).unref();
    return journal;
  }

  /** Bytes in this process's own file (committed batches included, until the file is emptied). */
  get bytes(): number {
    return this.fileBytes;
  }

  private get ownerPath(): string {
    return path.join(this.options.dir, `${this.token}.owner`);
  }

  private get ownPath(): string {
    return path.join(this.options.dir, `${this.token}.journal`);
  }

  /**
   * Appends the batches and fsyncs them, in one write. True when they are on disk; false when they were not
   * written (the file is at `maxBytes`, the disk is full, a write failed): the caller keeps them in memory only.
   * Never rejects.
   */
  append(batches: readonly PreparedScanBatch[]): Promise<boolean> {
    return this.serially(async () => {
      const scans = batches.reduce((sum, batch) => sum + batch.size, 0);
      const refuse = (reason: string, error?: unknown) => {
        this.stats.unjournaledScans += scans;
        if (this.refusing !== reason) this.logger.error({ err: error, dir: this.options.dir, maxBytes: this.options.maxBytes }, `scans cannot be journaled (${reason}): kept in memory only`);
        this.refusing = reason;
        return false;
      };
      if (this.closed) return refuse('journal closed');
      const appendedAt = this.options.now();
      const record = Buffer.concat(batches.map((batch) => encodeRecord(batch, appendedAt)));
      if (this.fileBytes + record.length > this.options.maxBytes) return refuse('SCAN_JOURNAL_MAX_MB reached');
      try {
        if (!this.handle) {
          this.handle = await fs.open(this.ownPath, 'a');
          this.fileBytes = (await this.handle.stat()).size;
          await syncDirectory(this.options.dir);
        }
        // A write may be short (a disk with room for part of it): the rest is written, or fails with ENOSPC.
        for (let written = 0; written < record.length; ) {
          const { bytesWritten } = await this.handle.write(record, written, record.length - written);
          if (bytesWritten === 0) throw Object.assign(new Error('the journal write made no progress'), { code: 'ENOSPC' });
          written += bytesWritten;
        }
        await this.handle.datasync();
      } catch (error) {
        await this.undoPartialWrite();
        return refuse((error as NodeJS.ErrnoException).code ?? 'write failed', error);
      }
      this.fileBytes += record.length;
      for (const batch of batches) this.uncommitted.add(batch.id);
      this.stats.journaledScans += scans;
      if (this.refusing) this.logger.info({ dir: this.options.dir }, 'scans are journaled again');
      this.refusing = undefined;
      return true;
    });
  }

  /** A journaled batch was committed. */
  committed(batchId: string): void {
    this.uncommitted.delete(batchId);
    this.evicted.delete(batchId);
  }

  /** A journaled batch was dropped from the recorder's memory (it was full): the file alone holds it now. */
  evictedFromMemory(batchId: string): void {
    if (this.uncommitted.has(batchId)) this.evicted.add(batchId);
  }

  /**
   * Called when the recorder holds nothing: empties the own file when every batch in it is committed, or, when
   * some are held only here (evicted from memory), claims it for replay and starts a new one. Returns whether
   * something awaits replay.
   */
  settle(): Promise<boolean> {
    return this.serially(async () => {
      if (!this.handle || this.fileBytes === 0) return false;
      if (this.uncommitted.size === 0) {
        await this.handle.truncate(0).then(
          () => (this.fileBytes = 0),
          (error: unknown) => this.logger.warn({ err: error }, 'scan journal could not be emptied'),
        );
        return false;
      }
      if (this.uncommitted.size > this.evicted.size) return false; // some are still in memory, being written
      await this.rotate();
      return true;
    });
  }

  /**
   * Claims every file this process may replay: its own earlier claims, and the files of processes that are gone.
   * Returns their paths, oldest claim first.
   */
  async claimAbandoned(): Promise<string[]> {
    const names = await fs.readdir(this.options.dir).catch(() => [] as string[]);
    const mine: string[] = [];
    const byOwner = new Map<string, string[]>();
    for (const name of names) {
      if (!name.endsWith('.journal')) continue;
      const owner = name.slice(0, name.indexOf('.'));
      if (owner === this.token) {
        if (name !== `${this.token}.journal`) mine.push(path.join(this.options.dir, name));
        continue;
      }
      byOwner.set(owner, [...(byOwner.get(owner) ?? []), name]);
    }
    for (const name of names) {
      // Owners that left no file: their owner file goes once they are gone.
      if (name.endsWith('.owner') && !byOwner.has(name.slice(0, -'.owner'.length)) && name !== `${this.token}.owner`) {
        if (await this.isAbandoned(name.slice(0, -'.owner'.length))) await fs.rm(path.join(this.options.dir, name), { force: true });
      }
    }
    for (const [owner, files] of byOwner) {
      if (!(await this.isAbandoned(owner))) continue;
      for (const name of files.sort()) {
        const claimed = this.claimedPath();
        try {
          await fs.rename(path.join(this.options.dir, name), claimed);
          mine.push(claimed);
          this.logger.info({ file: name, claimedAs: path.basename(claimed) }, 'claimed the scan journal of a stopped process');
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error; // ENOENT: another process claimed it first
        }
      }
      await fs.rm(path.join(this.options.dir, `${owner}.owner`), { force: true });
    }
    return mine.sort();
  }

  /**
   * An owner is gone when its owner file is missing (it stopped and left unwritten batches). In this process's pid
   * namespace and boot (same host name, pid namespace and boot id), it is gone when its pid is not running with the
   * start time it wrote (Linux: /proc; so a pid reused by another process does not keep its files, and a live owner
   * whose event loop stalls keeps them). Anywhere else, its pid says nothing here (another host; a container with
   * the host's network, so the host's name, but a pid namespace of its own; a boot since): it is gone when its owner
   * file has not been renewed for `staleAfterMs`.
   */
  private async isAbandoned(owner: string): Promise<boolean> {
    const ownerFile = path.join(this.options.dir, `${owner}.owner`);
    let text: string;
    let mtimeMs: number;
    try {
      [text, { mtimeMs }] = await Promise.all([fs.readFile(ownerFile, 'utf8'), fs.stat(ownerFile)]);
    } catch {
      return true;
    }
    const stale = Date.now() - mtimeMs > this.options.staleAfterMs;
    let written: OwnerRecord;
    try {
      written = JSON.parse(text) as OwnerRecord;
    } catch {
      return stale; // being written right now, or cut short by a crash
    }
    const samePidSpace =
      written.host === os.hostname() &&
      written.pidNamespace !== undefined &&
      written.pidNamespace === this.pidSpace.pidNamespace &&
      written.bootId !== undefined &&
      written.bootId === this.pidSpace.bootId;
    if (!samePidSpace || written.startTime === undefined) return stale;
    return (await processStartTime(written.pid)) !== written.startTime;
  }

  /**
   * Reads a claimed file, skipping records that fail their length or checksum. The records are checked at once;
   * each batch is formed only when iterated, so a large file costs its bytes in memory, not its scans as objects.
   */
  async read(file: string): Promise<ReadJournal> {
    const [bytes, { mtimeMs }] = await Promise.all([fs.readFile(file), fs.stat(file)]);
    const records: Array<{ start: number; end: number }> = [];
    let tornRecords = 0;
    let skippedBytes = 0;
    let offset = 0;
    while (offset < bytes.length) {
      const end = wholeRecordAt(bytes, offset);
      if (end !== undefined) {
        records.push({ start: offset, end });
        offset = end;
        continue;
      }
      // A torn or damaged record: skip to the next whole one, if any (only a last record is torn by a crash).
      tornRecords++;
      let next = offset + 1;
      while (next < bytes.length && wholeRecordAt(bytes, next) === undefined) next++;
      skippedBytes += next - offset;
      offset = next;
    }
    if (tornRecords > 0) {
      this.stats.tornRecords += tornRecords;
      this.logger.warn({ file: path.basename(file), tornRecords, skippedBytes }, 'scan journal held torn records; skipped');
    }
    // A record too old to replay may hold a batch committed before its process stopped whose id pruning has since
    // deleted from scan_batches: written again, it would count its scans twice and send their webhooks again under
    // new ids. Such records are copied to `<file>.expired` for the operator, and not written.
    const now = this.options.now();
    const oldestReplayed = now - this.options.replayWithinMs;
    // Visitors of days that have ended (their secret destroyed, or about to be) are dropped as records are read.
    const firstLiveDay = Math.floor((now - DAY_END_GRACE_MS) / DAY_MS);
    const expired = records.filter(({ start }) => appendedAt(bytes, start, mtimeMs) < oldestReplayed);
    let expiredFile: string | undefined;
    if (expired.length > 0) {
      expiredFile = file.replace(/\.journal$/, '') + '.expired';
      // Written whole each time the file is read (a replay that failed reads it again), so it holds each record once;
      // rewritten without the visitors of ended days (all of them, records this old), keeping each one's stamp. A
      // record that cannot be read (a valid checksum over bytes that are not a batch) is copied as it is.
      const setAside = expired.map(({ start, end }) => {
        const batch = decodeRecord(bytes, start, end, firstLiveDay);
        return batch ? encodeRecord(batch, appendedAt(bytes, start, mtimeMs)) : bytes.subarray(start, end);
      });
      await writeDurably(expiredFile, Buffer.concat(setAside));
      const scans = expired.reduce((sum, { start, end }) => sum + (decodeRecord(bytes, start, end, firstLiveDay)?.size ?? 0), 0);
      if (!this.expiredCounted.has(file)) {
        this.expiredCounted.add(file);
        this.stats.expiredScans += scans;
      }
      this.logger.error(
        { file: path.basename(file), expiredFile, batches: expired.length, scans, replayWithinDays: this.options.replayWithinMs / DAY_MS },
        'scan journal records too old to replay were set aside, not written: some may have been committed before, and ' +
          'scan_batches no longer remembers which. Compare their scans (code, time) with the database, add the missing ' +
          'ones by hand if they matter, then delete the .expired file',
      );
    }
    const fresh = records.filter((record) => !expired.includes(record));
    const logger = this.logger;
    function* batches(): Generator<PreparedScanBatch> {
      for (const { start, end } of fresh) {
        const batch = decodeRecord(bytes, start, end, firstLiveDay);
        if (batch) yield batch;
        else logger.error({ file: path.basename(file), offset: start }, 'scan journal record with a valid checksum could not be read; skipped');
      }
    }
    return { batches: batches(), records: fresh.length, tornRecords, skippedBytes, expiredRecords: expired.length, expiredFile };
  }

  /** A claimed file whose every batch is committed. */
  async remove(file: string): Promise<void> {
    await fs.rm(file, { force: true });
  }

  replayed(scans: number): void {
    this.stats.replayedScans += scans;
  }

  /**
   * Stops appending. The own file is removed when nothing in it awaits a commit; otherwise it stays, with the owner
   * file removed, so the next process to look claims it at once.
   */
  close(): Promise<void> {
    return this.serially(async () => {
      this.closed = true;
      clearInterval(this.heartbeat);
      await this.handle?.close().catch(() => undefined);
      this.handle = undefined;
      if (this.uncommitted.size === 0) await fs.rm(this.ownPath, { force: true });
      else this.logger.warn({ batches: this.uncommitted.size, file: path.basename(this.ownPath) }, 'scans left in the journal, written at the next start');
      await fs.rm(this.ownerPath, { force: true });
    });
  }

  private claimedPath(): string {
    return path.join(this.options.dir, `${this.token}.claimed-${Date.now()}-${String(this.claims++).padStart(6, '0')}.journal`);
  }

  /** After a failed write: cut the file back to its last whole record, or give it up so later records are not behind a torn one. */
  private async undoPartialWrite(): Promise<void> {
    if (!this.handle) return;
    try {
      await this.handle.truncate(this.fileBytes);
    } catch {
      // Leave it for replay as it is (its torn tail is skipped) and start a new file next time.
      await this.rotate().catch(() => undefined);
    }
  }

  /** The own file becomes a claimed one (replayed by this process) and the next append starts a new file. */
  private async rotate(): Promise<void> {
    await this.handle?.close().catch(() => undefined);
    this.handle = undefined;
    this.fileBytes = 0;
    this.uncommitted.clear();
    this.evicted.clear();
    await fs.rename(this.ownPath, this.claimedPath());
  }

  private serially<T>(task: () => Promise<T>): Promise<T> {
    const result = this.chain.then(task);
    this.chain = result.catch(() => undefined);
    return result;
  }
}

function encodeRecord(batch: PreparedScanBatch, appendedAt: number): Buffer {
  const scans: JournaledScan[] = batch.scans.map((scan) => {
    const at = scan.at.getTime();
    return [
      scan.codeId, scan.accountId, Number.isFinite(at) ? at : null, scan.device, scan.os, scan.browser, scan.destinationUrl, scan.referrerHost, scan.bot ? 1 : 0,
      scan.country, scan.region, scan.city, scan.language, scan.visitor, scan.ruleId ?? null, scan.variant ?? null,
    ];
  });
  const payload = Buffer.from(JSON.stringify({ id: batch.id, scans }));
  const body = Buffer.allocUnsafe(STAMP_BYTES + payload.length);
  body.writeDoubleLE(appendedAt, 0);
  payload.copy(body, STAMP_BYTES);
  const header = Buffer.allocUnsafe(HEADER_BYTES);
  header.writeUInt32LE(MAGIC_V2, 0);
  header.writeUInt32LE(body.length, 4);
  header.writeUInt32LE(crc32(body), 8);
  return Buffer.concat([header, body]);
}

/** Where the whole record at `offset` ends: its magic, its length within the file, its checksum; else undefined. */
function wholeRecordAt(bytes: Buffer, offset: number): number | undefined {
  if (bytes.length - offset < HEADER_BYTES) return undefined;
  const magic = bytes.readUInt32LE(offset);
  if (magic !== MAGIC_V1 && magic !== MAGIC_V2) return undefined;
  const end = offset + HEADER_BYTES + bytes.readUInt32LE(offset + 4);
  if (end > bytes.length || (magic === MAGIC_V2 && end - offset < HEADER_BYTES + STAMP_BYTES)) return undefined;
  return crc32(bytes.subarray(offset + HEADER_BYTES, end)) === bytes.readUInt32LE(offset + 8) ? end : undefined;
}

/** When the whole record at `start` was appended; a version 1 record (no stamp) no later than its file's mtime. */
function appendedAt(bytes: Buffer, start: number, fileMtimeMs: number): number {
  return bytes.readUInt32LE(start) === MAGIC_V2 ? bytes.readDoubleLE(start + HEADER_BYTES) : fileMtimeMs;
}

/** The record's batch, its scans of UTC days before `firstLiveDay` (days since 1970) without their visitor. */
function decodeRecord(bytes: Buffer, start: number, end: number, firstLiveDay: number): PreparedScanBatch | undefined {
  const payloadStart = start + HEADER_BYTES + (bytes.readUInt32LE(start) === MAGIC_V2 ? STAMP_BYTES : 0);
  return decodePayload(bytes.subarray(payloadStart, end), firstLiveDay);
}

function decodePayload(payload: Buffer, firstLiveDay: number): PreparedScanBatch | undefined {
  try {
    const { id, scans } = JSON.parse(payload.toString('utf8')) as { id: string; scans: JournaledScan[] };
    const events: ScanEvent[] = scans.map(([codeId, accountId, at, device, os, browser, destinationUrl, referrerHost, bot, country, region, city, language, visitor, ruleId, variant]) => ({
      codeId, accountId, at: new Date(at ?? Number.NaN), device, os, browser, destinationUrl, referrerHost,
      country: country ?? null, region: region ?? null, city: city ?? null, language: language ?? null,
      // A scan of an ended day cannot be judged any more (its day's pairs are gone): its hash is only a risk now.
      visitor: visitor != null && at !== null && Math.floor(at / DAY_MS) >= firstLiveDay ? visitor : null,
      bot: bot === 1,
      ruleId: ruleId ?? null,
      variant: variant ?? null,
    }));
    // The same scans in the same order give the same statement parameter: the batch is written as it was formed
    // (but for visitors of ended days; a write of it that committed keeps the batch id, so this one changes nothing).
    return prepareScanBatch(events, id);
  } catch {
    return undefined;
  }
}

/** Writes the file and fsyncs it and its directory. */
async function writeDurably(file: string, bytes: Buffer): Promise<void> {
  const handle = await fs.open(file, 'w');
  try {
    await handle.writeFile(bytes);
    await handle.datasync();
  } finally {
    await handle.close();
  }
  await syncDirectory(path.dirname(file));
}

/** This process's pid namespace and boot (Linux); neither without /proc. */
async function ownPidSpace(): Promise<{ pidNamespace?: string; bootId?: string }> {
  const [pidNamespace, bootId] = await Promise.all([
    fs.readlink('/proc/self/ns/pid').catch(() => undefined),
    fs.readFile('/proc/sys/kernel/random/boot_id', 'utf8').then((text) => text.trim(), () => undefined),
  ]);
  return { pidNamespace, bootId };
}

/**
 * The directory of a database is named after DATABASE_URL's host as written (journalDirFor), so a changed URL
 * (localhost for 127.0.0.1, a new port) leaves the files of the old one unreplayed in a sibling directory: say so.
 * Files whose owner is running (owner file renewed within `staleAfterMs`) are left out: an instance of another
 * database sharing the directory is replaying its own.
 */
async function warnOfOtherDatabaseDirectories(dir: string, staleAfterMs: number, logger: Logger): Promise<void> {
  const root = path.dirname(dir);
  const siblings = await fs.readdir(root, { withFileTypes: true }).catch(() => []);
  for (const sibling of siblings) {
    if (!sibling.isDirectory() || sibling.name === path.basename(dir) || !(sibling.name === 'embedded' || sibling.name.startsWith('db-'))) continue;
    const siblingDir = path.join(root, sibling.name);
    const files: string[] = [];
    for (const name of await fs.readdir(siblingDir).catch(() => [] as string[])) {
      if (!name.endsWith('.journal')) continue;
      const ownerFile = path.join(siblingDir, `${name.slice(0, name.indexOf('.'))}.owner`);
      const ownerRenewed = await fs.stat(ownerFile).then(({ mtimeMs }) => Date.now() - mtimeMs <= staleAfterMs, () => false);
      if (!ownerRenewed) files.push(name);
    }
    if (files.length === 0) continue;
    logger.warn(
      { dir: siblingDir, files, ownDir: dir },
      'scan journal files of stopped processes lie in the directory of another database, and this instance does not ' +
        'replay them. If DATABASE_URL changed to name the same database differently (localhost for 127.0.0.1, say), ' +
        'move them into ownDir (claimed and replayed at the next look); if it is another database, start an instance of it',
    );
  }
}


/** When the process started (clock ticks since boot, from /proc/<pid>/stat); undefined when not running or no /proc. */
async function processStartTime(pid: number): Promise<string | undefined> {
  try {
    const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command name, which is in parentheses and may hold anything: starttime is field 22.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

