import type { LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import got, { type Got } from 'got';
import { DEFAULT_ADAPTIVE_LIMIT } from './adaptive-limit.js';
import { GuardedHttpAgent, GuardedHttpsAgent } from './guarded-agent.js';
import { parseRetryAfter } from './retry-schedule.js';

/** How much of a receiver's answer is kept in the attempt log. */
export const RESPONSE_EXCERPT_BYTES = 2048;

export interface SendTimeouts {
  /** TCP (and TLS) connection set-up. */
  connectMs: number;
  /** The whole attempt: connect, send, and the answer's status line. 15 s by ARCHITECTURE.md. */
  totalMs: number;
}

export const DEFAULT_TIMEOUTS: SendTimeouts = { connectMs: 5_000, totalMs: 15_000 };

export interface SendResult {
  /** Undefined when no answer arrived (refused, timed out, blocked by the address guard). */
  statusCode: number | undefined;
  latencyMs: number;
  error: string | undefined;
  /** The first 2 KB of the answer, decoded as UTF-8. */
  responseExcerpt: string | undefined;
  /** From `Retry-After` on 429 and 503 only. */
  retryAfterMs: number | undefined;
}

/**
 * Sends one webhook request. got does the HTTP; everything about the outcome is decided by the worker, so got is
 * told not to retry, not to follow redirects (a 3xx is a failed attempt) and not to throw on status codes.
 * Sockets come from the guarded agents, which check every address a connection is about to use with the same rule
 * as registration (url-guard.ts): a name that resolves to a private address at delivery time (DNS rebinding) is
 * refused before any byte is sent.
 */
export class WebhookSender {
  private readonly http: Got;
  private readonly agents: { http: GuardedHttpAgent; https: GuardedHttpsAgent };

  constructor(options: { allowPrivateAddresses: boolean; timeouts?: SendTimeouts; lookup?: LookupFunction; maxSocketsPerReceiver?: number }) {
    const timeouts = options.timeouts ?? DEFAULT_TIMEOUTS;
    // Agents keep connections per receiver (origin): as many as an account may have in flight at its ceiling, so a
    // fast receiver is never queued inside the agent, and kept open between deliveries (keep-alive).
    const maxSockets = options.maxSocketsPerReceiver ?? DEFAULT_ADAPTIVE_LIMIT.ceiling;
    const agentOptions = { keepAlive: true, maxSockets, maxFreeSockets: maxSockets };
    const guard = { allowPrivateAddresses: options.allowPrivateAddresses, lookup: options.lookup };
    this.agents = { http: new GuardedHttpAgent(agentOptions, guard), https: new GuardedHttpsAgent(agentOptions, guard) };
    this.http = got.extend({
      agent: this.agents,
      followRedirect: false,
      retry: { limit: 0 },
      throwHttpErrors: false,
      timeout: { connect: timeouts.connectMs, secureConnect: timeouts.connectMs, request: timeouts.totalMs },
    });
  }

  send(request: { url: string; body: string; headers: Record<string, string>; signal?: AbortSignal }): Promise<SendResult> {
    const started = performance.now();
    return new Promise((resolve) => {
      let statusCode: number | undefined;
      let retryAfterMs: number | undefined;
      const chunks: Buffer[] = [];
      let received = 0;
      let settled = false;
      const finish = (error?: unknown) => {
        if (settled) return;
        settled = true;
        stream.destroy();
        resolve({
          statusCode,
          latencyMs: Math.round(performance.now() - started),
          error: error === undefined ? undefined : describe(error),
          responseExcerpt: statusCode === undefined ? undefined : Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8'),
          retryAfterMs,
        });
      };
      const stream = this.http.stream.post(request.url, { body: request.body, headers: request.headers, signal: request.signal });
      stream.on('response', (response: { statusCode: number; headers: Record<string, string | string[] | undefined> }) => {
        statusCode = response.statusCode;
        if (statusCode === 429 || statusCode === 503) {
          const header = response.headers['retry-after'];
          retryAfterMs = parseRetryAfter(Array.isArray(header) ? header[0] : header);
        }
      });
      stream.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        received += chunk.length;
        // Enough for the log: stop reading rather than buffer whatever a receiver sends.
        if (received >= RESPONSE_EXCERPT_BYTES) finish();
      });
      stream.on('end', () => finish());
      stream.on('error', (error: unknown) => finish(error));
    });
  }

  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as NodeJS.ErrnoException).code;
  const message = error.message.length > 500 ? `${error.message.slice(0, 500)}…` : error.message;
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}
