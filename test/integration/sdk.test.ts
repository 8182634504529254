/**
 * The SDK as integrators get it. It is packed once, here, as it is published (`npm pack` in sdk/, whose prepack
 * builds sdk/dist: ES modules and CommonJS, each with declarations); then:
 * - the workspace's build against a live server (the SDK's calls, webhook verification, the README's example);
 * - the tarball's contents and its types under every module resolution (arethetypeswrong);
 * - the tarball installed into fresh projects outside the workspace (an ESM one, a CommonJS one, a CommonJS
 *   TypeScript one compiled with tsc), each making real calls. Before the CommonJS build, require('@qroute/sdk')
 *   failed with ERR_PACKAGE_PATH_NOT_EXPORTED, and a "module": "commonjs" TypeScript app compiled cleanly, then
 *   crashed.
 * One file, so the SDK is built once a run (it was built three times: here, for the package test, and by CI).
 */
import { execFile as execFileCallback, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setWebhook } from '../../src/webhooks/webhook-settings.js';
import { PROJECT_ROOT } from '../../src/paths.js';
import { QrouteError, verifyWebhook } from '../../sdk/src/index.js';
import type { TestDatabase } from '../support/database.js';
import { createTestAccount, type TestApp, useTestApp } from '../support/test-app.js';
import { startWebhookReceiver } from '../support/webhook-receiver.js';
import { freePort } from '../../src/net.js';
import { scan } from '../support/scan.js';

const execFile = promisify(execFileCallback);
const NODE_MODULES = path.join(PROJECT_ROOT, 'node_modules');

let database: TestDatabase;
let app: TestApp;
let work: string;
let tarball: string;

useTestApp((started) => ({ database, app } = started), {}, { tuning: { webhooks: { worker: { pollIntervalMs: 100 } } } });
beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'qroute-sdk-package-'));
  // `npm pack` as a publisher runs it: its prepack builds sdk/dist, which the README example and the package checks
  // import as a user would, and the tarball is what the fresh projects install.
  const { stdout } = await execFile('npm', ['pack', '--json', '--pack-destination', work], { cwd: path.join(PROJECT_ROOT, 'sdk') });
  const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as [{ filename: string }];
  tarball = path.join(work, packed.filename);
}, 120_000);
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

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
  it('has types that resolve under every module setting: node10, node16 from CommonJS and from ESM, bundler (arethetypeswrong)', async () => {
    const attw = await execFile(process.execPath, [path.join(NODE_MODULES, '.bin', 'attw'), '--format', 'json', tarball]).catch(
      (error: { stdout: string }) => error,
    );
    const report = JSON.parse(attw.stdout) as { analysis: { problems: unknown[] } };
    expect(report.analysis.problems).toEqual([]);
  }, 60_000);

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

/** A fresh project with the tarball installed as a user would, and openapi-fetch linked from the workspace (offline). */
async function createProject(name: string, packageType: 'module' | 'commonjs', files: Record<string, string>): Promise<string> {
  const dir = path.join(work, name);
  await mkdir(path.join(dir, 'node_modules'), { recursive: true });
  await writeFile(path.join(dir, 'package.json'), JSON.stringify({ name, private: true, type: packageType }));
  await symlink(path.join(NODE_MODULES, 'openapi-fetch'), path.join(dir, 'node_modules', 'openapi-fetch'), 'dir');
  await execFile('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], { cwd: dir });
  // Linked after the install, which would prune it as extraneous: the TypeScript consumer's Node types.
  await mkdir(path.join(dir, 'node_modules', '@types'));
  await symlink(path.join(NODE_MODULES, '@types', 'node'), path.join(dir, 'node_modules', '@types', 'node'), 'dir');
  for (const [file, text] of Object.entries(files)) await writeFile(path.join(dir, file), text);
  return dir;
}

/** Runs a consumer script; it prints one JSON line describing what the SDK did. */
async function run(dir: string, file: string): Promise<ConsumerReport> {
  const { apiKey } = await createTestAccount(database.db, app);
  const { stdout } = await execFile(process.execPath, [file], { cwd: dir, env: { ...process.env, QROUTE_URL: app.apiUrl, QROUTE_API_KEY: apiKey } });
  return JSON.parse(stdout) as ConsumerReport;
}

interface ConsumerReport {
  resolved: string;
  created: { id: string; slug: string; destinationUrl: string };
  listed: string[];
  missing: { isQrouteError: boolean; status: number; code: string };
}

// The same calls in each dialect: create a code, list it, and get a typed error for one that does not exist.
const calls = `
const client = createClient({ baseUrl: process.env.QROUTE_URL, apiKey: process.env.QROUTE_API_KEY });
const created = await client.createQrCode({ name: 'Poster', url: 'https://example.com/poster' });
const page = await client.listQrCodes({ limit: 10 });
const error = await client.getQrCode('qr_00000000000000000000000000').catch((e) => e);
console.log(JSON.stringify({
  resolved,
  created,
  listed: page.data.map((c) => c.id),
  missing: { isQrouteError: error instanceof QrouteError, status: error.status, code: error.code },
}));
`;

function expectWorked(report: ConsumerReport, format: 'esm' | 'cjs'): void {
  // The format's own build was loaded (not, say, the ESM build through Node's require(esm)).
  expect(report.resolved.split(path.sep).join('/')).toMatch(new RegExp(`/node_modules/@qroute/sdk/dist/${format}/sdk/src/index\\.js$`));
  expect(report.created).toMatchObject({ slug: expect.stringMatching(/^[0-9A-Z]{8}$/), destinationUrl: 'https://example.com/poster' });
  expect(report.listed).toEqual([report.created.id]);
  expect(report.missing).toEqual({ isQrouteError: true, status: 404, code: 'not_found' });
}

describe('the packed @qroute/sdk in a fresh project', () => {
  it('works from an ES module (import)', async () => {
    const dir = await createProject('esm-consumer', 'module', {
      'main.mjs': `import { createClient, QrouteError } from '@qroute/sdk';
import { fileURLToPath } from 'node:url';
const resolved = fileURLToPath(import.meta.resolve('@qroute/sdk'));
${calls}`,
    });
    expectWorked(await run(dir, 'main.mjs'), 'esm');
  }, 60_000);

  it('type-checks in an ESM TypeScript project with "module": "nodenext", declarations included', async () => {
    const dir = await createProject('esm-ts-consumer', 'module', {
      // skipLibCheck off: the package's own .d.ts files must compile under a consumer's settings too. Without Node's
      // types (a browser bundle's view), which also keeps this check quick.
      'tsconfig.json': JSON.stringify({
        compilerOptions: { module: 'nodenext', target: 'ES2022', lib: ['ES2022', 'DOM'], types: [], strict: true, noEmit: true, skipLibCheck: false, skipDefaultLibCheck: true },
        files: ['check.ts'],
      }),
      'check.ts': `import { createClient, QrouteError, verifyWebhook, type QrCode, type paths } from '@qroute/sdk';
const client = createClient({ baseUrl: 'https://qr.example.com/api/v1', apiKey: 'qrk_x' });
const code: QrCode = await client.getQrCode('qr_x');
// @ts-expect-error: the field is destinationUrl
void code.destinationURL;
// @ts-expect-error: url is required
void (() => client.createQrCode({ name: 'No url' }));
const path: keyof paths = '/qrcodes';
const event = verifyWebhook('{}', {}, 'secret');
if (event.event === 'scan.created') void event.slug;
void [path, QrouteError];
`,
    });
    await execFile(process.execPath, [path.join(NODE_MODULES, 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], { cwd: dir });
  }, 60_000);

  it('works from CommonJS (require) and from TypeScript compiled with "module": "commonjs"', async () => {
    const dir = await createProject('cjs-consumer', 'commonjs', {
      'main.cjs': `const { createClient, QrouteError } = require('@qroute/sdk');
const resolved = require.resolve('@qroute/sdk');
(async () => {
${calls}
})();`,
      // What a default NestJS app compiles with; the @ts-expect-error lines fail the build if the types were lost.
      'tsconfig.json': JSON.stringify({
        compilerOptions: { module: 'commonjs', target: 'ES2022', strict: true, esModuleInterop: true, skipLibCheck: true, outDir: 'out' },
        files: ['main.ts'],
      }),
      'main.ts': `import { createClient, QrouteError, type QrCode } from '@qroute/sdk';
const resolved = require.resolve('@qroute/sdk');
async function main(): Promise<void> {
  const client = createClient({ baseUrl: process.env.QROUTE_URL!, apiKey: process.env.QROUTE_API_KEY! });
  // @ts-expect-error: url is required
  void (() => client.createQrCode({ name: 'No url' }));
  const created: QrCode = await client.createQrCode({ name: 'Poster', url: 'https://example.com/poster' });
  // @ts-expect-error: the field is destinationUrl
  void created.destinationURL;
  const page = await client.listQrCodes({ limit: 10 });
  const error: unknown = await client.getQrCode('qr_00000000000000000000000000').catch((e: unknown) => e);
  const missing = error instanceof QrouteError ? { isQrouteError: true, status: error.status, code: error.code } : { isQrouteError: false };
  console.log(JSON.stringify({ resolved, created, listed: page.data.map((c) => c.id), missing }));
}
void main();
`,
    });
    expectWorked(await run(dir, 'main.cjs'), 'cjs');

    await execFile(process.execPath, [path.join(NODE_MODULES, 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], { cwd: dir });
    expectWorked(await run(dir, path.join('out', 'main.js')), 'cjs');
  }, 60_000);

  it('has a README whose links work where it is published (no paths into the repository) and that says baseUrl includes /api/v1', async () => {
    await execFile('tar', ['-xzf', tarball, '-C', work, 'package/README.md']);
    const readme = await readFile(path.join(work, 'package', 'README.md'), 'utf8');
    const links = [...readme.matchAll(/\]\(([^)]*)\)/g)].map((m) => m[1]);
    expect(links.filter((link) => !/^https:\/\//.test(link!))).toEqual([]);
    expect(readme).toMatch(/`baseUrl` [^\n]*includes `\/api\/v1`/);
    expect(readme).toContain("require('@qroute/sdk')");
  });
});
