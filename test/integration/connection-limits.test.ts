import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { rawHttp } from '../support/raw-http.js';
import { useTestApp, type TestApp } from '../support/test-app.js';

const PER_ADDRESS = 2;
const TOTAL = 3;

let app: TestApp;
useTestApp(
  (started) => {
    app = started.app;
  },
  { httpConnections: { maxTotal: TOTAL, maxPerAddress: PER_ADDRESS }, metricsToken: 'connection-limits-token' },
);

/** A raw connection from `from` (any 127.x address is loopback on Linux), and whether the server has closed it. */
function connect(from: string): Promise<{ socket: net.Socket; closed: () => boolean; received: () => string }> {
  return new Promise((resolve, reject) => {
    let closed = false;
    let data = '';
    const socket = net.connect({ port: Number(new URL(app.origin).port), host: '127.0.0.1', localAddress: from }, () =>
      resolve({ socket, closed: () => closed, received: () => data }),
    );
    socket.on('data', (chunk) => (data += chunk.toString('latin1')));
    socket.on('close', () => (closed = true));
    socket.on('error', () => undefined); // a reset is how a refused connection may end
    socket.once('error', reject);
  });
}

async function metric(name: string, labels: Record<string, string> = {}): Promise<number> {
  const values = (await app.metrics!.registry.getSingleMetric(name)!.get()).values;
  return values.find((value) => Object.entries(labels).every(([key, wanted]) => value.labels[key] === wanted))?.value ?? 0;
}

describe('connection caps', () => {
  it('close connections over the per-address cap and over the total cap at once, count them, and serve again once one closes', async () => {
    const first = [await connect('127.0.0.1'), await connect('127.0.0.1')];
    await expect.poll(() => metric('qroute_http_connections')).toBe(PER_ADDRESS);
    // A third from the same address is closed without an answer, before anything is read.
    const overAddress = await connect('127.0.0.1');
    await expect.poll(overAddress.closed).toBe(true);
    expect(overAddress.received()).toBe('');
    expect(await metric('qroute_http_connections_refused_total', { limit: 'per_address' })).toBe(1);

    // Another address still gets in, up to the total; past it every address is refused.
    const other = await connect('127.0.0.2');
    await expect.poll(() => metric('qroute_http_connections')).toBe(TOTAL);
    const overTotal = await connect('127.0.0.3');
    await expect.poll(overTotal.closed).toBe(true);
    await expect.poll(() => metric('qroute_http_connections_refused_total', { limit: 'total' })).toBe(1);

    // The held connections still work, and a closed one frees its place for the same address.
    other.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    await expect.poll(other.received).toMatch(/^HTTP\/1\.1 200/);
    for (const client of [...first, other]) client.socket.destroy();
    await expect.poll(() => metric('qroute_http_connections')).toBe(0);
    expect((await rawHttp(app.origin, { method: 'GET', path: '/healthz' })).status).toBe(200);
  });

  it("make room for a new connection by closing the address's longest-idle keep-alive connection, never a busy one", async () => {
    const healthz = 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n';
    const idleBefore = await metric('qroute_http_idle_connections_closed_total');
    // Two keep-alive connections from one address (many phones behind one carrier NAT), each idle after its answer.
    const older = await connect('127.0.0.1');
    older.socket.write(healthz);
    await expect.poll(older.received).toMatch(/^HTTP\/1\.1 200/);
    const newer = await connect('127.0.0.1');
    newer.socket.write(healthz);
    await expect.poll(newer.received).toMatch(/^HTTP\/1\.1 200/);

    // A third from the address is served; the connection idle longest is the one closed for it.
    const third = await connect('127.0.0.1');
    await expect.poll(older.closed).toBe(true);
    expect(newer.closed()).toBe(false);
    third.socket.write(healthz);
    await expect.poll(third.received).toMatch(/^HTTP\/1\.1 200/);
    expect(await metric('qroute_http_idle_connections_closed_total')).toBe(idleBefore + 1);

    // A connection busy with a request is never the one closed: with `newer` idle and `third` idle again, a fourth
    // closes `newer`; a fifth, while the fourth has sent nothing yet (busy) and `third` is idle, closes `third`.
    const fourth = await connect('127.0.0.1');
    await expect.poll(newer.closed).toBe(true);
    const fifth = await connect('127.0.0.1');
    await expect.poll(third.closed).toBe(true);
    expect(fourth.closed()).toBe(false);
    // Now both are busy (connected, no request answered): a sixth is refused.
    const sixth = await connect('127.0.0.1');
    await expect.poll(sixth.closed).toBe(true);
    expect(fourth.closed() || fifth.closed()).toBe(false);
    for (const client of [fourth, fifth]) client.socket.destroy();
    await expect.poll(() => metric('qroute_http_connections')).toBe(0);
  });
});
