import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { csvFilename, safeFilename, sendCsv } from '../../src/dashboard/shared/send-csv.js';

/** An endless export: 64 KiB chunks, counting how many were asked for and whether it was closed. */
function endlessExport() {
  const state = { pulled: 0, closed: false };
  const chunk = `${'x'.repeat(65_535)}\n`;
  async function* chunks() {
    try {
      for (;;) {
        state.pulled++;
        yield chunk;
      }
    } finally {
      state.closed = true;
    }
  }
  return { state, chunks: chunks() };
}

let server: http.Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function serve(handler: express.RequestHandler): Promise<string> {
  const app = express();
  app.get('/export.csv', handler);
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server!.once('listening', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/export.csv`;
}

describe('streaming a CSV export', () => {
  it('pulls no more than the socket takes from a client that does not read, and stops the export when the client leaves', async () => {
    const exported = endlessExport();
    let finished = false;
    const url = await serve(async (_req, res) => {
      await sendCsv(res, 'scans.csv', exported.chunks);
      finished = true;
    });
    const request = http.get(url);
    const response = await new Promise<http.IncomingMessage>((resolve) => request.once('response', resolve));
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="scans.csv"');
    expect(response.headers['cache-control']).toBe('no-store');
    response.pause();
    // The client reads nothing: the export waits once the socket's buffers are full (a few MB at most).
    await expect.poll(() => exported.state.pulled).toBeGreaterThan(1);
    const settle = async () => {
      const before = exported.state.pulled;
      await new Promise((resolve) => setTimeout(resolve, 200));
      return exported.state.pulled === before;
    };
    await expect.poll(settle, { timeout: 10_000 }).toBe(true);
    expect(exported.state.pulled * 65_536).toBeLessThan(16 * 1024 * 1024);

    request.destroy();
    await expect.poll(() => exported.state.closed).toBe(true);
    await expect.poll(() => finished).toBe(true);
  });

  it('names the download with letters, digits, dots and dashes only', () => {
    expect(csvFilename('Flyer, "spring" édition', new Date('2026-03-01T12:00:00Z'))).toBe('flyer-spring-edition-scans-2026-03-01.csv');
    expect(csvFilename('"; filename=../../etc/passwd', new Date('2026-03-01T12:00:00Z'))).toBe('filename-etc-passwd-scans-2026-03-01.csv');
    expect(csvFilename('海報', new Date('2026-03-01T12:00:00Z'))).toBe('qroute-scans-2026-03-01.csv');
    expect(safeFilename('a\r\nb"c.csv')).toBe('a-b-c.csv');
  });
});
