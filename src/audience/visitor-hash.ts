import { createHmac } from 'node:crypto';

/**
 * Who scanned, without saying who: the first 16 bytes of HMAC-SHA-256(daySecret, ip + "\n" + user agent), as 32
 * hexadecimal digits (scan_visitors stores the bytes; PostgreSQL's decode(…, 'hex') reads them cheapest). The same
 * address and browser give the same value all day, so a second scan of a code is not unique; the secret is the UTC day's and is destroyed after it, so nobody (the operator included) can go back
 * from a stored value to an address by hashing candidates. 16 bytes: collisions among a day's visitors of one code
 * are out of reach (2^64 values before one is likely), at half the storage of the whole digest.
 *
 * `ip` is the normalised client address (clientAddress); a missing user agent hashes as the empty string.
 */
export function visitorHash(secret: Buffer, ip: string, userAgent: string | undefined): string {
  return createHmac('sha256', secret)
    .update(`${ip}\n${userAgent ?? ''}`)
    .digest('hex')
    .slice(0, 32);
}
