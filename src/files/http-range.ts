export type RangeRequest =
  | { kind: 'whole' }
  | { kind: 'unsatisfiable' }
  | { kind: 'part'; start: number; end: number };

/**
 * A `Range` header against a representation of `size` bytes (RFC 9110 §14). One range is served as 206;
 * several ranges, other units and malformed headers are ignored (a 200 with everything, which the RFC
 * allows): players and browsers seeking audio and video ask for one range.
 */
export function parseRange(header: string | undefined, size: number): RangeRequest {
  if (header === undefined) return { kind: 'whole' };
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (match === null) return { kind: 'whole' };
  const [, first, last] = match as unknown as [string, string, string];
  if (first === '' && last === '') return { kind: 'whole' };
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0) return { kind: 'unsatisfiable' };
    return { kind: 'part', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Number(last);
  if (start >= size) return { kind: 'unsatisfiable' };
  if (end < start) return { kind: 'whole' };
  return { kind: 'part', start, end: Math.min(end, size - 1) };
}
