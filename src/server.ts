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
  // It applies between requests; there headersTimeout counts from the next request's first byte, so it can be shorter.
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
 * closes new ones on accept (`maxConnections`, told as 'drop'). Past `maxPerAddress` from one client address, the
 * address's longest-idle keep-alive connection (between requests, nothing in flight) is closed to make room: many
 * phones share one carrier NAT address, each keeping a socket open for `keepAliveTimeout` after its scan, and a
 * client reopens a closed keep-alive connection without a user seeing it. Only when every connection of the address
 * is busy (a request in flight, or connected with no request finished yet) is the new one closed at once, before a
 * byte is read, as a full accept queue would be.
 */
function capConnections(server: http.Server, caps: Config['httpConnections'], observer: ConnectionObserver | undefined): void {
  server.maxConnections = caps.maxTotal;
  server.on('drop', () => observer?.refused('total'));
  /** Each client address's open sockets, in the order they became idle (a Set keeps insertion order). */
  const socketsByClient = new Map<string, { all: Set<Socket>; idle: Set<Socket> }>();
  /** Requests in flight on each socket (pipelining can make it more than one). */
  const inFlight = new WeakMap<Socket, number>();
  const clientOf = new WeakMap<Socket, string>();
  let open = 0;
  observer?.watch(() => open);
  server.on('connection', (socket: Socket) => {
    const client = caps.maxPerAddress > 0 ? clientKey(socket.remoteAddress) : undefined;
    if (client !== undefined) {
      const held = socketsByClient.get(client) ?? { all: new Set<Socket>(), idle: new Set<Socket>() };
      if (held.all.size >= caps.maxPerAddress) {
        const longestIdle = held.idle.values().next().value;
        if (longestIdle === undefined) {
          observer?.refused('per_address');
          socket.destroy();
          return;
        }
        held.idle.delete(longestIdle);
        held.all.delete(longestIdle);
        longestIdle.destroy();
        observer?.closedIdle();
      }
      held.all.add(socket);
      socketsByClient.set(client, held);
      clientOf.set(socket, client);
    }
    open++;
    socket.once('close', () => {
      open--;
      const key = clientOf.get(socket);
      const held = key === undefined ? undefined : socketsByClient.get(key);
      if (key === undefined || !held) return;
      held.all.delete(socket);
      held.idle.delete(socket);
      if (held.all.size === 0) socketsByClient.delete(key);
    });
  });
  if (caps.maxPerAddress === 0) return;
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const socket = req.socket;
    const key = clientOf.get(socket);
    if (key === undefined) return;
    inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
    socketsByClient.get(key)?.idle.delete(socket);
    res.once('close', () => {
      const left = (inFlight.get(socket) ?? 1) - 1;
      inFlight.set(socket, left);
      if (left === 0 && !socket.destroyed) socketsByClient.get(key)?.idle.add(socket);
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
