import type { ColumnType } from 'kysely';

/** Slugs of erased accounts' codes: never handed out again (migration 20261127T0200-retired-slugs). */
export interface RetiredSlugsTable {
  slug: string;
  retired_at: ColumnType<Date, Date | undefined, never>;
}
