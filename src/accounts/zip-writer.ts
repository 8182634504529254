import type { Writable } from 'node:stream';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';

/** The reader went away (a closed download, a failed disk): the writer stops reading rows. */
export class ZipOutputClosedError extends Error {
  constructor() {
    super('the ZIP output closed before the ZIP was finished');
  }
}

/**
 * A ZIP written to a stream as its entries are made (fflate, the writer the images ZIP of an import uses), one
 * entry at a time, waiting for the output to take the bytes whenever it asks to: memory holds the piece being
 * added, never the ZIP. Text is deflated; stored files are kept as they are (most are compressed already).
 */
export class ZipWriter {
  private readonly zip: Zip;
  private failure: Error | undefined;
  private readonly names = new Set<string>();

  constructor(private readonly out: Writable) {
    this.zip = new Zip((error, chunk, final) => {
      if (error) this.failure = error;
      else if (!out.destroyed) out.write(chunk);
      if (final && !out.destroyed) out.end();
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
    this.names.add(name);
    return name;
  }

  private async push(entry: ZipDeflate | ZipPassThrough, bytes: Uint8Array): Promise<void> {
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
