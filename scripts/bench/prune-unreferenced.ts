/**
 * `npx tsx scripts/bench/prune-unreferenced.ts`: what a run of the unreferenced-upload prune costs
 * (src/files/prune-unreferenced.ts) for one account of BENCH_PRUNE_FILES codes (default 20,000), each showing a
 * file of its own, every file past UNREFERENCED_UPLOAD_HOURS. Times the first run (it finds every file named and
 * marks it), a second run (nothing left to look at), and a run after three new orphan uploads came of age (one
 * batch over the account's rows). Before the mark, every run cost what the first does. Seeds with generate_series
 * on a temporary embedded PostgreSQL, removed at the end.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pino from 'pino';
import { createAccount } from '../../src/accounts/account-service.js';
import { openDatabase } from '../../src/db/connect.js';
import { pruneUnreferencedFiles, UNREFERENCED_UPLOAD_HOURS } from '../../src/files/prune-unreferenced.js';

const FILES = Number(process.env.BENCH_PRUNE_FILES ?? 20_000);
const BATCH = 1_000;

async function main(): Promise<void> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'qroute-bench-prune-'));
  const database = await openDatabase({ dataDir, databaseUrl: undefined }, { logger: pino({ level: 'warn' }), stopEmbedded: 'always' });
  try {
    const db = database.db;
    const account = await createAccount(db, { name: 'bench', plan: 'business' });
    // Ids of the ids' shape (fil_ and 26 of [0-9A-Z]), so the prune's pattern finds them in the content.
    const fileId = sql`'fil_' || lpad(upper(to_hex(i)), 26, '0')`;
    await sql`insert into files (id, account_id, kind, media_type, original_name, size_bytes, chunk_size, sha256, created_at)
      select ${fileId}, ${account.id}, 'pdf', 'application/pdf', 'menu.pdf', 10, 262144, 'seeded', now() - interval '30 hours'
      from generate_series(1, ${FILES}) i`.execute(db);
    await sql`insert into qr_codes (id, account_id, name, type, slug, destination_url, content, created_at, updated_at)
      select 'qr_' || lpad(upper(to_hex(i)), 26, '0'), ${account.id}, 'Menu ' || i, 'PDF', 'bench' || i, 'https://example.com/' || i,
        jsonb_build_object('fileId', ${fileId}, 'title', 'Menu'), now(), now()
      from generate_series(1, ${FILES}) i`.execute(db);
    await sql`analyze`.execute(db);

    const timed = async (label: string): Promise<void> => {
      const started = performance.now();
      const pruned = await pruneUnreferencedFiles(db, UNREFERENCED_UPLOAD_HOURS, BATCH);
      console.log(`${label}: ${Math.round(performance.now() - started)} ms, ${pruned} deleted`);
    };
    console.log(`${FILES} codes, each showing its own file, in one account; batches of ${BATCH}`);
    await timed('first run (reads every file once, marks the named ones)');
    await timed('second run');
    await sql`insert into files (id, account_id, kind, media_type, original_name, size_bytes, chunk_size, sha256, created_at)
      select 'fil_Z' || lpad(i::text, 25, '0'), ${account.id}, 'pdf', 'application/pdf', 'refused.pdf', 10, 262144, 'seeded', now() - interval '25 hours'
      from generate_series(1, 3) i`.execute(db);
    await timed('run after three orphan uploads came of age');
  } finally {
    await database.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

await main();
