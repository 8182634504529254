import { type Algorithm, hash, verify } from '@node-rs/argon2';

/**
 * argon2id with OWASP's first recommended setting (Password Storage Cheat Sheet): m = 19 MiB, t = 2, p = 1.
 * About 10–15 ms and 19 MiB per verify on one core here: slow enough that a stolen table costs an attacker
 * dearly, cheap enough that a burst of sign-ins (capped by the login limit) cannot starve a 2-core server.
 * The package exposes `Algorithm` as a const enum only (an empty object at run time), hence the literal 2.
 */
export const ARGON2_OPTIONS = { algorithm: 2 as Algorithm, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * A hash of a random password nobody knows, made with ARGON2_OPTIONS: verified against when the email is unknown,
 * so a sign-in with an unknown email takes as long as one with a known email and a wrong password (no email
 * enumeration by timing). A test checks its parameters still match ARGON2_OPTIONS.
 */
export const DUMMY_HASH = '$argon2id$v=19$m=19456,t=2,p=1$KYSAswS4NM00mwGL6XIK4A$Qoqz8q2+87fFFgEexoMRGC45To5bQ8+vv4cnsQT/lFY';

export const PASSWORD_MIN_LENGTH = 10;
/** Long passphrases are welcome; the cap only stops megabyte "passwords" from becoming a hashing cost. */
export const PASSWORD_MAX_LENGTH = 256;

export async function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

/** False for a wrong password and for a malformed stored hash alike: neither signs anybody in. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** Spends one verify's time for an unknown email, and always fails. */
export async function verifyDummyPassword(password: string): Promise<false> {
  await verifyPassword(DUMMY_HASH, password);
  return false;
}

/**
 * A sentence for the person choosing `password` when it is not acceptable, else undefined. Length is the rule
 * (NIST SP 800-63B: length over composition rules); counted in code points, so an emoji is one character.
 */
export function checkNewPassword(password: string): string | undefined {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return `Choose a password of at least ${PASSWORD_MIN_LENGTH} characters.`;
  if (length > PASSWORD_MAX_LENGTH) return `Choose a password of at most ${PASSWORD_MAX_LENGTH} characters.`;
  if (password.trim() === '') return 'Choose a password that is not only spaces.';
  return undefined;
}
