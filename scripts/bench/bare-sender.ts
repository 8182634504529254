/**
 * The baseline for webhook throughput: what got alone can POST to a receiver on this machine, with qroute's
 * request shape (signed JSON, keep-alive, no retries) and its per-account concurrency, but no database at all.
 * Usage: tsx scripts/bench/bare-sender.ts <url> <count> <concurrency> <secret>
 * Prints, when done, one JSON line: the CPU it used while sending (user space and kernel, µs) and the seconds it took.
 */
import http from 'node:http';
import got from 'got';
import { webhookHeaders } from '../../src/webhooks/signatures.js';

const [url, count, concurrency, secret] = [process.argv[2]!, Number(process.argv[3]), Number(process.argv[4]), process.argv[5]!];
const client = got.extend({ agent: { http: new http.Agent({ keepAlive: true }) }, retry: { limit: 0 }, followRedirect: false, throwHttpErrors: false });

let next = 0;
async function lane(): Promise<void> {
  while (next < count) {
    const n = next++;
    const body = JSON.stringify({ event: 'scan.created', qrCodeId: 'qr_bench', slug: 'BENCH000', name: 'bench', device: 'mobile', os: 'iOS', browser: 'Mobile Safari', id: `bare-${n}`, createdAt: new Date().toISOString() });
    const headers = webhookHeaders({ id: `bare-${n}`, event: 'scan.created', body, timestamp: Math.floor(Date.now() / 1000), secret });
    await client.post(url, { body, headers });
  }
}
const started = performance.now();
const cpuBefore = process.cpuUsage();
await Promise.all(Array.from({ length: concurrency }, () => lane()));
const cpu = process.cpuUsage(cpuBefore);
process.stdout.write(`${JSON.stringify({ userMicros: cpu.user, systemMicros: cpu.system, seconds: (performance.now() - started) / 1000 })}\n`);
