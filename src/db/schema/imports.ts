import type { ColumnType } from 'kysely';

export type ImportStatus = 'checked' | 'queued' | 'running' | 'done' | 'cancelled';
export type ImportRowStatus = 'invalid' | 'pending' | 'created' | 'skipped' | 'failed';

/** One uploaded CSV file: checked by a dry run, then (once confirmed) worked through by a background job. */
export interface ImportsTable {
  id: string;
  account_id: string;
  created_by_user_id: string | null;
  file_name: string;
  status: ImportStatus;
  row_count: number;
  created_at: ColumnType<Date, Date | undefined, never>;
  confirmed_at: Date | null;
  finished_at: Date | null;
}

/** A row of an import, by its line in the file (the header is line 1). */
export interface ImportRowsTable {
  import_id: string;
  line: number;
  status: ImportRowStatus;
  input: ColumnType<unknown, unknown, unknown>;
  problems: ColumnType<unknown, unknown, unknown> | null;
  qr_code_id: string | null;
}
