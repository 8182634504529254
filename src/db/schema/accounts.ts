import type { ColumnType, Generated } from 'kysely';

export interface AccountsTable {
  id: string;
  name: string;
  plan: string;
  /** Per-account override of the plan's dynamic-code limit; null means the plan's default. */
  code_limit: number | null;
  /** Live (not deleted) codes, kept in step with qr_codes so the limit check is one atomic UPDATE. */
  code_count: Generated<number>;
  /** Landing pages' accent colour, `#rrggbb`; null is qroute's own. */
  brand_color: ColumnType<string | null, string | null | undefined, string | null>;
  /** A stored file (kind `logo`) shown on the account's landing pages. */
  brand_logo_file_id: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: ColumnType<Date, Date | undefined, never>;
}
