import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateApiKey, hashApiKey, isWellFormedApiKey } from '../../src/accounts/api-keys.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** The same key with the character at `index` replaced by a different base62 character. */
function withCharacterChanged(key: string, index: number, step = 1): string {
  const next = BASE62[(BASE62.indexOf(key[index]!) + step) % 62]!;
  return key.slice(0, index) + next + key.slice(index + 1);
}

describe('generateApiKey', () => {
  it('makes qrk_ followed by 38 base62 characters', () => {
    expect(generateApiKey()).toMatch(/^qrk_[0-9A-Za-z]{38}$/);
  });

  it('makes 1000 unique keys that are all well-formed', () => {
    const keys = Array.from({ length: 1000 }, () => generateApiKey());
    expect(new Set(keys).size).toBe(1000);
    for (const key of keys) {
      expect(key).toMatch(/^qrk_[0-9A-Za-z]{38}$/);
      expect(isWellFormedApiKey(key)).toBe(true);
    }
  });

  it('draws the random part from the whole base62 alphabet', () => {
    const used = new Set(Array.from({ length: 200 }, () => generateApiKey().slice(4, 36)).join(''));
    expect([...used].sort().join('')).toBe([...BASE62].sort().join(''));
  });
});

describe('isWellFormedApiKey', () => {
  const key = generateApiKey();

  it.each(Array.from({ length: 38 }, (_, i) => i + 4))('rejects a key with the character at %i changed', (index) => {
    for (const step of [1, 31, 61]) expect(isWellFormedApiKey(withCharacterChanged(key, index, step))).toBe(false);
  });

  it('rejects keys with two random-part characters swapped', () => {
    const a = key[10]!;
    const b = key[11]!;
    const swapped = a === b ? withCharacterChanged(key, 10) : key.slice(0, 10) + b + a + key.slice(12);
    expect(isWellFormedApiKey(swapped)).toBe(false);
  });

  it.each([
    ['an empty string', ''],
    ['the prefix only', 'qrk_'],
    ['another prefix', `sk_${key.slice(3)}`],
    ['an upper-case prefix', `QRK_${key.slice(4)}`],
    ['no prefix', key.slice(4)],
    ['a key one character short', key.slice(0, -1)],
    ['a key one character long', `${key}0`],
    ['a key with a trailing newline', `${key}\n`],
    ['a key with leading space', ` ${key}`],
    ['a key with a non-base62 character', `${key.slice(0, 10)}-${key.slice(11)}`],
  ])('rejects %s', (_label, candidate) => {
    expect(isWellFormedApiKey(candidate)).toBe(false);
  });
});

describe('hashApiKey', () => {
  it('is the 32-byte SHA-256 of the key', () => {
    const key = generateApiKey();
    const hash = hashApiKey(key);
    expect(hash).toBeInstanceOf(Buffer);
    expect(hash).toHaveLength(32);
    expect(hash.equals(createHash('sha256').update(key).digest())).toBe(true);
    expect(hashApiKey(key).equals(hash)).toBe(true);
  });

  it('differs for every key', () => {
    const hashes = Array.from({ length: 1000 }, () => hashApiKey(generateApiKey()).toString('hex'));
    expect(new Set(hashes).size).toBe(1000);
  });

  it('differs for keys one character apart', () => {
    const key = generateApiKey();
    expect(hashApiKey(key).equals(hashApiKey(withCharacterChanged(key, 20)))).toBe(false);
  });
});
