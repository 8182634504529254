import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '../errors.js';

const FORMAT = 'v1';

/**
 * Encrypts webhook secrets at rest with AES-256-GCM. The account id is bound in as associated data, so a
 * ciphertext copied onto another account's row does not decrypt. A dump of the database alone reveals no secret.
 */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('SecretBox needs a 32-byte key');
  }

  encrypt(plaintext: string, accountId: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(accountId, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [FORMAT, iv.toString('base64url'), ciphertext.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
  }

  /** Throws when the key is not the one that encrypted it, or the value was tampered with. */
  decrypt(sealed: string, accountId: string): string {
    const [format, iv, ciphertext, tag] = sealed.split('.');
    if (format !== FORMAT || !iv || !ciphertext || !tag) throw new Error('not a sealed webhook secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(accountId, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }
}

export const SECRET_KEY_FILE = 'webhook-secret.key';

/**
 * The key from `WEBHOOK_SECRET_KEY`, or, for the embedded database, the one kept in `DATA_DIR` (created on first
 * use, readable by the owner only). With an external database there is no safe default: every instance must
 * share one key, so a missing key is a configuration error rather than a key per instance.
 */
export async function loadSecretBox(config: { webhookSecretKey?: Buffer | undefined; databaseUrl?: string | undefined; dataDir: string }): Promise<SecretBox> {
  if (config.webhookSecretKey) return new SecretBox(config.webhookSecretKey);
  if (config.databaseUrl) {
    throw new ConfigError('WEBHOOK_SECRET_KEY is required when DATABASE_URL is set (all instances share it): openssl rand -base64 32');
  }
  const file = path.join(config.dataDir, SECRET_KEY_FILE);
  await mkdir(config.dataDir, { recursive: true });
  try {
    await writeFile(file, `${randomBytes(32).toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const key = Buffer.from((await readFile(file, 'utf8')).trim(), 'base64');
  if (key.length !== 32) throw new ConfigError(`${file} does not hold a 32-byte base64 key`);
  return new SecretBox(key);
}
