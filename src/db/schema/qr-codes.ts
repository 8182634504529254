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
  /** The code's own design (src/qr/design/); null follows `design_template_id`, or else the default design. */
  design: ColumnType<unknown, unknown, unknown> | null;
  design_template_id: string | null;
  /** The bulk import's idempotency key, unique among the account's live codes. */
  external_id: string | null;
  active: Generated<boolean>;
  scan_count: Generated<number>;
  bot_scan_count: Generated<number>;
  /** Scans that were their visitor's first of the code that UTC day, summed over the days. */
  unique_scan_count: Generated<number>;
  /** Rules and split (src/routing/), as parseRouting returned them; null: every scan goes to `destination_url`. */
  routing: ColumnType<unknown, unknown, unknown> | null;
  /** Before this the short URL answers "not active yet" (404), and nothing is counted. */
  active_from: Date | null;
  /** From this on the short URL answers "expired" (410, or 302 to `expired_url`), and nothing is counted. */
  expires_at: Date | null;
  /** Scans (scan_count) that reach a destination at most; decided where a scan is committed. */
  scan_limit: ColumnType<number | null, number | null, number | null>;
  /** Where an expired or used-up code sends scanners; null answers 410 with a page. */
  expired_url: string | null;
  created_at: ColumnType<Date, Date, never>;
  updated_at: Date;
  deleted_at: Date | null;
}

/**
 * Scan counter increments not yet folded into qr_codes (src/codes/scan-counts.ts): one row per code per scan
 * batch, appended without locking the code's row.
 */
export interface QrCodeScanIncrementsTable {
  qr_code_id: string;
  scans: number;
  bot_scans: number;
  unique_scans: Generated<number>;
}
