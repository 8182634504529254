import { parseOptions } from '@node-rs/argon2';
import { describe, expect, it } from 'vitest';
import { emailKey, ipKey } from '../../src/people/login-limit.js';
import { ARGON2_OPTIONS, checkNewPassword, DUMMY_HASH, hashPassword, verifyPassword } from '../../src/people/passwords.js';

describe('passwords', () => {
  it('are hashed with argon2id at the stated parameters and verified', async () => {
    const hash = await hashPassword('correct horse battery');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(hash, 'correct horse battery')).toBe(true);
    expect(await verifyPassword(hash, 'correct horse batterY')).toBe(false);
    expect(await verifyPassword('not a hash', 'correct horse battery')).toBe(false);
  });

  it('the dummy hash costs what a real one does (same algorithm and parameters)', () => {
    expect(parseOptions(DUMMY_HASH)).toMatchObject({
      algorithm: ARGON2_OPTIONS.algorithm,
      memoryCost: ARGON2_OPTIONS.memoryCost,
      timeCost: ARGON2_OPTIONS.timeCost,
      parallelism: ARGON2_OPTIONS.parallelism,
    });
  });

  it('are acceptable from 10 to 256 characters, counted as people count them, and not only spaces', () => {
    expect(checkNewPassword('123456789')).toMatch(/at least 10 characters/);
    expect(checkNewPassword('1234567890')).toBeUndefined();
    expect(checkNewPassword('🔑'.repeat(10))).toBeUndefined();
    expect(checkNewPassword('🔑'.repeat(9))).toMatch(/at least 10/);
    expect(checkNewPassword('x'.repeat(256))).toBeUndefined();
    expect(checkNewPassword('x'.repeat(257))).toMatch(/at most 256 characters/);
    expect(checkNewPassword(' '.repeat(12))).toMatch(/not only spaces/);
    expect(checkNewPassword('\t \n'.repeat(5))).toMatch(/not only spaces/);
  });
});

describe('login limit keys', () => {
  it('count an email however it is typed', () => {
    expect(emailKey(' Ada@Example.COM ')).toBe('email:ada@example.com');
    expect(emailKey(' Not An Email ')).toBe('email:not an email');
  });

  it('count IPv4 and IPv4-mapped IPv6 alike, and IPv6 by its /64', () => {
    expect(ipKey('192.0.2.7')).toBe('ip:192.0.2.7');
    expect(ipKey('::ffff:192.0.2.7')).toBe('ip:192.0.2.7');
    expect(ipKey('2001:db8:1:2:aaaa::1')).toBe(ipKey('2001:db8:1:2:bbbb::9'));
    expect(ipKey('2001:db8:1:2::1')).toBe('ip:2001:db8:1:2::/64');
    expect(ipKey('2001:db8:1:3::1')).not.toBe(ipKey('2001:db8:1:2::1'));
  });
});
