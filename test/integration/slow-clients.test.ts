import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createTestAccount, type TestApp, useTestApp } from '../support/test-app.js';

const HEADERS_MS = 400;
const REQUEST_MS = 1_000;

let app: TestApp;
let apiKey: string;

useTestApp(
  async ({ database, app: started }) => {
    app = started;
    apiKey = (await createTestAccount(database.db, app)).apiKey;
  },
  {
    httpTimeouts: loadConfig({ HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_MS), HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_MS) }).httpTimeouts,
    webhookWorker: false,
  },
);

/** A raw connection that records what the server sends and when it closes. */
function connect(): Promise<{ socket: net.Socket; received: () => string; closedAfterMs: () => number | undefined }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let data = '';
    let closedAt: number | undefined;
    const socket = net.connect(Number(new URL(app.origin).port), '127.0.0.1', () =>
      resolve({ socket, received: () => data, closedAfterMs: () => (closedAt === undefined ? undefined : closedAt - started) }),
    );
    socket.on('data', (chunk) => (data += chunk.toString('latin1')));
    socket.on('close', () => (closedAt = Date.now()));
    socket.on('error', () => undefined); // a reset after the server closes is the expected end
    socket.once('error', reject);
  });
}

/** Writes one byte every `everyMs` until the socket closes. */
function drip(socket: net.Socket, text: string, everyMs: number): void {
  let i = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || i >= text.length) return clearInterval(timer);
    socket.write(text[i++]!);
  }, everyMs);
}

// The drips below would take 27 s (headers) and 50 s (body) to finish; only the server's timeout can end them
// within the 10 s each test waits, and a 408 says it was that timeout. How soon after the timeout the server's
// check runs is not asserted: on a loaded machine it was 2.2 s for a 0.4 s timeout.
describe('slow clients', () => {
  it('are cut off with 408 when their headers drip in slower than the headers timeout', async () => {
    const client = await connect();
    drip(client.socket, `GET /api/v1/qrcodes HTTP/1.1\r\nHost: x\r\nX-Filler: ${'a'.repeat(500)}\r\n\r\n`, 50);
    await expect.poll(client.closedAfterMs, { timeout: 10_000 }).toBeDefined();
    expect(client.closedAfterMs()).toBeGreaterThanOrEqual(HEADERS_MS);
    expect(client.received()).toMatch(/^HTTP\/1\.1 408/);
  });

  it('are cut off with 408 when they connect and send nothing at all (the headers timeout counts from connect)', async () => {
    const client = await connect();
    await expect.poll(client.closedAfterMs, { timeout: 10_000 }).toBeDefined();
    expect(client.closedAfterMs()).toBeGreaterThanOrEqual(HEADERS_MS);
    expect(client.received()).toMatch(/^HTTP\/1\.1 408/);
  });

  it('are cut off with 408 when their body drips in slower than the request timeout', async () => {
    const client = await connect();
    // Authenticated, so the server does wait for the body instead of answering 401 at once.
    client.socket.write(`POST /api/v1/qrcodes HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${apiKey}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`);
    drip(client.socket, `{"name":"${'a'.repeat(990)}"}`, 50);
    await expect.poll(client.closedAfterMs, { timeout: 10_000 }).toBeDefined();
    expect(client.closedAfterMs()).toBeGreaterThanOrEqual(REQUEST_MS);
    expect(client.received()).toMatch(/^HTTP\/1\.1 408/);
  });

  it('keep an idle keep-alive connection past the headers timeout and can send another request on it', async () => {
    const client = await connect();
    const request = 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n';
    client.socket.write(request);
    await expect.poll(client.received).toMatch(/^HTTP\/1\.1 200/);
    // Idle between requests for longer than both timeouts: only keepAliveTimeout (65 s) applies there.
    const idleUntil = Date.now() + REQUEST_MS + 500;
    await expect.poll(() => Date.now() > idleUntil, { timeout: REQUEST_MS + 2_000, interval: 100 }).toBe(true);
    expect(client.closedAfterMs()).toBeUndefined();
    client.socket.write(request);
    await expect.poll(() => client.received().match(/HTTP\/1\.1 200/g)?.length ?? 0).toBe(2);
    client.socket.destroy();
  });
});
