/**
 * The published @qroute/sdk works in every kind of Node project: its packed tarball is installed into fresh
 * projects outside the workspace (an ESM one, a CommonJS one, a CommonJS TypeScript one compiled with tsc) and each
 * makes real calls against a live server. Before the CommonJS build, require('@qroute/sdk') failed with
 * ERR_PACKAGE_PATH_NOT_EXPORTED, and a "module": "commonjs" TypeScript app compiled cleanly, then crashed.
 */
import { execFile as execFileCallback } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/paths.js';
import type { TestDatabase } from '../support/database.js';
import { createTestAccount, type TestApp, useTestApp } from '../support/test-app.js';

const execFile = promisify(execFileCallback);
const NODE_MODULES = path.join(PROJECT_ROOT, 'node_modules');

let database: TestDatabase;
let app: TestApp;
let work: string;
let tarball: string;

useTestApp((started) => ({ database, app } = started));
beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'qroute-sdk-package-'));
  tarball = await packSdk(work);
}, 120_000);
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

/**
 * `npm pack` (its prepack builds both formats) from a copy of sdk/ and generated/, so it never races the build
 * that sdk.test.ts runs in sdk/dist at the same time. The copy's node_modules is the workspace's (tsc, @types/node).
 */
async function packSdk(dir: string): Promise<string> {
  const source = path.join(dir, 'source');
  for (const entry of ['sdk/package.json', 'sdk/tsconfig.json', 'sdk/tsconfig.cjs.json', 'sdk/README.md', 'sdk/src', 'generated']) {
    await cp(path.join(PROJECT_ROOT, entry), path.join(source, entry), { recursive: true });
  }
  await symlink(NODE_MODULES, path.join(source, 'node_modules'), 'dir');
  const { stdout } = await execFile('npm', ['pack', '--json', '--pack-destination', dir], { cwd: path.join(source, 'sdk') });
  const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as [{ filename: string }];
  return path.join(dir, packed.filename);
}

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
