import { execFile as execFileCallback } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import yaml from 'js-yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { CONTRACT_PATH, PROJECT_ROOT } from '../../src/paths.js';
import type { TestDatabase } from '../support/database.js';
import { type TestApp, useTestApp } from '../support/test-app.js';

const execFile = promisify(execFileCallback);
let database: TestDatabase;
let app: TestApp;

beforeAll(async () => {
  // What `npm start` does first (its prestart): builds docs-dist/ when older than the contract, as .ci/run has already.
  await execFile(process.execPath, ['scripts/build-if-stale.mjs', 'docs'], { cwd: PROJECT_ROOT });
}, 120_000);
useTestApp((started) => ({ database, app } = started));

describe('the contract and the docs portal', () => {
  it('serves the contract as written at /api/v1/openapi.yaml, without a key', async () => {
    const response = await fetch(`${app.apiUrl}/openapi.yaml`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/yaml; charset=utf-8');
    expect(await response.text()).toBe(await readFile(CONTRACT_PATH, 'utf8'));
    const etag = response.headers.get('etag')!;
    expect((await fetch(`${app.apiUrl}/openapi.yaml`, { headers: { 'If-None-Match': etag } })).status).toBe(304);
  });

  it('serves the same contract as JSON at /api/v1/openapi.json', async () => {
    const response = await fetch(`${app.apiUrl}/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await response.json()).toEqual(yaml.load(await readFile(CONTRACT_PATH, 'utf8')));
  });

  it('serves a self-contained portal at /docs with the introduction and every operation', async () => {
    const response = await fetch(`${app.origin}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toContain('<title>qroute API</title>');
    for (const heading of ['Quick start', 'Authentication', 'Errors', 'Write rate limit', 'Pagination', 'Webhooks']) expect(html).toContain(heading);
    expect(html).toContain('timingSafeEqual');
    for (const operation of ['createQrCode', 'listQrCodes', 'redeliverWebhookDelivery']) expect(html).toContain(operation);
    expect(html).not.toMatch(/<script[^>]+src=/); // no CDN: it works offline and self-hosted
  });
});
