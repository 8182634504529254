import { describe, expect, it } from 'vitest';
import { visitorHash } from '../../../src/audience/visitor-hash.js';

const monday = Buffer.alloc(32, 1);
const tuesday = Buffer.alloc(32, 2);
const iphone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

describe('visitorHash', () => {
  it('is 32 hexadecimal digits (16 bytes)', () => {
    const hash = visitorHash(monday, '8.8.8.8', iphone);
    expect(hash).toMatch(/^[0-9a-f]{32}$/);
    expect(Buffer.from(hash, 'hex')).toHaveLength(16);
  });

  it('is the same for the same visitor on the same day, and HMAC-SHA-256 of address and user agent', () => {
    expect(visitorHash(monday, '8.8.8.8', iphone)).toBe(visitorHash(Buffer.from(monday), '8.8.8.8', iphone));
    // Pinned: instances of different versions must agree during a rolling deploy.
    expect(visitorHash(monday, '8.8.8.8', 'agent')).toBe('c0d66a4eb89fe5b5b71dd701ec90549b');
    expect(visitorHash(monday, '8.8.8.8', undefined)).toBe(visitorHash(monday, '8.8.8.8', ''));
  });

  it('differs by day secret, address and user agent', () => {
    const hashes = new Set([
      visitorHash(monday, '8.8.8.8', iphone),
      visitorHash(tuesday, '8.8.8.8', iphone),
      visitorHash(monday, '8.8.4.4', iphone),
      visitorHash(monday, '8.8.8.8', `${iphone} Edg/120`),
      visitorHash(monday, '8.8.8.8', undefined),
      // The separator keeps address and agent apart: "8.8.8.8" + "1x" is not "8.8.8.81" + "x".
      visitorHash(monday, '8.8.8.81', 'x'),
      visitorHash(monday, '8.8.8.8', '1x'),
    ]);
    expect(hashes.size).toBe(7);
  });
});
