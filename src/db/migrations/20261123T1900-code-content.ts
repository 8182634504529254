import { type Kysely, sql } from 'kysely';

// Frozen once landed: a schema change is a new migration file.

// The seventeen types as they were when this landed (a migration must not follow later code).
const TYPES = ['URL', 'VCARD_PLUS', 'CONTACT', 'PDF', 'IMAGES', 'VIDEO', 'MP3', 'BUSINESS', 'SOCIAL_MEDIA', 'FACEBOOK',
  'COUPON', 'APP', 'EVENT', 'TEXT', 'EMAIL', 'SMS', 'WIFI'];

/**
 * A code's typed content (src/codes/types/), validated by the service before it is stored. Null for URL codes
 * made through the API: their destination stays in `destination_url`, which the redirect reads.
 * The short-link cache holds type and content too, so changing either must announce the slug like a new
 * destination does: the update trigger is recreated with them in its condition.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table qr_codes add column content jsonb`.execute(db);
  await sql`alter table qr_codes add constraint qr_codes_type_known check (type in (${sql.join(TYPES.map((t) => sql.lit(t)))}))`.execute(db);
  await sql`drop trigger qr_codes_notify_update on qr_codes`.execute(db);
  await sql`
    create trigger qr_codes_notify_update after update on qr_codes
    for each row when (
      old.destination_url is distinct from new.destination_url or old.active is distinct from new.active or
      old.deleted_at is distinct from new.deleted_at or old.name is distinct from new.name or old.slug is distinct from new.slug or
      old.type is distinct from new.type or old.content is distinct from new.content
    )
    execute function notify_code_change()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger qr_codes_notify_update on qr_codes`.execute(db);
  await sql`
    create trigger qr_codes_notify_update after update on qr_codes
    for each row when (
      old.destination_url is distinct from new.destination_url or old.active is distinct from new.active or
      old.deleted_at is distinct from new.deleted_at or old.name is distinct from new.name or old.slug is distinct from new.slug
    )
    execute function notify_code_change()`.execute(db);
  await sql`alter table qr_codes drop constraint qr_codes_type_known`.execute(db);
  await sql`alter table qr_codes drop column content`.execute(db);
}
