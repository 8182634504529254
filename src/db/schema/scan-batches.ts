import type { ColumnType } from 'kysely';

/** Ids of committed scan batches: what makes rewriting a batch after an ambiguous failure harmless. */
export interface ScanBatchesTable {
  id: string;
  committed_at: ColumnType<Date, Date | undefined, never>;
}
