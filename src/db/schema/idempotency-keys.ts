import type { ColumnType } from 'kysely';

export interface IdempotencyKeysTable {
  account_id: string;
  key: string;
  /** SHA-256 of the request body, so a reused key with another body is told apart from a retry. */
  request_hash: string;
  response_status: number | null;
  response_body: ColumnType<unknown, string | null, string | null> | null;
  created_at: Date;
}
