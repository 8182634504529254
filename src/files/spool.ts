import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';

/**
 * Receives an upload onto local disk (the system's temporary directory) before `use` stores it: storeFile writes a
 * file in one transaction, and reading a slow client straight into it held a database connection for as long as
 * the client took (up to HTTP_REQUEST_TIMEOUT_MS), so a few slow uploads could take the whole pool. From disk the
 * transaction lasts as long as the copy. At most `maxBytes` are kept (the rest is read and dropped), so pass one
 * more than the store allows and the store refuses an oversized file with its own message. The temporary file is
 * removed when `use` settles, or when the upload fails.
 */
export async function withSpooledFile<T>(
  source: AsyncIterable<Uint8Array | string>,
  maxBytes: number,
  use: (stream: AsyncIterable<Buffer>) => Promise<T>,
): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'qroute-upload-'));
  try {
    const path = join(dir, 'upload');
    const out = createWriteStream(path, { mode: 0o600 });
    try {
      let kept = 0;
      for await (const chunk of source) {
        if (kept >= maxBytes) continue;
        const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
        const part = bytes.subarray(0, maxBytes - kept);
        kept += part.length;
        if (!out.write(part)) await once(out, 'drain');
      }
    } finally {
      out.end();
      await finished(out).catch(() => undefined);
    }
    return await use(createReadStream(path));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
