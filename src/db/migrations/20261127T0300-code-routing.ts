import { type Kysely, sql } from 'kysely';

// Frozen once landed: a schema change is a new migration file.

/**
 * One printed code, many destinations (issue 28, docs/integrating/routing.md).
 *
 * A code gains its routing (rules tried in order, then a weighted split; src/routing/ checks and normalises it
 * before it is stored, so the column only ever holds what parseRouting returned) and its schedule: when it starts
 * answering, when it expires, how many scans reach a destination at most, and where scans go afterwards.
 *
 * Each scan group records how its scans were routed: the rule that answered (its id, kept across updates of the
 * rule) or the split's variant (an index into the split). Groups split by these as by every other dimension;
 * both are null for scans answered by the code's own destination and for scans recorded before routing existed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Taken first, so an instance of the previous version inserting scans waits for this migration's commit.
  await sql`lock table scan_groups in share mode`.execute(db);
  await sql`alter table scan_groups add column rule_id text, add column variant smallint`.execute(db);

  // The view gains the columns; its insert trigger (for instances still running the previous version during an
  // upgrade) keeps its column list, so their scans have no routing (null), as that version knew none.
  await sql`drop view scans`.execute(db);
  await sql`
    create view scans as
    select g.id as group_id, t.position, g.qr_code_id, t.created_at, g.device, g.os, g.browser, g.destination_url,
           g.referrer_host, g.country, g.region, g.city, g.language, g.is_unique, g.rule_id, g.variant
    from scan_groups g cross join lateral unnest(coalesce(g.times, array[g.first_at])) with ordinality as t(created_at, position)`.execute(db);
  await sql`create trigger scans_insert instead of insert on scans for each row execute function insert_scan_as_group()`.execute(db);

  await sql`
    alter table qr_codes
      add column routing jsonb,
      add column active_from timestamptz,
      add column expires_at timestamptz,
      add column scan_limit bigint check (scan_limit > 0),
      add column expired_url text,
      add constraint qr_codes_schedule_order check (expires_at > active_from)`.execute(db);
  // Every instance caches what a scan needs (src/redirect/code-lookup.ts); a change of routing or schedule is
  // announced on commit like a change of destination, so the next scan on every instance sees it.
  await sql`drop trigger qr_codes_notify_update on qr_codes`.execute(db);
  await sql`
    create trigger qr_codes_notify_update after update on qr_codes
    for each row when (
      old.destination_url is distinct from new.destination_url or old.active is distinct from new.active or
      old.deleted_at is distinct from new.deleted_at or old.name is distinct from new.name or old.slug is distinct from new.slug or
      old.type is distinct from new.type or old.content is distinct from new.content or
      old.routing is distinct from new.routing or old.active_from is distinct from new.active_from or
      old.expires_at is distinct from new.expires_at or old.scan_limit is distinct from new.scan_limit or
      old.expired_url is distinct from new.expired_url
    )
    execute function notify_code_change()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`lock table scan_groups in share mode`.execute(db);
  await sql`drop trigger qr_codes_notify_update on qr_codes`.execute(db);
  await sql`
    create trigger qr_codes_notify_update after update on qr_codes
    for each row when (
      old.destination_url is distinct from new.destination_url or old.active is distinct from new.active or
      old.deleted_at is distinct from new.deleted_at or old.name is distinct from new.name or old.slug is distinct from new.slug or
      old.type is distinct from new.type or old.content is distinct from new.content
    )
    execute function notify_code_change()`.execute(db);
  await sql`
    alter table qr_codes
      drop constraint qr_codes_schedule_order,
      drop column routing, drop column active_from, drop column expires_at, drop column scan_limit, drop column expired_url`.execute(db);
  await sql`drop view scans`.execute(db);
  await sql`
    create view scans as
    select g.id as group_id, t.position, g.qr_code_id, t.created_at, g.device, g.os, g.browser, g.destination_url,
           g.referrer_host, g.country, g.region, g.city, g.language, g.is_unique
    from scan_groups g cross join lateral unnest(coalesce(g.times, array[g.first_at])) with ordinality as t(created_at, position)`.execute(db);
  await sql`create trigger scans_insert instead of insert on scans for each row execute function insert_scan_as_group()`.execute(db);
  await sql`alter table scan_groups drop column rule_id, drop column variant`.execute(db);
}
