import type { ColumnType, Generated } from 'kysely';

/**
 * Scans, packed (see the migration 20261125T1839-packed-scans): one row per batch, code, kind of device,
 * destination, referrer and UTC second. Every time lies in the second `first_at` starts, and `first_at` is the
 * earliest; ids grow in commit order.
 */
export interface ScanGroupsTable {
  id: Generated<number>;
  qr_code_id: string;
  device: string;
  os: string;
  browser: string;
  /** The destination these scans were sent to (destinations change over time). */
  destination_url: string | null;
  /** Host of the Referer header, when the scanners sent one; never the full URL, never the IP. */
  referrer_host: string | null;
  first_at: ColumnType<Date, Date, never>;
  /** Every time of the group; null for a group of one scan, which is at `first_at`. */
  times: ColumnType<Date[] | null, Date[] | null, never>;
}

/** The view `scans`: one row per scan of a group, `position` counting from 1. */
export interface ScansView {
  group_id: ColumnType<number, never, never>;
  position: ColumnType<number, never, never>;
  qr_code_id: string;
  created_at: ColumnType<Date, Date, never>;
  device: string;
  os: string;
  browser: string;
  destination_url: string | null;
  referrer_host: string | null;
}
