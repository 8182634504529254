/** 256 KiB: small enough that no row or parameter is large, big enough that a 50 MB file is 200 rows. */
export const CHUNK_SIZE = 256 * 1024;

/**
 * Re-cuts a byte stream into chunks of exactly `size` bytes (the last may be shorter), holding at most about
 * one chunk plus one incoming piece in memory.
 */
export async function* chunksOf(source: AsyncIterable<Uint8Array | string>, size: number): AsyncGenerator<Buffer> {
  let pieces: Buffer[] = [];
  let held = 0;
  for await (const raw of source) {
    let piece = typeof raw === 'string' ? Buffer.from(raw) : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
    while (held + piece.length >= size) {
      const take = size - held;
      pieces.push(piece.subarray(0, take));
      // Copy, so the chunk does not pin the (possibly much larger) buffer it was cut from.
      yield Buffer.concat(pieces, size);
      pieces = [];
      held = 0;
      piece = piece.subarray(take);
    }
    if (piece.length > 0) {
      pieces.push(piece);
      held += piece.length;
    }
  }
  if (held > 0) yield Buffer.concat(pieces, held);
}
