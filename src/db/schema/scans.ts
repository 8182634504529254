import type { ColumnType, Generated } from 'kysely';

export interface ScansTable {
  id: Generated<number>;
  qr_code_id: string;
  created_at: ColumnType<Date, Date, never>;
  device: string;
  os: string;
  browser: string;
}
