import { createWriteStream } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';

export interface UploadOnDisk {
  path: string;
  /** Bytes kept: at most `maxBytes`, so one more than a limit says the upload passed it. */
  size: number;
  /** The first bytes, to tell a ZIP from a CSV by its content rather than its name. */
  head: Buffer;
}

/**
 * Receives an upload into a private temporary file for `use`, removed when `use` settles: a ZIP is read from its
 * end (its directory), so it must be on disk, and a large one must not be in memory. Bytes past `maxBytes` are
 * read and dropped (the browser then sees the answer, not a reset connection).
 */
export async function withUploadOnDisk<T>(source: AsyncIterable<Uint8Array>, maxBytes: number, use: (upload: UploadOnDisk) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'qroute-import-'));
  try {
    const path = join(dir, 'upload');
    const out = createWriteStream(path, { mode: 0o600 });
    let size = 0;
    try {
      for await (const chunk of source) {
        if (size >= maxBytes) continue;
        const part = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).subarray(0, maxBytes - size);
        size += part.length;
        if (!out.write(part)) await once(out, 'drain');
      }
    } finally {
      out.end();
      await finished(out).catch(() => undefined);
    }
    const file = await open(path, 'r');
    const head = Buffer.alloc(Math.min(8, size));
    try {
      await file.read(head, 0, head.length, 0);
    } finally {
      await file.close();
    }
    return await use({ path, size, head });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
