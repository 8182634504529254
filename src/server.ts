import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig, type Config } from './config.js';

export interface RunningServer {
  server: http.Server;
  port: number;
  /** Stops accepting connections, lets in-flight requests finish for up to `graceMs`, then cuts the rest. */
  close(graceMs: number): Promise<void>;
}

/** The defaults of config.ts (HTTP_*_TIMEOUT_MS), for servers started outside main (tests, the bench). */
const DEFAULT_HTTP_TIMEOUTS: Config['httpTimeouts'] = loadConfig({}).httpTimeouts;

export async function listen(
  handler: http.RequestListener,
  port: number,
  host?: string,
  timeouts: Config['httpTimeouts'] = DEFAULT_HTTP_TIMEOUTS,
): Promise<RunningServer> {
  const server = http.createServer(
    {
      // Node checks both timeouts only this often (default 30 s, which would let a dripping client stay 30 s
      // past its limit); a check is a walk over open connections, cheap at once a second.
      connectionsCheckingInterval: Math.min(1_000, Math.ceil(timeouts.headersMs / 2)),
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
    },
    handler,
  );
  // Slightly above common load balancer idle timeouts (60 s), so the balancer closes first, never us mid-request.
  // It applies between requests; headersTimeout counts only from a request's first byte, so it can be shorter.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    server,
    port: (server.address() as AddressInfo).port,
    close: (graceMs) =>
      new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        force.unref();
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
