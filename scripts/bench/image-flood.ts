/**
 * `BENCH_PARTS=image-flood npm run bench`: what one client looping on 4096-pixel PNGs does to everyone's
 * redirects. The built qroute runs in its own process; autocannon loads `/r/<slug>` at 10 connections, alone
 * and then while image-flooder.ts (another process) asks for distinct 4096-pixel PNGs over 4 connections.
 * The per-account image limit is lifted (IMAGE_READS_PER_MINUTE) so the flood measures rendering, not the limit:
 * the worst case, as when many accounts ask at once.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createAccount } from '../../src/accounts/account-service.js';
import { createApiKey } from '../../src/accounts/api-keys.js';
import { createQrCode } from '../../src/codes/qr-code-service.js';
import type { Database } from '../../src/db/schema/index.js';
import { freePort } from '../../src/net.js';
import { PROJECT_ROOT } from '../../src/paths.js';
import { fmt, load, median, start, stop, waitFor } from './processes.js';

const FLOOD_CONNECTIONS = 4;
const REDIRECT_CONNECTIONS = 10;

function flood(url: string, apiKey: string, seconds: number): Promise<{ imagesPerSecond: number; statusCounts: Record<string, number> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'scripts/bench/image-flooder.ts', url, apiKey, String(FLOOD_CONNECTIONS), String(seconds)],
      { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop()!)) : reject(new Error(`image flooder exited ${code}`))));
  });
}

export async function benchImageFlood(
  database: { db: Database; connectionString: string },
  options: { rounds: number; seconds: number },
): Promise<string[]> {
  const account = await createAccount(database.db, { name: 'image flood', plan: 'business' });
  const key = await createApiKey(database.db, account.id);
  const { code } = await createQrCode(database.db, { accountId: account.id, name: 'flood poster', destinationUrl: 'https://example.com/', actor: { kind: 'api_key', apiKeyId: key.id } });
  const port = await freePort();
  const qroute = start('qroute', process.execPath, ['dist/src/main.js'], {
    DATABASE_URL: database.connectionString,
    WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'),
    PORT: String(port),
    LOG_LEVEL: 'warn',
    IMAGE_READS_PER_MINUTE: '1000000',
  });
  const origin = `http://127.0.0.1:${port}`;
  await waitFor(`${origin}/readyz`);
  const redirectUrl = `${origin}/r/${code.slug}`;
  const imageUrl = `${origin}/api/v1/qrcodes/${code.id}/image`;
  const lines = [`\nimage flood: redirects at ${REDIRECT_CONNECTIONS} connections, ${options.seconds} s a run, alone and beside ${FLOOD_CONNECTIONS} connections of distinct 4096-px PNGs`];
  lines.push('round  alone req/s  p50/p99 ms | flooded req/s  p50/p99 ms | images/s  image statuses');
  const p50s: { alone: number[]; flooded: number[] } = { alone: [], flooded: [] };
  const p99s: { alone: number[]; flooded: number[] } = { alone: [], flooded: [] };
  try {
    for (let round = 1; round <= options.rounds; round++) {
      const alone = await load(redirectUrl, REDIRECT_CONNECTIONS, options.seconds);
      // The flood starts first and outlasts the load, so every measured redirect shares the machine with it.
      const flooding = flood(imageUrl, key.key, options.seconds + 2);
      const flooded = await load(redirectUrl, REDIRECT_CONNECTIONS, options.seconds);
      const images = await flooding;
      p50s.alone.push(alone.p50);
      p50s.flooded.push(flooded.p50);
      p99s.alone.push(alone.p99);
      p99s.flooded.push(flooded.p99);
      lines.push(
        `${String(round).padStart(5)}  ${fmt(alone.requestsPerSecond, 11)}  ${`${alone.p50}/${alone.p99}`.padStart(10)} |` +
          ` ${fmt(flooded.requestsPerSecond, 13)}  ${`${flooded.p50}/${flooded.p99}`.padStart(10)} | ${images.imagesPerSecond.toFixed(1).padStart(8)}  ${JSON.stringify(images.statusCounts)}` +
          (Object.keys(flooded.statusCounts).some((s) => s !== '302') ? `  (redirect non-302: ${JSON.stringify(flooded.statusCounts)})` : ''),
      );
    }
    lines.push(
      `median redirect p50/p99 ms: alone ${median(p50s.alone)}/${median(p99s.alone)}, during the image flood ${median(p50s.flooded)}/${median(p99s.flooded)}`,
    );
  } finally {
    await stop(qroute);
  }
  return lines;
}
