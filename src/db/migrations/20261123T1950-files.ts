import { type Kysely, sql } from 'kysely';

// Frozen once landed: a schema change is a new migration file.

/**
 * Uploaded files (PDFs, images, audio, video, logos), kept in PostgreSQL so several instances share them with
 * nothing else to run. The bytes live in `file_chunks`, a row per chunk (256 KiB by default, recorded per file in
 * `chunk_size` so a later change of size keeps old files readable): no single value is large, an upload is
 * written chunk by chunk and a range request reads only the chunks it needs.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('files')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('pdf', 'image', 'audio', 'video', 'logo')`))
    // What the content was detected as (never the name's extension or the client's claim).
    .addColumn('media_type', 'text', (c) => c.notNull())
    .addColumn('original_name', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'bigint', (c) => c.notNull().check(sql`size_bytes >= 0`))
    .addColumn('chunk_size', 'integer', (c) => c.notNull().check(sql`chunk_size > 0`))
    // Hex SHA-256 of the stored bytes: the ETag. Empty while the upload is still being written.
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('deleted_at', 'timestamptz')
    .execute();
  // The per-account storage sum reads live files only.
  await sql`create index files_account_live on files (account_id) include (size_bytes) where deleted_at is null`.execute(db);

  await db.schema
    .createTable('file_chunks')
    .addColumn('file_id', 'text', (c) => c.notNull().references('files.id').onDelete('cascade'))
    .addColumn('index', 'integer', (c) => c.notNull().check(sql`index >= 0`))
    .addColumn('data', 'bytea', (c) => c.notNull())
    .addPrimaryKeyConstraint('file_chunks_pkey', ['file_id', 'index'])
    .execute();
  // Chunks are already compressed media (or random-looking); TOAST compression would only cost CPU.
  await sql`alter table file_chunks alter column data set storage external`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('file_chunks').execute();
  await db.schema.dropTable('files').execute();
}
