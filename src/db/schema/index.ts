import type { Kysely, Transaction as KyselyTransaction } from 'kysely';
import type { AccountsTable } from './accounts.js';
import type { ApiKeysTable } from './api-keys.js';
import type { DesignTemplatesTable } from './design-templates.js';
import type { FileChunksTable, FilesTable } from './files.js';
import type { ImportRowsTable, ImportsTable } from './imports.js';
import type { IdempotencyKeysTable } from './idempotency-keys.js';
import type {
  InvitationsTable,
  LoginFailuresTable,
  PasswordResetsTable,
  QrCodeDestinationChangesTable,
  SessionsTable,
  SignupRequestsTable,
  UsersTable,
} from './people.js';
import type { QrCodeScanIncrementsTable, QrCodesTable } from './qr-codes.js';
import type { ScanBatchesTable } from './scan-batches.js';
import type { ErasedCodesTable } from './erased-codes.js';
import type { RetiredSlugsTable } from './retired-slugs.js';
import type { ServerSettingsTable } from './server-settings.js';
import type {
  AccountScanHourlyAudienceTable,
  AccountScanHourlyTable,
  ScanHourlyAudienceTable,
  ScanHourlyTable,
  ScanRollupStateTable,
} from './scan-rollup.js';
import type { ScanGroupsTable, ScansView, ScanVisitorsTable, VisitorSecretsTable } from './scans.js';
import type { WebhookAttemptsTable, WebhookDeliveriesTable, WebhookEndpointsTable } from './webhooks.js';
import type { WriteRateEventsTable } from './write-rate-events.js';

export interface DatabaseSchema {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  qr_codes: QrCodesTable;
  qr_code_scan_increments: QrCodeScanIncrementsTable;
  scan_groups: ScanGroupsTable;
  /** A view: one row per scan of scan_groups. */
  scans: ScansView;
  scan_visitors: ScanVisitorsTable;
  visitor_secrets: VisitorSecretsTable;
  scan_batches: ScanBatchesTable;
  write_rate_events: WriteRateEventsTable;
  idempotency_keys: IdempotencyKeysTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  users: UsersTable;
  sessions: SessionsTable;
  invitations: InvitationsTable;
  signup_requests: SignupRequestsTable;
  password_resets: PasswordResetsTable;
  login_failures: LoginFailuresTable;
  qr_code_destination_changes: QrCodeDestinationChangesTable;
  scan_hourly: ScanHourlyTable;
  account_scan_hourly: AccountScanHourlyTable;
  scan_hourly_audience: ScanHourlyAudienceTable;
  account_scan_hourly_audience: AccountScanHourlyAudienceTable;
  scan_rollup_state: ScanRollupStateTable;
  files: FilesTable;
  file_chunks: FileChunksTable;
  design_templates: DesignTemplatesTable;
  imports: ImportsTable;
  import_rows: ImportRowsTable;
  server_settings: ServerSettingsTable;
  retired_slugs: RetiredSlugsTable;
  erased_codes: ErasedCodesTable;
}

/** The database handle services take: the pool, or a transaction the caller opened. */
export type Db = Kysely<DatabaseSchema> | KyselyTransaction<DatabaseSchema>;
export type Database = Kysely<DatabaseSchema>;
export type Transaction = KyselyTransaction<DatabaseSchema>;
