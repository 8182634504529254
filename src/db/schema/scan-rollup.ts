import type { ColumnType } from 'kysely';

/** Scans of one code in one UTC hour with one (device, os, browser): the rollup src/analytics/ folds into. */
export interface ScanHourlyTable {
  qr_code_id: string;
  /** The start of the UTC hour. */
  hour: Date;
  device: string;
  os: string;
  browser: string;
  scans: number;
  /** Of those, the visitors' first scans of the code that UTC day (0 for scans recorded before visitors were counted). */
  unique_scans: number;
}

/** The same per account (all its codes, deleted ones included). */
export interface AccountScanHourlyTable {
  account_id: string;
  hour: Date;
  device: string;
  os: string;
  browser: string;
  scans: number;
  unique_scans: number;
}

/**
 * Scans of one code in one UTC hour by every recorded dimension: kind of phone, where from, language and referrer
 * (each null when unknown; the key is a unique index with NULLS NOT DISTINCT). Read for the audience tables and
 * for filtered views; see the migration 20261127T0100-scan-rollup-audience.
 */
export interface ScanHourlyAudienceTable {
  qr_code_id: string;
  hour: Date;
  device: string;
  os: string;
  browser: string;
  country: string | null;
  region: string | null;
  city: string | null;
  language: string | null;
  referrer_host: string | null;
  scans: number;
  unique_scans: number;
}

/** The same per account. */
export interface AccountScanHourlyAudienceTable extends Omit<ScanHourlyAudienceTable, 'qr_code_id'> {
  account_id: string;
}

/** One row: scans with an id up to `folded_through_id` are in the rollup, later ones are not. */
export interface ScanRollupStateTable {
  singleton: ColumnType<boolean, never, never>;
  folded_through_id: number;
  folded_at: ColumnType<Date, Date | undefined, Date>;
}
