import type { Migration, MigrationProvider } from 'kysely';
import * as initialSchema from './20261122T1000-initial-schema.js';
import * as redirectAndScans from './20261122T1100-redirect-and-scans.js';
import * as webhooks from './20261122T1200-webhooks.js';
import * as webhookAttemptIntegrity from './20261123T1000-webhook-attempt-integrity.js';
import * as scanBatches from './20261123T1200-scan-batches.js';
import * as retention from './20261123T1300-retention.js';
import * as peopleAndSessions from './20261123T1400-people-and-sessions.js';
import * as scanRollup from './20261123T1500-scan-rollup.js';
import * as codeSearch from './20261123T1600-code-search.js';
import * as scanHourlyWithoutCodeKey from './20261123T1700-scan-hourly-without-code-key.js';
import * as scanHourlyByHour from './20261123T1800-scan-hourly-by-hour.js';
import * as codeContent from './20261123T1900-code-content.js';
import * as files from './20261123T1950-files.js';
import * as designsImportsBranding from './20261123T2000-designs-imports-branding.js';
import * as scanCountIncrements from './20261124T0000-scan-count-increments.js';
import * as packedScans from './20261125T1839-packed-scans.js';
import * as webhookClaimTokens from './20261126T1401-webhook-claim-tokens.js';
import * as signupRequests from './20261126T1430-signup-requests.js';
import * as fileReferencedAt from './20261126T1510-file-referenced-at.js';
import * as serverSettings from './20261126T1940-server-settings.js';
import * as scanAudience from './20261127T0000-scan-audience.js';
import * as scanRollupAudience from './20261127T0100-scan-rollup-audience.js';
import * as retiredSlugs from './20261127T0200-retired-slugs.js';
import * as erasedCodes from './20261127T0210-erased-codes.js';
import * as erasureDeletesScannedCodes from './20261127T0220-erasure-deletes-scanned-codes.js';
import * as rollupFoldSpeed from './20261127T0240-rollup-fold-speed.js';
import * as scanHourlyHourIncludeCode from './20261127T0250-scan-hourly-hour-include-code.js';
import * as codeRouting from './20261127T0300-code-routing.js';
import * as monthlyScanPartitions from './20261127T0600-monthly-scan-partitions.js';
import * as fasterDeliveryIds from './20261127T0900-faster-delivery-ids.js';

/** Every migration, listed explicitly in order, so a build never depends on reading a directory at run time. */
const migrations: Record<string, Migration> = {
  '20261122T1000-initial-schema': initialSchema,
  '20261122T1100-redirect-and-scans': redirectAndScans,
  '20261122T1200-webhooks': webhooks,
  '20261123T1000-webhook-attempt-integrity': webhookAttemptIntegrity,
  '20261123T1200-scan-batches': scanBatches,
  '20261123T1300-retention': retention,
  '20261123T1400-people-and-sessions': peopleAndSessions,
  '20261123T1500-scan-rollup': scanRollup,
  '20261123T1600-code-search': codeSearch,
  '20261123T1700-scan-hourly-without-code-key': scanHourlyWithoutCodeKey,
  '20261123T1800-scan-hourly-by-hour': scanHourlyByHour,
  '20261123T1900-code-content': codeContent,
  '20261123T1950-files': files,
  '20261123T2000-designs-imports-branding': designsImportsBranding,
  '20261124T0000-scan-count-increments': scanCountIncrements,
  '20261125T1839-packed-scans': packedScans,
  '20261126T1401-webhook-claim-tokens': webhookClaimTokens,
  '20261126T1430-signup-requests': signupRequests,
  '20261126T1510-file-referenced-at': fileReferencedAt,
  '20261126T1940-server-settings': serverSettings,
  '20261127T0000-scan-audience': scanAudience,
  '20261127T0100-scan-rollup-audience': scanRollupAudience,
  '20261127T0200-retired-slugs': retiredSlugs,
  '20261127T0210-erased-codes': erasedCodes,
  '20261127T0220-erasure-deletes-scanned-codes': erasureDeletesScannedCodes,
  '20261127T0240-rollup-fold-speed': rollupFoldSpeed,
  '20261127T0250-scan-hourly-hour-include-code': scanHourlyHourIncludeCode,
  '20261127T0300-code-routing': codeRouting,
  '20261127T0600-monthly-scan-partitions': monthlyScanPartitions,
  '20261127T0900-faster-delivery-ids': fasterDeliveryIds,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
