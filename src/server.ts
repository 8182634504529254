import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import ipaddr from 'ipaddr.js';
import { loadConfig, type Config } from './config.js';
import type { ConnectionObserver } from './metrics/index.js';

export interface RunningServer {
  server: http.Server;
  port: number;
  /** Stops accepting connections, lets in-flight requests finish for up to `graceMs`, then cuts the rest. */
  close(graceMs: number): Promise<void>;
}

/** The defaults of config.ts (HTTP_*), for servers started outside main (tests, the bench). */
const DEFAULTS = loadConfig({});

export interface ListenOptions {
  timeouts?: Config['httpTimeouts'];
  connections?: Config['httpConnections'];
  /** Told of refused connections and asked for the open count (the /metrics of main). */
  observer?: ConnectionObserver;
}

export async function listen(
  handler: http.RequestListener,
  port: number,
  host?: string,
  timeoutsOrOptions: Config['httpTimeouts'] | ListenOptions = {},
): Promise<RunningServer> {
  const options: ListenOptions = 'headersMs' in timeoutsOrOptions ? { timeouts: timeoutsOrOptions } : timeoutsOrOptions;
  const timeouts = options.timeouts ?? DEFAULTS.httpTimeouts;
  const server = http.createServer(
    {
      // Node checks both timeouts only this often (default 30 s, which would let a dripping client stay 30 s
      // past its limit); a check is a walk over open connections, cheap at once a second.
      connectionsCheckingInterval: Math.min(1_000, Math.ceil(timeouts.headersMs / 2)),
      // Counted from the moment the connection is accepted (Node starts a new connection's clock then), so a
      // socket that never sends a byte is answered 408 and closed after it, like one that drips its headers;
      // after a response, from the next request's first byte.
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
    },
    handler,
  );
  // Slightly above common load balancer idle timeouts (60 s), so the balancer closes first, never us mid-request.
  // It applies between requests; headersTimeout counts only from a request's first byte, so it can be shorter.
  server.keepAliveTimeout = 65_000;
  capConnections(server, options.connections ?? DEFAULTS.httpConnections, options.observer);
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

/**
 * One client must not hold every socket (each a file descriptor and buffers): past `maxTotal` open connections Node
 * closes new ones on accept (`maxConnections`, told as 'drop'); past `maxPerAddress` from one client we close
 * them at once, before a byte is read. Both are silent closes, as a full accept queue would be.
 */
function capConnections(server: http.Server, caps: Config['httpConnections'], observer: ConnectionObserver | undefined): void {
  server.maxConnections = caps.maxTotal;
  server.on('drop', () => observer?.refused('total'));
  const openByClient = new Map<string, number>();
  let open = 0;
  observer?.watch(() => open);
  server.on('connection', (socket: Socket) => {
    const client = caps.maxPerAddress > 0 ? clientKey(socket.remoteAddress) : undefined;
    const held = client === undefined ? 0 : (openByClient.get(client) ?? 0);
    if (client !== undefined && held >= caps.maxPerAddress) {
      observer?.refused('per_address');
      socket.destroy();
      return;
    }
    open++;
    if (client !== undefined) openByClient.set(client, held + 1);
    socket.once('close', () => {
      open--;
      if (client === undefined) return;
      const left = (openByClient.get(client) ?? 1) - 1;
      if (left === 0) openByClient.delete(client);
      else openByClient.set(client, left);
    });
  });
}

/** An IPv4 address as is (also when IPv4-mapped), an IPv6 one by its /64: one host usually holds a whole /64. */
function clientKey(address: string | undefined): string | undefined {
  if (address === undefined || !ipaddr.isValid(address)) return undefined;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${parts.map((part) => part.toString(16)).join(':')}::/64`;
}
