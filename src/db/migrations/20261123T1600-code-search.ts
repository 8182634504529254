import { type Kysely, sql } from 'kysely';

// Frozen once landed: a schema change is a new migration file.

/**
 * The dashboard's code list: search by name (a substring, any case) and filter active/paused, newest first,
 * fast for an account with a million codes.
 *
 * A substring search cannot use a btree; a trigram index (pg_trgm, in PostgreSQL's contrib) answers
 * `name ilike '%term%'` from the index. pg_trgm is a trusted extension (PostgreSQL 13+), so the database's
 * owner, which is what qroute connects as, may create it without being a superuser. A server without it
 * fails this migration with a message that says what to do: without the index a search walks every code of
 * the account, and a migration that skipped it could not add it later (migrations run once).
 * On an existing installation the indexes are built in the migration's transaction: about 10 s per million
 * codes (measured on 2 cores), while creating and changing codes waits; redirects only read and go on.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const schema = await ensureExtension(db, 'pg_trgm');
  // Operator class qualified with the extension's schema: a DBA may have installed it outside search_path.
  await sql`create index qr_codes_name_trgm on qr_codes using gin (name ${sql.id(schema)}.gin_trgm_ops) where deleted_at is null`.execute(db);
  // "Paused only" walks this instead of every live code of the account looking for the few paused ones.
  await sql`create index qr_codes_account_state on qr_codes (account_id, active, id desc) where deleted_at is null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index qr_codes_account_state`.execute(db);
  await sql`drop index qr_codes_name_trgm`.execute(db);
  // The extension stays: something else in the database may use it, and dropping it may need a superuser.
}

/**
 * Creates the extension unless it is there, and returns the schema it lives in. Exported for the test of the
 * messages an operator sees when their server cannot provide it.
 */
// Any schema: it reads only the catalogs (the test passes the typed app database).
export async function ensureExtension(db: Kysely<any>, name: string): Promise<string> {
  const { rows } = await sql<{ schema: string | null; available: boolean }>`
    select (select n.nspname from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = ${name}) as schema,
           exists (select 1 from pg_available_extensions where name = ${name}) as available`.execute(db);
  const found = rows[0]!;
  if (found.schema !== null) return found.schema;
  if (!found.available) {
    throw new Error(
      `The PostgreSQL extension ${name} is not installed on the database server, and qroute needs it (searching codes by name). ` +
        `Install PostgreSQL's contrib modules on the server (Debian/Ubuntu: the postgresql-contrib package; included in the official ` +
        `postgres image and most managed services), then start qroute again.`,
    );
  }
  try {
    await sql`create extension ${sql.id(name)}`.execute(db);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `qroute could not create the PostgreSQL extension ${name} (${reason}). It needs the database's owner (PostgreSQL 13 or later) ` +
        `or a superuser: run "CREATE EXTENSION ${name};" in this database as a superuser, then start qroute again.`,
      { cause: error },
    );
  }
  return (await sql<{ schema: string }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = ${name}`.execute(db)).rows[0]!.schema;
}
