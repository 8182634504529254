import type { ColumnType } from 'kysely';

export interface ApiKeysTable {
  id: string;
  account_id: string;
  /** SHA-256 of the whole key; the key itself is never stored. */
  key_hash: Buffer;
  /** First characters of the key, shown in listings so people can tell keys apart. */
  prefix: string;
  last_four: string;
  created_at: ColumnType<Date, Date | undefined, never>;
  revoked_at: Date | null;
  last_used_at: Date | null;
}
