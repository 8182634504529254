import { type Kysely, sql } from 'kysely';

// Frozen once landed: a schema change is a new migration file.

export const CODE_CHANGES_CHANNEL = 'qroute_code_changes';

export async function up(db: Kysely<unknown>): Promise<void> {
  // What analytics will need: the destination actually served, and where the scanner came from (host only).
  await db.schema
    .alterTable('scans')
    .addColumn('destination_url', 'text')
    .addColumn('referrer_host', 'text')
    .execute();

  // Every instance caches slug → destination. Any change a redirect depends on (from the API, the CLI, another
  // instance, or by hand in psql) announces the slug on commit, so caches drop it before the next scan.
  // Counter updates from scan batches do not notify.
  await sql`
    create function notify_code_change() returns trigger language plpgsql as $$
    begin
      perform pg_notify(${sql.lit(CODE_CHANGES_CHANNEL)}, new.slug);
      return new;
    end
    $$`.execute(db);
  await sql`
    create trigger qr_codes_notify_insert after insert on qr_codes
    for each row execute function notify_code_change()`.execute(db);
  await sql`
    create trigger qr_codes_notify_update after update on qr_codes
    for each row when (
      old.destination_url is distinct from new.destination_url or old.active is distinct from new.active or
      old.deleted_at is distinct from new.deleted_at or old.name is distinct from new.name or old.slug is distinct from new.slug
    )
    execute function notify_code_change()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger qr_codes_notify_update on qr_codes`.execute(db);
  await sql`drop trigger qr_codes_notify_insert on qr_codes`.execute(db);
  await sql`drop function notify_code_change()`.execute(db);
  await db.schema.alterTable('scans').dropColumn('destination_url').dropColumn('referrer_host').execute();
}
