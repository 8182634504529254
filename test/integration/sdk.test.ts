import { execFile as execFileCallback, spawn } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { setWebhook } from '../../src/webhooks/webhook-settings.js';
import { PROJECT_ROOT } from '../../src/paths.js';
import { QrouteError, verifyWebhook } from '../../sdk/src/index.js';
import type { TestDatabase } from '../support/database.js';
import { createTestAccount, type TestApp, useTestApp } from '../support/test-app.js';
import { startWebhookReceiver } from '../support/webhook-receiver.js';
import { freePort } from '../../src/net.js';
import { scan } from '../support/scan.js';

const execFile = promisify(execFileCallback);

let database: TestDatabase;
let app: TestApp;

useTestApp((started) => ({ database, app } = started), {}, { tuning: { webhooks: { worker: { pollIntervalMs: 100 } } } });
beforeAll(async () => {
  // The README example and the package check import the built SDK, as a user would.
  await execFile('npm', ['run', '--silent', 'build:sdk'], { cwd: PROJECT_ROOT });
}, 120_000);

describe('the SDK against a live server', () => {
  it('creates, lists all, changes, pauses, reads scans and deletes, with typed errors', async () => {
    const { client } = await createTestAccount(database.db, app);
    const created = await Promise.all([1, 2, 3, 4, 5].map((n) => client.createQrCode({ name: `Poster ${n}`, url: `https://example.com/${n}` })));
    const seen: string[] = [];
    for await (const code of client.listAllQrCodes({ pageSize: 2 })) seen.push(code.id);
    expect(seen.sort()).toEqual(created.map((c) => c.id).sort());

    const moved = await client.updateQrCode(created[0]!.id, { url: 'https://example.com/moved' });
    expect(moved.destinationUrl).toBe('https://example.com/moved');
    expect((await client.updateQrCode(created[0]!.id, { active: false })).active).toBe(false);
    expect(await client.listQrCodeScans(created[0]!.id)).toEqual({ total: 0, data: [] });
    await client.deleteQrCode(created[1]!.id);

    const missing = await client.getQrCode(created[1]!.id).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(QrouteError);
    expect(missing).toMatchObject({ status: 404, code: 'not_found', requestId: expect.any(String) });
    const invalid = await client.createQrCode({ name: 'x', url: 'ftp://example.com' }).catch((e: unknown) => e);
    expect(invalid).toMatchObject({ status: 400, code: 'invalid_body', details: [expect.objectContaining({ path: '/body/url' })] });
  });

  it('verifyWebhook accepts a real delivery and rejects it tampered', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const owner = await createTestAccount(database.db, app);
      const { secret } = await setWebhook(database.db, app.box, { accountId: owner.accountId, url: receiver.url, allowPrivate: true });
      const code = await owner.client.createQrCode({ name: 'Webhook poster', url: 'https://example.com/' });
      await scan(app, code.slug);
      const [delivery] = await receiver.waitFor(1);
      const event = verifyWebhook(delivery!.rawBody, delivery!.headers, secret!);
      expect(event).toMatchObject({ event: 'scan.created', qrCodeId: code.id, slug: code.slug, device: 'mobile' });
      const tampered = Buffer.from(delivery!.rawBody.toString().replace('mobile', 'tablet'));
      expect(() => verifyWebhook(tampered, delivery!.headers, secret!)).toThrow(/does not match/);
    } finally {
      await receiver.close();
    }
  });
});

describe('the @qroute/sdk package', () => {
  it('packs only the built code, types, README and package.json, and resolves through its exports', async () => {
    const { stdout } = await execFile('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: path.join(PROJECT_ROOT, 'sdk') });
    const files = (JSON.parse(stdout) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map((f) => f.path).sort();
    for (const format of ['esm', 'cjs']) {
      expect(files).toContain(`dist/${format}/sdk/src/index.js`);
      expect(files).toContain(`dist/${format}/sdk/src/index.d.ts`);
      expect(files).toContain(`dist/${format}/generated/v1.d.ts`);
      expect(files).not.toContain(`dist/${format}/generated/v1.js`); // types only: nothing imports it at run time
    }
    expect(files.filter((f) => !/^dist\/(esm|cjs)\/.*\.(js|d\.ts)$/.test(f))).toEqual(['README.md', 'dist/cjs/package.json', 'package.json']);
    // Resolved like a user's import (node_modules/@qroute/sdk → package.json exports → dist), not from source.
    const packageName = '@qroute/sdk';
    const sdk = (await import(packageName)) as Record<string, unknown>;
    expect(Object.keys(sdk).sort()).toEqual(['QrouteError', 'WebhookVerificationError', 'createClient', 'verifyWebhook']);
  });
});

describe('README SDK quick start', () => {
  it('runs as written against a live server and prints what it says', async () => {
    const readme = await readFile(path.join(PROJECT_ROOT, 'README.md'), 'utf8');
    const example = /<!-- sdk-quick-start -->\s*```ts\n([\s\S]*?)```\s*<!-- \/sdk-quick-start -->/.exec(readme)?.[1];
    expect(example).toBeDefined();
    const file = path.join(PROJECT_ROOT, 'test', `readme-quick-start-${process.pid}.tmp.ts`);
    await writeFile(file, example!);

    const owner = await createTestAccount(database.db, app);
    const webhookPort = await freePort();
    const { secret } = await setWebhook(database.db, app.box, { accountId: owner.accountId, url: `http://127.0.0.1:${webhookPort}/`, allowPrivate: true });
    const child = spawn(process.execPath, ['--import', 'tsx', file], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, QROUTE_URL: app.apiUrl, QROUTE_API_KEY: owner.apiKey, QROUTE_WEBHOOK_SECRET: secret, WEBHOOK_PORT: String(webhookPort) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    const printed = async (pattern: RegExp) => {
      await expect.poll(() => output, { timeout: 30_000, interval: 100 }).toMatch(pattern);
      return output;
    };
    try {
      expect(await printed(/error 404 not_found/)).toMatch(/created https:\/\/qr\.test\/r\/[0-9A-Z]{8}\ncode [0-9A-Z]{8} https:\/\/example\.com\/spring\nscans 0 0\nerror 404 not_found\n/);
      // The example's code is paused now; a second code's scan reaches the example's webhook receiver.
      const other = await owner.client.createQrCode({ name: 'Live', url: 'https://example.com/live' });
      await scan(app, other.slug);
      expect(await printed(/scanned/)).toContain(`scanned ${other.slug} mobile`);
      const created = /created https:\/\/qr\.test\/r\/([0-9A-Z]{8})/.exec(output)![1]!;
      const paused = await owner.client.raw.GET('/qrcodes', { params: { query: { limit: 10 } } });
      expect(paused.data!.data.find((c) => c.slug === created)).toMatchObject({ destinationUrl: 'https://example.com/summer', active: false });
    } finally {
      child.kill('SIGTERM');
      await rm(file, { force: true });
    }
  }, 60_000);
});

