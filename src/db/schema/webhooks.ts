import type { ColumnType, Generated } from 'kysely';

export interface WebhookEndpointsTable {
  account_id: string;
  url: string;
  /** `SecretBox` ciphertext of the `whsec_` secret; never the secret itself. */
  secret_encrypted: string;
  previous_secret_encrypted: string | null;
  previous_secret_expires_at: Date | null;
  consecutive_failures: Generated<number>;
  disabled_at: Date | null;
  disabled_reason: string | null;
  created_at: ColumnType<Date, Date | undefined, never>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface WebhookDeliveriesTable {
  /** `whd_…`; also the `webhook-id` header and the payload's `id`, the same on every attempt. */
  id: string;
  account_id: string;
  /** Null for test events. */
  qr_code_id: string | null;
  event: string;
  /** The exact bytes sent and signed. */
  body: string;
  status: Generated<DeliveryStatus>;
  attempt_count: Generated<number>;
  /** Set by a redelivery or a test event: the next attempt's failure ends the delivery, no retry series. */
  final_attempt: Generated<boolean>;
  next_attempt_at: Generated<Date>;
  claimed_by: string | null;
  /** Random, set by each claim and cleared with it: an outcome is recorded only under the claim it was sent for. */
  claim_token: string | null;
  last_attempt_at: Date | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: ColumnType<Date, Date | undefined, never>;
  completed_at: Date | null;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: string;
  attempt_number: number;
  started_at: Date;
  url: string;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  /** The first 2 KB of the receiver's answer. */
  response_body: string | null;
}
