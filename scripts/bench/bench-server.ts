import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Logger } from 'pino';
import { loadConfig } from '../../src/config.js';
import type { Database } from '../../src/db/schema/index.js';
import type { Redirect } from '../../src/redirect/index.js';
import type { RunningServer } from '../../src/server.js';
import { createService, type Service } from '../../src/service.js';
import { SecretBox } from '../../src/webhooks/secret-box.js';

export interface BenchServer extends Service {
  redirect: Redirect;
  server: RunningServer;
  /** `http://127.0.0.1:<port>` */
  origin: string;
}

/**
 * qroute's server as `npm start` builds it (src/service.ts: short links with their recorder and journal, the API and
 * dashboard, the rollup, import and pruning jobs and, unless `webhookWorker: false`, the webhook worker) on a bench's
 * own embedded PostgreSQL, on a free loopback port, with the default settings. Everything it writes goes under
 * `tempDir` (the scan journal in `tempDir/journal`, at most `journalMaxBytes`, by default SCAN_JOURNAL_MAX_MB's
 * 256 MB), never the repository's ./data. `journalMaxBytes: 0` turns the journal off (SCAN_JOURNAL_MAX_MB=0): scans
 * answered without a commit are then kept in memory only.
 */
export async function startBenchServer(
  database: { db: Database; connectionString: string },
  options: { tempDir: string; journalMaxBytes?: number; logger: Logger; webhookWorker?: boolean; box?: SecretBox },
): Promise<BenchServer> {
  const defaults = loadConfig({});
  const config = {
    ...defaults,
    logLevel: 'silent',
    port: 0,
    dataDir: options.tempDir,
    scanJournal: { dir: path.join(options.tempDir, 'journal'), maxBytes: options.journalMaxBytes ?? defaults.scanJournal.maxBytes },
    webhookWorker: options.webhookWorker ?? defaults.webhookWorker,
  };
  // A key of its own: without one the service would read or create DATA_DIR's key file.
  const box = options.box ?? new SecretBox(randomBytes(32));
  const service = await createService(config, { role: 'server', box, database, host: '127.0.0.1', logger: options.logger });
  const { redirect, server, origin } = service;
  if (!redirect || !server || !origin) throw new Error('a server-role service without its redirect or listener');
  return { ...service, redirect, server, origin };
}
