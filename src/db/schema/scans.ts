import type { ColumnType, Generated } from 'kysely';

export interface ScansTable {
  id: Generated<number>;
  qr_code_id: string;
  created_at: ColumnType<Date, Date, never>;
  device: string;
  os: string;
  browser: string;
  /** The destination this scan was sent to (destinations change over time). */
  destination_url: string | null;
  /** Host of the Referer header, when the scanner sent one; never the full URL, never the IP. */
  referrer_host: string | null;
}
