import type { Migration, MigrationProvider } from 'kysely';
import * as initialSchema from './20261122T1000-initial-schema.js';
import * as redirectAndScans from './20261122T1100-redirect-and-scans.js';
import * as webhooks from './20261122T1200-webhooks.js';
import * as webhookAttemptIntegrity from './20261123T1000-webhook-attempt-integrity.js';
import * as scanBatches from './20261123T1200-scan-batches.js';
import * as retention from './20261123T1300-retention.js';

/** Every migration, listed explicitly in order, so a build never depends on reading a directory at run time. */
const migrations: Record<string, Migration> = {
  '20261122T1000-initial-schema': initialSchema,
  '20261122T1100-redirect-and-scans': redirectAndScans,
  '20261122T1200-webhooks': webhooks,
  '20261123T1000-webhook-attempt-integrity': webhookAttemptIntegrity,
  '20261123T1200-scan-batches': scanBatches,
  '20261123T1300-retention': retention,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
