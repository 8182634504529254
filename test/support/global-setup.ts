import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import type { TestProject } from 'vitest/node';
import { createDatabase, migrateToLatest } from '../../src/db/database.js';
import { startEmbeddedPostgres } from '../../src/db/embedded-postgres.js';
import { PROJECT_ROOT } from '../../src/paths.js';

export const TEMPLATE_DATABASE = 'qroute_template';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The test cluster's `postgres` database as the superuser, for creating per-file databases. */
    postgresAdminUrl: string;
    /** The same as the service's role (not a superuser), which owns the per-file databases. */
    postgresAppUrl: string;
    /** Why dist/ could not be built, or '' when it is fresh: tests that run the CLI or service as processes need it. */
    buildFailure: string;
    /**
     * An empty folder where the first test file that starts a PostgreSQL of its own (own-cluster.ts) makes a
     * migrated cluster that every such file then copies, instead of each running initdb and the migrations.
     */
    ownClusterTemplate: string;
  }
}

/**
 * `npm run build` when dist/ is older than src/ (scripts/build-if-stale.mjs, as `npm start` does), so the tests run
 * the admin CLI and the service the way operators do, `node dist/src/…`: about a second per process instead of the
 * two to three that tsx takes to load the same code. A fresh clone pays ~10 s of tsc once (emit only:
 * tsconfig.build.json's noCheck), while PostgreSQL starts. Resolves to '' or, when tsc failed, a message that the
 * process-running tests throw.
 */
function buildIfStale(): Promise<string> {
  return new Promise((resolve) => {
    let output = '';
    const child = spawn(process.execPath, ['scripts/build-if-stale.mjs', 'build'], { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      // build-if-stale's own lines say whether it builds and why; tsc's errors come with the failure below.
      if (chunk.toString().includes('qroute: building')) process.stderr.write(chunk);
    });
    child.once('error', (error) => resolve(`could not run scripts/build-if-stale.mjs: ${error.message}`));
    child.once('close', (code) => {
      if (code === 0) resolve('');
      else {
        resolve(
          `\`npm run build\` failed (exit ${code}), so the admin CLI and the service cannot run from dist/ as operators run them.` +
            ` Fix what tsc reports and run the tests again:\n${output.trim().slice(-5_000)}`,
        );
      }
    });
  });
}

/** Starts one real PostgreSQL for the run and migrates a template database once; builds dist/ if stale. */
export default async function setup(project: TestProject) {
  // Built while PostgreSQL starts: tsc and the cluster's start-up keep different cores busy.
  const built = buildIfStale();
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'qroute-test-pg-'));
  // Servers the tests start as processes journal scans here, not in the repository's ./data (test files inherit
  // the variable and pass it on); each database gets its own folder inside, so a restarted server still replays
  // what a killed one of the same database journaled. A test may set its own.
  const journalDir = await fs.mkdtemp(path.join(os.tmpdir(), 'qroute-test-journals-'));
  process.env.SCAN_JOURNAL_DIR ??= journalDir;
  const ownClusterTemplate = await fs.mkdtemp(path.join(os.tmpdir(), 'qroute-own-pg-template-'));
  // PostgreSQL's user (when the tests run as root) must reach the cluster inside, or it would be kept elsewhere.
  await fs.chmod(ownClusterTemplate, 0o755);
  project.provide('ownClusterTemplate', ownClusterTemplate);
  const logger = pino({ level: 'warn' });
  const postgres = await startEmbeddedPostgres(dataDir, logger);
  const admin = new pg.Client({ connectionString: postgres.adminConnectionString() });
  await admin.connect();
  // Owned by the service's role, which migrates it: the tests run with the privileges the service has.
  await admin.query(`create database ${TEMPLATE_DATABASE} owner ${new URL(postgres.connectionString()).username}`);
  await admin.end();
  const template = createDatabase(postgres.connectionString(TEMPLATE_DATABASE), { logger });
  await migrateToLatest(template, logger);
  await template.destroy();
  project.provide('postgresAdminUrl', postgres.adminConnectionString());
  project.provide('postgresAppUrl', postgres.connectionString());
  const buildFailure = await built;
  if (buildFailure) process.stderr.write(`\n${buildFailure}\n\n`);
  project.provide('buildFailure', buildFailure);

  return async () => {
    await postgres.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
    await fs.rm(journalDir, { recursive: true, force: true });
    await fs.rm(ownClusterTemplate, { recursive: true, force: true });
  };
}
