import { describe, expect, it } from 'vitest';
import { CROCKFORD_ALPHABET, idPattern, microsToDate, newId, nowMicros, type IdPrefix } from '../../src/ids.js';
import { newSlug, normalizeSlug, SLUG_LENGTH } from '../../src/codes/slugs.js';

const PREFIXES: IdPrefix[] = ['acc', 'key', 'qr'];

/** The microsecond instant in an id's first 11 characters after the prefix. */
function decodeTime(id: string): number {
  const time = id.slice(id.indexOf('_') + 1, id.indexOf('_') + 12);
  let micros = 0;
  for (const char of time) micros = micros * 32 + CROCKFORD_ALPHABET.indexOf(char);
  return micros;
}

describe('newId', () => {
  it.each(PREFIXES)('makes a %s id of the prefix, an underscore and 26 Crockford characters', (prefix) => {
    const id = newId(prefix);
    expect(id).toMatch(new RegExp(`^${prefix}_[0-9A-HJKMNP-TV-Z]{26}$`));
    expect(id).toMatch(idPattern(prefix));
  });

  it.each(PREFIXES)('gives idPattern(%s) no match for the other prefixes or a lower-case id', (prefix) => {
    for (const other of PREFIXES.filter((p) => p !== prefix)) expect(newId(other)).not.toMatch(idPattern(prefix));
    expect(newId(prefix).toLowerCase()).not.toMatch(idPattern(prefix));
  });

  it('makes 1000 unique ids in a tight loop that sort in creation order', () => {
    const ids = Array.from({ length: 1000 }, () => newId('qr'));
    expect(new Set(ids).size).toBe(1000);
    expect([...ids].sort()).toEqual(ids);
  });

  it('encodes the given instant in the first 11 characters', () => {
    const micros = 1_790_000_000_123_456;
    const id = newId('qr', micros);
    expect(decodeTime(id)).toBe(micros);
    expect(newId('acc', micros).slice(4, 15)).toBe(id.slice(3, 14));
  });

  it('stamps ids with the current time when no instant is given', () => {
    const before = nowMicros();
    const id = newId('key');
    const after = nowMicros();
    expect(decodeTime(id)).toBeGreaterThanOrEqual(before);
    expect(decodeTime(id)).toBeLessThanOrEqual(after);
    expect(Math.abs(decodeTime(id) / 1000 - Date.now())).toBeLessThan(5_000);
  });

  it.each([
    ['one microsecond apart', 1_790_000_000_000_000, 1_790_000_000_000_001],
    ['across a base-32 digit carry', 1_790_000_000_000_031, 1_790_000_000_000_032],
    ['one millisecond apart', 1_790_000_000_000_999, 1_790_000_000_001_000],
    ['years apart', 1_000_000_000_000_000, 1_790_000_000_000_000],
    ['the epoch and now', 0, nowMicros()],
  ])('sorts an id from an earlier instant before a later one (%s)', (_label, earlier, later) => {
    for (let i = 0; i < 50; i++) {
      expect(newId('qr', earlier) < newId('qr', later)).toBe(true);
    }
  });
});

describe('nowMicros', () => {
  it('is an integer number of microseconds close to the wall clock and never goes backwards', () => {
    let previous = nowMicros();
    expect(Number.isInteger(previous)).toBe(true);
    expect(Math.abs(previous / 1000 - Date.now())).toBeLessThan(5_000);
    for (let i = 0; i < 10_000; i++) {
      const current = nowMicros();
      expect(current).toBeGreaterThanOrEqual(previous);
      previous = current;
    }
  });
});

describe('microsToDate', () => {
  it.each([
    [1_790_000_000_123_000, 1_790_000_000_123],
    [1_790_000_000_123_001, 1_790_000_000_123],
    [1_790_000_000_123_999, 1_790_000_000_123],
    [1_790_000_000_124_000, 1_790_000_000_124],
    [999, 0],
  ])('truncates %i µs to %i ms', (micros, ms) => {
    expect(microsToDate(micros).getTime()).toBe(ms);
  });
});

describe('newSlug', () => {
  it('makes 8 Crockford characters without I, L, O or U', () => {
    expect(SLUG_LENGTH).toBe(8);
    for (let i = 0; i < 100; i++) {
      const slug = newSlug();
      expect(slug).toMatch(/^[0-9A-HJKMNP-TV-Z]{8}$/);
      expect(slug).not.toMatch(/[ILOU]/);
    }
  });

  it('makes 10,000 unique slugs that between them use all 32 characters', () => {
    const slugs = Array.from({ length: 10_000 }, () => newSlug());
    expect(new Set(slugs).size).toBe(10_000);
    const used = new Set(slugs.join(''));
    expect([...used].sort().join('')).toBe(CROCKFORD_ALPHABET);
    expect(CROCKFORD_ALPHABET).toHaveLength(32);
  });
});

describe('normalizeSlug', () => {
  it.each([
    ['ABCDEFGH', 'ABCDEFGH'],
    ['abcdefgh', 'ABCDEFGH'],
    ['0123z9xy', '0123Z9XY'],
    ['AbCdEfGh', 'ABCDEFGH'],
  ])('accepts %s as %s', (raw, normalized) => {
    expect(normalizeSlug(raw)).toBe(normalized);
  });

  it('accepts every slug newSlug makes, in either case', () => {
    for (let i = 0; i < 100; i++) {
      const slug = newSlug();
      expect(normalizeSlug(slug)).toBe(slug);
      expect(normalizeSlug(slug.toLowerCase())).toBe(slug);
    }
  });

  it.each([
    ['too short', 'ABCDEFG'],
    ['too long', 'ABCDEFGHJ'],
    ['empty', ''],
    ['with an I', 'ABCDEFGI'],
    ['with an L', 'ABCDEFGL'],
    ['with an O', 'ABCDEFGO'],
    ['with a U', 'ABCDEFGU'],
    ['with a lower-case i', 'abcdefgi'],
    ['with a lower-case l', 'abcdefgl'],
    ['with a lower-case o', 'abcdefgo'],
    ['with a lower-case u', 'abcdefgu'],
    ['with a hyphen', 'ABCD-EFG'],
    ['with a dot', 'ABCDEFG.'],
    ['with a slash', 'ABCD/EFG'],
    ['with a space', 'ABCD EFG'],
    ['with a trailing newline', 'ABCDEFGH\n'],
    ['with a percent escape', 'ABCDE%20'],
    ['with a non-ASCII letter', 'ABCDEFGÄ'],
  ])('rejects a slug %s (%j)', (_label, raw) => {
    expect(normalizeSlug(raw)).toBeUndefined();
  });
});
