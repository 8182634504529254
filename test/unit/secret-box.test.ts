import { stat, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config.js';
import { loadSecretBox, SECRET_KEY_FILE, SecretBox } from '../../src/webhooks/secret-box.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('SecretBox', () => {
  const box = new SecretBox(Buffer.alloc(32, 3));

  it('round-trips, with a fresh nonce each time', () => {
    const sealed = box.encrypt('whsec_abc', 'acc_1');
    expect(sealed).not.toContain('whsec_abc');
    expect(box.encrypt('whsec_abc', 'acc_1')).not.toBe(sealed);
    expect(box.decrypt(sealed, 'acc_1')).toBe('whsec_abc');
  });

  it('refuses another account, another key, or a tampered value', () => {
    const sealed = box.encrypt('whsec_abc', 'acc_1');
    expect(() => box.decrypt(sealed, 'acc_2')).toThrow();
    expect(() => new SecretBox(Buffer.alloc(32, 4)).decrypt(sealed, 'acc_1')).toThrow();
    const [format, iv, ciphertext, tag] = sealed.split('.');
    const flipped = Buffer.from(ciphertext!, 'base64url');
    flipped[0]! ^= 1;
    expect(() => box.decrypt([format, iv, flipped.toString('base64url'), tag].join('.'), 'acc_1')).toThrow();
    expect(() => box.decrypt('plaintext', 'acc_1')).toThrow(/not a sealed webhook secret/);
  });
});

describe('loadSecretBox', () => {
  async function tempDir(): Promise<string> {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'qroute-key-'));
    dirs.push(dir);
    return dir;
  }

  it('generates a key into DATA_DIR for the embedded database, readable by the owner only, and reuses it', async () => {
    const dataDir = await tempDir();
    const first = await loadSecretBox({ webhookSecretKey: undefined, databaseUrl: undefined, dataDir });
    const file = path.join(dataDir, SECRET_KEY_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(Buffer.from((await readFile(file, 'utf8')).trim(), 'base64')).toHaveLength(32);
    const second = await loadSecretBox({ webhookSecretKey: undefined, databaseUrl: undefined, dataDir });
    expect(second.decrypt(first.encrypt('whsec_x', 'acc_1'), 'acc_1')).toBe('whsec_x');
  });

  it('requires WEBHOOK_SECRET_KEY with an external database rather than a key per instance', async () => {
    const dataDir = await tempDir();
    await expect(loadSecretBox({ webhookSecretKey: undefined, databaseUrl: 'postgres://db/qroute', dataDir })).rejects.toThrow(ConfigError);
  });

  it('uses WEBHOOK_SECRET_KEY when given', async () => {
    const key = Buffer.alloc(32, 9);
    const box = await loadSecretBox({ webhookSecretKey: key, databaseUrl: 'postgres://db/qroute', dataDir: '/nonexistent' });
    expect(new SecretBox(key).decrypt(box.encrypt('whsec_y', 'acc_1'), 'acc_1')).toBe('whsec_y');
  });
});
