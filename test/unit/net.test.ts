import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { ephemeralRangeStart, freePort, isPortFree, LOWEST_PICKED_PORT } from '../../src/net.js';

function listen(port: number): Promise<net.Server> {
  const server = net.createServer();
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

describe('freePort', () => {
  it('picks ports a server can bind, below the range outgoing connections take their local ports from', async () => {
    const rangeStart = await ephemeralRangeStart();
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(LOWEST_PICKED_PORT);
      expect(port).toBeLessThan(rangeStart);
    }
    const server = await listen(ports[0]!);
    try {
      expect(await isPortFree(ports[0]!)).toBe(false);
      // Why below the range: an outgoing connection's own port comes from it.
      const client = net.connect(ports[0]!, '127.0.0.1');
      await new Promise((resolve) => client.once('connect', resolve));
      expect(client.localPort).toBeGreaterThanOrEqual(rangeStart);
      client.destroy();
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(await isPortFree(ports[0]!)).toBe(true);
  });
});
