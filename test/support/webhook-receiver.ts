import { afterAll, beforeAll } from 'vitest';
import { createHmac, timingSafeEqual } from 'node:crypto';
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** Exactly the bytes that arrived, before any parsing. */
  rawBody: Buffer;
  receivedAt: number;
}

export type Reply = { status: number; headers?: Record<string, string>; body?: string } | 'hang';

export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>/hooks` */
  url: string;
  origin: string;
  received: ReceivedRequest[];
  /** How the next requests are answered (default 204). `index` counts every request this receiver got. */
  respondWith(responder: (request: ReceivedRequest, index: number) => Reply | Promise<Reply>): void;
  /** Resolves once `count` requests have arrived; rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

/** A real HTTP server on loopback that records every request it gets, raw, and answers as told. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedRequest[] = [];
  let responder: (request: ReceivedRequest, index: number) => Reply | Promise<Reply> = () => ({ status: 204 });
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: ReceivedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        rawBody: Buffer.concat(chunks),
        receivedAt: Date.now(),
      };
      received.push(request);
      for (const waiter of waiters.filter((w) => received.length >= w.count)) waiter.resolve();
      void Promise.resolve(responder(request, received.length - 1)).then((reply) => {
        if (reply === 'hang') return; // never answers; the sender's timeout must end it
        res.writeHead(reply.status, reply.headers).end(reply.body);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/hooks`,
    origin,
    received,
    respondWith: (next) => {
      responder = next;
    },
    waitFor: (count, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        if (received.length >= count) return resolve(received);
        const timer = setTimeout(() => reject(new Error(`receiver got ${received.length} of ${count} requests in ${timeoutMs} ms`)), timeoutMs);
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve(received);
          },
        });
      }),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * The spec's receiver steps, written out independently of the service's code: the raw body as received, HMAC-SHA256
 * with the secret, lowercase hex, then a constant-time comparison that first requires equal lengths.
 */
export function verifyServiceSignature(rawBody: Buffer, header: string | string[] | undefined, secret: string): boolean {
  if (typeof header !== 'string') return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(rawBody).digest('hex'), 'utf8');
  const received = Buffer.from(header, 'utf8');
  return received.length === expected.length && timingSafeEqual(received, expected);
}

/** The request's headers in the shape Standard Webhooks' verifier takes. */
export function standardHeaders(request: ReceivedRequest): Record<string, string> {
  return {
    'webhook-id': String(request.headers['webhook-id']),
    'webhook-timestamp': String(request.headers['webhook-timestamp']),
    'webhook-signature': String(request.headers['webhook-signature']),
  };
}

/**
 * A receiver for a test file: started before its tests (and before a suite registered after this call, which may
 * then point a webhook at it) and closed after them. `ready` receives it (assign it to the file's variable).
 */
export function useWebhookReceiver(ready: (receiver: WebhookReceiver) => void): void {
  let receiver: WebhookReceiver | undefined;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    ready(receiver);
  });
  afterAll(async () => {
    await receiver?.close();
  });
}
