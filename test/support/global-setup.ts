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
    /** Connection string of the test cluster's `postgres` database, for creating per-file databases. */
    postgresAdminUrl: string;
  }
}

/** Starts one real PostgreSQL for the run and migrates a template database once. */
export default async function setup(project: TestProject) {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'qroute-test-pg-'));
  const logger = pino({ level: 'warn' });
  const postgres = await startEmbeddedPostgres(dataDir, logger);
  const admin = new pg.Client({ connectionString: postgres.connectionString() });
  await admin.connect();
  await admin.query(`create database ${TEMPLATE_DATABASE}`);
  await admin.end();
  const template = createDatabase(postgres.connectionString(TEMPLATE_DATABASE), { logger });
  await migrateToLatest(template, logger);
  await template.destroy();
  project.provide('postgresAdminUrl', postgres.connectionString());

  return async () => {
    await postgres.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  };
}
