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
  /** What the person who made it called it (dashboard); null for keys made by the CLI without one. */
  name: string | null;
  /** The dashboard user who made it; null for keys made by the operator's CLI. */
  created_by_user_id: string | null;
}
