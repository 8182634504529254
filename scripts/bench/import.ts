/**
 * `BENCH_PARTS=import npm run bench`, or alone `npx tsx scripts/bench/import.ts`: bulk import at the scale.
 * For a 10,000-row file of mixed types (URL, TEXT, WIFI, BUSINESS, VCARD_PLUS, SOCIAL_MEDIA, EVENT, COUPON) it
 * times the dry run, then the import by the background job at each batch size in BENCH_IMPORT_BATCHES (default
 * `50,100,250`; a fresh account each), then the export of the 10,000 codes. Alone, it uses DATABASE_URL, or an embedded PostgreSQL in a temporary directory.
 * test/integration/import.test.ts checks the same behaviour on 2,000 rows, within a test's time budget.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'csv-stringify/sync';
import pino from 'pino';
import { createAccount } from '../../src/accounts/account-service.js';
import { type DatabaseConnection, openDatabase } from '../../src/db/connect.js';
import { checkImport } from '../../src/imports/check-import.js';
import { confirmImport } from '../../src/imports/confirm-import.js';
import { exportCodesCsv } from '../../src/imports/export-codes.js';
import { getImport } from '../../src/imports/import-rows.js';
import { processBatch } from '../../src/imports/run-import.js';
import { createUser } from '../../src/people/users.js';
import { cleanUpWhenInterrupted } from './processes.js';

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 10_000);
const BATCHES = (process.env.BENCH_IMPORT_BATCHES ?? '50,100,250').split(',').map(Number);
const SITE_URL = 'https://qr.example.com';

function row(i: number): Record<string, string> {
  const base = { name: `Code ${i}`, externalId: `bench-${i}` };
  switch (i % 8) {
    case 0: return { ...base, type: 'URL', url: `https://example.com/p/${i}` };
    case 1: return { ...base, type: 'TEXT', text: `Line one of ${i}\nline two` };
    case 2: return { ...base, type: 'WIFI', ssid: `Cafe ${i % 100}`, password: 'secret123', security: 'WPA', hidden: 'false' };
    case 3: return { ...base, type: 'BUSINESS', businessName: 'Bakery', monday: '08:00-12:00, 13:00-18:00', address: 'Market 1' };
    case 4: return { ...base, type: 'VCARD_PLUS', fullName: 'Ada Lovelace', phones: '+44 20 7946 0958', emails: 'ada@example.com' };
    case 5: return { ...base, type: 'SOCIAL_MEDIA', title: 'Follow', socialInstagram: 'https://instagram.com/b' };
    case 6: return { ...base, type: 'COUPON', title: '10% off', couponCode: 'BREAD10', expiresAt: '2099-12-31T23:59' };
    default: return { ...base, type: 'EVENT', title: 'Launch', start: '2026-12-01T18:30', timezone: 'Europe/Berlin' };
  }
}

/** Imports the file once per batch size, each into a fresh account of `database`; returns what it measured. */
export async function benchImport(database: DatabaseConnection): Promise<string[]> {
  const rows = Array.from({ length: ROWS }, (_, i) => row(i));
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const file = Buffer.from(stringify(rows, { header: true, columns, record_delimiter: 'windows' }));
  const lines: string[] = [];
  lines.push(`import: file ${ROWS.toLocaleString('en')} rows, ${(file.length / 1024 / 1024).toFixed(2)} MB, ${os.cpus().length} cores`);
  for (const batchSize of BATCHES) {
    const account = await createAccount(database.db, { name: `Bench ${batchSize}`, plan: 'business' });
    await database.db.updateTable('accounts').set({ code_limit: ROWS * 2 }).where('id', '=', account.id).execute();
    const user = await createUser(database.db, { accountId: account.id, email: `bench-${batchSize}@example.com`, role: 'owner', password: 'bench-password-1' });
    let started = performance.now();
    const checked = await checkImport(database.db, { accountId: account.id, userId: user.id, fileName: 'bench.csv', bytes: file });
    if (!checked.ok) throw new Error(checked.message);
    const dryRunMs = performance.now() - started;
    await confirmImport(database.db, account.id, checked.importId);
    started = performance.now();
    let batches = 0;
    while (await processBatch(database.db, { siteUrl: SITE_URL, batchSize })) batches++;
    const importMs = performance.now() - started;
    const summary = await getImport(database.db, account.id, checked.importId);
    if (summary.counts.created !== ROWS) throw new Error(`created ${summary.counts.created} of ${ROWS}`);
    started = performance.now();
    let exportBytes = 0;
    for await (const chunk of exportCodesCsv(database.db, account.id)) exportBytes += Buffer.byteLength(chunk);
    const exportMs = performance.now() - started;
    lines.push(
      `import batch ${String(batchSize).padStart(3)}: dry run ${Math.round(dryRunMs)} ms, import ${Math.round(importMs)} ms ` +
        `(${Math.round(ROWS / (importMs / 1000))} codes/s, ${batches} batches), export ${Math.round(exportMs)} ms (${(exportBytes / 1024 / 1024).toFixed(2)} MB)`,
    );
  }
  return lines;
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'qroute-bench-import-'));
  const logger = pino({ level: 'warn' });
  const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir }, { logger, stopEmbedded: 'always' });
  const cleanUp = cleanUpWhenInterrupted(async () => {
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  try {
    console.log((await benchImport(database)).join('\n'));
  } finally {
    await cleanUp();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
