import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import type { TestProject } from 'vitest/node';
import { createDatabase, migrateToLatest } from '../../src/db/database.js';
import { startEmbeddedPostgres } from '../../src/db/embedded-postgres.js';

export const TEMPLATE_DATABASE = 'qroute_template';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The test cluster's `postgres` database as the superuser, for creating per-file databases. */
    postgresAdminUrl: string;
    /** The same as the service's role (not a superuser), which owns the per-file databases. */
    postgresAppUrl: string;
  }
}

/** Starts one real PostgreSQL for the run and migrates a template database once. */
export default async function setup(project: TestProject) {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'qroute-test-pg-'));
  // Servers the tests start as processes journal scans here, not in the repository's ./data (test files inherit
  // the variable and pass it on); each database gets its own folder inside, so a restarted server still replays
  // what a killed one of the same database journaled. A test may set its own.
  const journalDir = await fs.mkdtemp(path.join(os.tmpdir(), 'qroute-test-journals-'));
  process.env.SCAN_JOURNAL_DIR ??= journalDir;
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

  return async () => {
    await postgres.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
    await fs.rm(journalDir, { recursive: true, force: true });
  };
}
