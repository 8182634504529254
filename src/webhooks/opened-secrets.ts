import type { SecretBox } from './secret-box.js';

/** Sealed secrets kept open at once; past it the memory starts over (an account's secret is opened again once). */
const MAX_OPENED = 10_000;

/**
 * A worker's memory of the webhook secrets it has opened, by account and sealed value: every delivery of an
 * account signs with the same secret, and opening it (AES-GCM) cost about 14 µs of a delivery's CPU. The sealed
 * value is part of the key, so a rotated secret is a new entry and never served stale; a value that does not open
 * is not remembered and fails each attempt as before.
 */
export class OpenedSecrets implements Pick<SecretBox, 'decrypt'> {
  private readonly opened = new Map<string, string>();

  constructor(private readonly box: Pick<SecretBox, 'decrypt'>) {}

  decrypt(sealed: string, accountId: string): string {
    const key = `${accountId}\n${sealed}`;
    let secret = this.opened.get(key);
    if (secret === undefined) {
      secret = this.box.decrypt(sealed, accountId);
      if (this.opened.size >= MAX_OPENED) this.opened.clear();
      this.opened.set(key, secret);
    }
    return secret;
  }
}
