import type { Writable } from 'node:stream';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';

/** The reader went away (a closed download, a failed disk): the writer stops reading rows. */
export class ZipOutputClosedError extends Error {
  constructor() {
    super('the ZIP output closed before the ZIP was finished');
  }
}

/**
 * The ZIP would pass what its 32-bit fields hold (4 GiB less a byte: an entry's size, an offset; or 65,535
 * entries). fflate writes no ZIP64 records, so past that it would write a ZIP that looks whole but is corrupt.
 */
export class ZipTooLargeError extends Error {
  constructor(what: string) {
    super(`the ZIP is too large: ${what} passes what a ZIP without ZIP64 can hold (4 GiB in all, 65,535 entries)`);
  }
}

/** What a ZIP's 32-bit sizes and offsets hold, and its 16-bit entry counts. */
export const ZIP_LIMITS = { bytes: 0xffff_ffff, entries: 0xffff };

/**
 * A ZIP written to a stream as its entries are made (fflate, the writer the images ZIP of an import uses), one
 * entry at a time, waiting for the output to take the bytes whenever it asks to: memory holds the piece being
 * added, never the ZIP. Text is deflated; stored files are kept as they are (most are compressed already).
 */
export class ZipWriter {
  private readonly zip: Zip;
  private failure: Error | undefined;
  private readonly names = new Set<string>();
  /** Bytes given to the output: past the limit, an entry's offset or the directory's would not fit. */
  private written = 0;
  private entryBytes = 0;

  /** `limits` are ZIP_LIMITS but in tests. */
  constructor(
    private readonly out: Writable,
    private readonly limits = ZIP_LIMITS,
  ) {
    this.zip = new Zip((error, chunk, final) => {
      if (this.failure) return;
      if (error) this.failure = error;
      else if ((this.written += chunk.length) > this.limits.bytes) this.failure = new ZipTooLargeError('the ZIP file');
      else if (!out.destroyed) out.write(chunk);
      if (final && !out.destroyed && !this.failure) out.end();
    });
  }

  /** An entry of text, deflated, from pieces (lines) made one at a time. */
  async addText(name: string, pieces: AsyncIterable<string> | Iterable<string>): Promise<void> {
    const entry = new ZipDeflate(this.claim(name), { level: 6 });
    this.zip.add(entry);
    for await (const piece of pieces) await this.push(entry, Buffer.from(piece));
    entry.push(new Uint8Array(0), true);
    await this.settle();
  }

  /** An entry of bytes, stored as they are. */
  async addBytes(name: string, chunks: AsyncIterable<Uint8Array>): Promise<void> {
    const entry = new ZipPassThrough(this.claim(name));
    this.zip.add(entry);
    for await (const chunk of chunks) await this.push(entry, chunk);
    entry.push(new Uint8Array(0), true);
    await this.settle();
  }

  /** Writes the ZIP's directory, ends the output, and resolves once the output has taken every byte. */
  async end(): Promise<void> {
    this.zip.end();
    await this.settle();
    if (!this.out.writableFinished) await finishedOrClosed(this.out);
    if (!this.out.writableFinished) throw this.out.errored ?? new ZipOutputClosedError();
  }

  private claim(name: string): string {
    if (this.names.has(name)) throw new Error(`two ZIP entries named ${name}`);
    if (this.names.size >= this.limits.entries) throw new ZipTooLargeError('the number of entries');
    this.names.add(name);
    this.entryBytes = 0;
    return name;
  }

  private async push(entry: ZipDeflate | ZipPassThrough, bytes: Uint8Array): Promise<void> {
    if ((this.entryBytes += bytes.length) > this.limits.bytes) throw new ZipTooLargeError(`the entry ${[...this.names].at(-1)}`);
    entry.push(bytes);
    await this.settle();
  }

  private async settle(): Promise<void> {
    if (this.failure) throw this.failure;
    if (this.out.destroyed) throw new ZipOutputClosedError();
    if (this.out.writableNeedDrain) {
      await drainedOrClosed(this.out);
      if (this.out.destroyed) throw new ZipOutputClosedError();
    }
  }
}

/** Either the reader takes the bytes, or it goes away (and the export stops); no listener is left behind. */
function drainedOrClosed(out: Writable): Promise<void> {
  return firstOf(out, ['drain', 'close', 'error']);
}

function finishedOrClosed(out: Writable): Promise<void> {
  return firstOf(out, ['finish', 'close', 'error']);
}

function firstOf(out: Writable, events: string[]): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      for (const event of events) out.off(event, done);
      resolve();
    };
    for (const event of events) out.on(event, done);
  });
}
