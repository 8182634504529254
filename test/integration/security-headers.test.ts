import { execFile as execFileCallback } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { DOCS_DIR, PROJECT_ROOT } from '../../src/paths.js';
import type { TestDatabase } from '../support/database.js';
import { rawHttp } from '../support/raw-http.js';
import { createTestAccount, type TestApp, useTestApp } from '../support/test-app.js';
import { createTestCode } from '../support/factories.js';

const execFile = promisify(execFileCallback);
let database: TestDatabase;
let httpsApp: TestApp;
let httpApp: TestApp;
let slug: string;
let apiKey: string;

beforeAll(async () => {
  if (!existsSync(path.join(DOCS_DIR, 'index.html'))) await execFile('npm', ['run', '--silent', 'docs'], { cwd: PROJECT_ROOT });
}, 120_000);
useTestApp(
  async (started) => {
    ({ database, app: httpsApp } = started);
    httpApp = await started.startAnother({ siteUrl: 'http://qr.test', webhookWorker: false });
    const account = await createTestAccount(database.db, httpsApp);
    apiKey = account.apiKey;
    slug = (await createTestCode(account)).slug;
  },
  { siteUrl: 'https://qr.test', webhookWorker: false },
);

/** One request of every kind the server answers: API success and errors, health, docs, contract, short links. */
const requests = (): Array<[string, { method: string; path: string; headers?: Record<string, string>; body?: string }]> => [
  ['an API answer', { method: 'GET', path: '/api/v1/qrcodes', headers: { Authorization: `Bearer ${apiKey}` } }],
  ['an API 401', { method: 'GET', path: '/api/v1/qrcodes' }],
  ['an API 400', { method: 'POST', path: '/api/v1/qrcodes', headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' }, body: '{' }],
  ['an API 405', { method: 'PUT', path: '/api/v1/qrcodes', headers: { Authorization: `Bearer ${apiKey}` } }],
  ['an unknown path', { method: 'GET', path: '/nothing-here' }],
  ['/healthz', { method: 'GET', path: '/healthz' }],
  ['/readyz', { method: 'GET', path: '/readyz' }],
  ['/docs', { method: 'GET', path: '/docs' }],
  ['the contract (YAML)', { method: 'GET', path: '/api/v1/openapi.yaml' }],
  ['the contract (JSON)', { method: 'GET', path: '/api/v1/openapi.json' }],
  ['a short link', { method: 'GET', path: `/r/${slug}`, headers: { 'User-Agent': 'curl/8' } }],
  ['HEAD on a short link', { method: 'HEAD', path: `/r/${slug}` }],
  ['an unknown short link', { method: 'GET', path: '/r/ZZZZZZZZ' }],
  ['POST on a short link', { method: 'POST', path: `/r/${slug}` }],
];

describe('security headers', () => {
  it.each(requests().map(([label]) => [label]))('are on %s', async (label) => {
    const [, request] = requests().find(([each]) => each === label)!;
    for (const app of [httpsApp, httpApp]) {
      const res = await rawHttp(app.origin, request);
      expect(res.headers['x-content-type-options'], `${label} ${res.status}`).toBe('nosniff');
      expect(res.headers['x-frame-options'], `${label} ${res.status}`).toBe('DENY');
      // HSTS only where the public origin is https: over plain http a browser ignores it anyway, and pinning
      // http-only deployments to https would lock their users out.
      expect(res.headers['strict-transport-security'], `${label} ${res.status}`).toBe(app === httpsApp ? 'max-age=31536000' : undefined);
    }
  });

  it("let /docs run only its own inline scripts, and nothing frame it", async () => {
    const res = await rawHttp(httpsApp.origin, { method: 'GET', path: '/docs' });
    expect(res.status).toBe(200);
    const policy = Object.fromEntries(
      String(res.headers['content-security-policy']).split(';').map((part) => {
        const [name, ...values] = part.trim().split(/\s+/);
        return [name!, values];
      }),
    );
    expect(policy['frame-ancestors']).toEqual(["'none'"]);
    expect(policy['default-src']).toEqual(["'none'"]);
    const inline = [...res.text.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(([, body]) => body!);
    expect(inline.length).toBeGreaterThan(0);
    for (const body of inline) {
      expect(policy['script-src']).toContain(`'sha256-${createHash('sha256').update(body).digest('base64')}'`);
    }
    expect(policy['script-src']).not.toContain("'unsafe-inline'");
    expect(policy['script-src']).not.toContain("'unsafe-eval'");
    // No script, stylesheet or font is loaded from anywhere else: the page is self-contained.
    expect(res.text).not.toMatch(/<script[^>]*\bsrc=|<link[^>]*rel="stylesheet"/);
  });
});
