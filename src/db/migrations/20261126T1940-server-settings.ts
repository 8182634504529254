import { type Kysely, sql } from 'kysely';

// Frozen once landed: a schema change is a new migration file.

/**
 * What a running server tells the other processes on the same database, by name: today its SITE_URL, which the
 * admin CLI prints links with when its own environment has none (src/db/site-url.ts). A row per setting, written
 * at the server's start when it changed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table server_settings (
    name text primary key,
    value text not null,
    updated_at timestamptz not null default now()
  )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table server_settings`.execute(db);
}
