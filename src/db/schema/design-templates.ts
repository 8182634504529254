import type { ColumnType } from 'kysely';

/** An account's saved design (src/qr/design/design.ts), applied to codes by `qr_codes.design_template_id`. */
export interface DesignTemplatesTable {
  id: string;
  account_id: string;
  name: string;
  design: ColumnType<unknown, unknown, unknown>;
  created_at: ColumnType<Date, Date | undefined, never>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}
