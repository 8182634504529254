import { type Kysely, sql } from 'kysely';

// Frozen once landed: a schema change is a new migration file.

/**
 * When the unreferenced-upload prune first found a file named by something (a code, a template, an import, a
 * branding logo). A marked file is never looked at again, so each run reads only the accounts of files that
 * turned UNREFERENCED_UPLOAD_HOURS old since the last run, not every file ever kept (src/files/prune-unreferenced.ts).
 * The partial index is the prune's walk: live files not yet known to be referenced, by id.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table files add column referenced_at timestamptz`.execute(db);
  await sql`create index files_unreferenced_live on files (id) where deleted_at is null and referenced_at is null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index files_unreferenced_live`.execute(db);
  await sql`alter table files drop column referenced_at`.execute(db);
}
