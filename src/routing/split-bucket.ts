/**
 * Which of 100 buckets a visitor falls in for one code's split: a split's weights are whole percents adding up to
 * 100, so bucket b goes to the variant whose cumulative weight first exceeds b.
 *
 * The visitor hash is already uniform (HMAC-SHA-256 under the UTC day's secret, src/audience/visitor-hash.ts), and
 * the same for one visitor all day, whichever code they scan. Bucketing it directly would put the same people in
 * variant 0 of every code; so 64 of its bits are mixed with a salt drawn from the code's id (murmur3's 32-bit
 * finaliser, a bijection with full avalanche), which makes the codes' buckets independent while each stays sticky
 * for the visitor's day. A new day brings a new visitor hash, and so possibly another variant.
 */

/** FNV-1a of the code id: the code's salt, computed once when the routing is compiled. */
export function codeSalt(codeId: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < codeId.length; i++) {
    hash ^= codeId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** 0 … 99 for a visitor hash of at least 16 hex digits, -1 for anything else (then the caller draws at random). */
export function visitorBucket(visitor: string, salt: number): number {
  if (visitor.length < 16) return -1;
  const high = hexWord(visitor, 0);
  const low = hexWord(visitor, 8);
  if (high < 0 || low < 0) return -1;
  return (fmix32(fmix32(high ^ salt) ^ low) >>> 0) % 100;
}

/** Eight hex digits at `offset` as an unsigned 32-bit number, -1 when one is not a hex digit; no allocation. */
function hexWord(text: string, offset: number): number {
  let word = 0;
  for (let i = offset; i < offset + 8; i++) {
    const code = text.charCodeAt(i);
    const digit = code >= 48 && code <= 57 ? code - 48 : code >= 97 && code <= 102 ? code - 87 : code >= 65 && code <= 70 ? code - 55 : -1;
    if (digit < 0) return -1;
    word = word * 16 + digit;
  }
  return word;
}

function fmix32(value: number): number {
  let h = value;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h;
}
