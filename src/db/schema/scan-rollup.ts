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
}

/** The same per account (all its codes, deleted ones included). */
export interface AccountScanHourlyTable {
  account_id: string;
  hour: Date;
  device: string;
  os: string;
  browser: string;
  scans: number;
}

/** One row: scans with an id up to `folded_through_id` are in the rollup, later ones are not. */
export interface ScanRollupStateTable {
  singleton: ColumnType<boolean, never, never>;
  folded_through_id: number;
  folded_at: ColumnType<Date, Date | undefined, Date>;
}
