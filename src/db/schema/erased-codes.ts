import type { ColumnType } from 'kysely';

/** Codes of erased accounts, swept of late scans for a while (migration 20261127T0210-erased-codes). */
export interface ErasedCodesTable {
  qr_code_id: string;
  erased_at: ColumnType<Date, Date | undefined, never>;
}
