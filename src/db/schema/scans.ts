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
  /** ISO 3166-1 alpha-2 country of the scanners' address (never the address), when the IP database knows it. */
  country: string | null;
  /** English name of the region (first subdivision), when the IP database has regions. */
  region: string | null;
  /** English name of the city, when the IP database has cities. */
  city: string | null;
  /** Primary subtag of the first language the phone asked for (Accept-Language), lower case. */
  language: string | null;
  /** The visitor's first scan of the code that UTC day; null for scans recorded before visitors were counted. */
  is_unique: boolean | null;
  /** The routing rule that answered (its `rul_…` id), or null. */
  rule_id: string | null;
  /** The split variant that answered (index into the code's split), or null. */
  variant: number | null;
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
  country: string | null;
  region: string | null;
  city: string | null;
  language: string | null;
  is_unique: boolean | null;
  rule_id: string | null;
  variant: number | null;
}

/** The UTC day's secret every instance hashes visitors with; deleted once the day has ended. */
export interface VisitorSecretsTable {
  day: ColumnType<string, string, never>;
  secret: Buffer;
  created_at: ColumnType<Date, Date | undefined, never>;
}

/** The (code, visitor) pairs seen this UTC day; a scan is unique when its pair is new. Deleted with the day. */
export interface ScanVisitorsTable {
  day: ColumnType<string, string, never>;
  qr_code_id: string;
  visitor: Buffer;
}
