import { createHash, randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import yauzl from 'yauzl';
import { describe, expect, it } from 'vitest';
import { ZipOutputClosedError, ZipTooLargeError, ZipWriter } from '../../src/accounts/zip-writer.js';

/** An output that takes its bytes slowly (a download over a slow line), remembering the most it ever held. */
function slowOutput() {
  const written: Buffer[] = [];
  let mostHeld = 0;
  const out = new Writable({
    highWaterMark: 16 * 1024,
    write(chunk: Buffer, _encoding, done) {
      written.push(chunk);
      mostHeld = Math.max(mostHeld, out.writableLength);
      setImmediate(done);
    },
  });
  return { out, written, mostHeld: () => mostHeld };
}

async function* pieces(count: number, size: number, hash: ReturnType<typeof createHash>) {
  for (let i = 0; i < count; i++) {
    const piece = randomBytes(size);
    hash.update(piece);
    yield piece;
  }
}

async function firstEntry(zipBytes: Buffer): Promise<{ name: string; sha256: string }> {
  const zip = await yauzl.fromBufferPromise(zipBytes, { lazyEntries: true, validateEntrySizes: true });
  return new Promise((resolve, reject) => {
    zip.on('error', reject);
    zip.once('entry', (entry: yauzl.Entry) => {
      zip.openReadStreamPromise(entry).then(async (stream) => {
        const hash = createHash('sha256');
        for await (const chunk of stream) hash.update(chunk as Buffer);
        resolve({ name: entry.fileName, sha256: hash.digest('hex') });
      }, reject);
    });
    zip.readEntry();
  });
}

describe('ZipWriter', () => {
  it('waits for a slow output, so it never holds more than a piece or two whatever the size of the ZIP', async () => {
    const { out, written, mostHeld } = slowOutput();
    const zip = new ZipWriter(out);
    const sent = createHash('sha256');
    // 8 MB in 64 KiB pieces: without waiting for the output, all of it would be held in the stream's buffer.
    await zip.addBytes('files/f_1/big.bin', pieces(128, 64 * 1024, sent));
    await zip.end();
    expect(mostHeld()).toBeLessThan(3 * 64 * 1024);
    expect(await firstEntry(Buffer.concat(written))).toEqual({ name: 'files/f_1/big.bin', sha256: sent.digest('hex') });
  });

  it('stops with ZipOutputClosedError when the reader goes away', async () => {
    const { out } = slowOutput();
    const zip = new ZipWriter(out);
    const lines = (async function* () {
      for (let i = 0; ; i++) {
        if (i === 50) out.destroy();
        yield `${JSON.stringify({ line: i, pad: 'x'.repeat(2000) })}\n`;
      }
    })();
    await expect(zip.addText('scans.ndjson', lines)).rejects.toBeInstanceOf(ZipOutputClosedError);
  });

  it('fails with ZipTooLargeError before a size, an offset or the entry count passes what the ZIP can hold', async () => {
    // The limits scaled down from 4 GiB and 65,535 entries (fflate writes no ZIP64: past them the ZIP is corrupt).
    const limits = { bytes: 1_000, entries: 3 };
    const bytes = (size: number, hash = createHash('sha256')) => pieces(1, size, hash);

    const oneEntry = slowOutput();
    await expect(new ZipWriter(oneEntry.out, limits).addBytes('big.bin', bytes(1_001))).rejects.toBeInstanceOf(ZipTooLargeError);

    const inAll = slowOutput();
    const zip = new ZipWriter(inAll.out, limits);
    await zip.addBytes('a.bin', bytes(600));
    await expect(zip.addBytes('b.bin', bytes(600))).rejects.toBeInstanceOf(ZipTooLargeError);
    expect(Buffer.concat(inAll.written).length).toBeLessThanOrEqual(1_000);

    const many = new ZipWriter(slowOutput().out, limits);
    for (const name of ['1', '2', '3']) await many.addText(name, ['x']);
    await expect(many.addText('4', ['x'])).rejects.toBeInstanceOf(ZipTooLargeError);
  });
});
