import type { ColumnType } from 'kysely';

export type FileKind = 'pdf' | 'image' | 'audio' | 'video' | 'logo';

export interface FilesTable {
  id: string;
  account_id: string;
  kind: FileKind;
  /** Detected from the content, never from the name. */
  media_type: string;
  original_name: string;
  /** bigint: pg returns it as a string. */
  size_bytes: ColumnType<string, number, number>;
  chunk_size: number;
  /** Hex SHA-256 of the stored bytes (the ETag); empty while the upload is being written. */
  sha256: string;
  created_at: ColumnType<Date, Date | undefined, never>;
  deleted_at: Date | null;
  /** When the unreferenced-upload prune first found it named by something; never pruned after (src/files/prune-unreferenced.ts). */
  referenced_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface FileChunksTable {
  file_id: string;
  index: number;
  data: Buffer;
}
