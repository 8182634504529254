import type { ColumnType, Generated } from 'kysely';

export interface QrCodesTable {
  id: string;
  account_id: string;
  name: string;
  type: Generated<string>;
  /** Upper-case Crockford base32; the row is kept after delete so the slug is never reused. */
  slug: string;
  destination_url: string;
  /** The type's content (src/codes/types/); null for URL codes made through the API. */
  content: ColumnType<unknown, unknown, unknown> | null;
  active: Generated<boolean>;
  scan_count: Generated<number>;
  bot_scan_count: Generated<number>;
  created_at: ColumnType<Date, Date, never>;
  updated_at: Date;
  deleted_at: Date | null;
}
