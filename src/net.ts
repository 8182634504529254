import { readFile } from 'node:fs/promises';
import net from 'node:net';

/** The lowest port freePort picks: above the well-known ports and the common registered ones. */
export const LOWEST_PICKED_PORT = 10_000;
/** Linux's default start of the ephemeral range, when it cannot be read (macOS's starts higher, at 49152). */
const DEFAULT_EPHEMERAL_START = 32_768;

/**
 * A loopback port nothing listens on, for a server that binds it a moment later (a child process, PostgreSQL).
 * Picked at random below the kernel's ephemeral range (net.ipv4.ip_local_port_range) rather than by binding port
 * 0: the kernel picks port 0 from that range, where every outgoing connection also takes its local port, so a
 * connection made in between could take it before the server binds (a busy test run makes thousands). Below the
 * range only another listener can, and a port found taken is skipped. The kernel's pick when none is found.
 */
export async function freePort(): Promise<number> {
  const below = await ephemeralRangeStart();
  for (let tries = 0; tries < 20 && below > LOWEST_PICKED_PORT; tries++) {
    const port = LOWEST_PICKED_PORT + Math.floor(Math.random() * (below - LOWEST_PICKED_PORT));
    if (await isPortFree(port)) return port;
  }
  return kernelPickedPort();
}

/** Whether a server could listen on `port` of 127.0.0.1 now. */
export function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.on('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** The first port of the kernel's ephemeral range. */
export async function ephemeralRangeStart(): Promise<number> {
  const text = await readFile('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').catch(() => '');
  const start = Number(text.trim().split(/\s+/)[0]);
  return Number.isInteger(start) && start > 0 ? start : DEFAULT_EPHEMERAL_START;
}

function kernelPickedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
