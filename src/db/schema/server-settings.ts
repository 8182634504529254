import type { ColumnType } from 'kysely';

/** Settings a running server records for the other processes on its database (see src/db/site-url.ts). */
export interface ServerSettingsTable {
  name: string;
  value: string;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}
