import { type Kysely, sql } from 'kysely';

// Frozen once landed: a schema change is a new migration file.

/**
 * Who scanned, without anything personal (issue 27, docs/dashboard/audience.md).
 *
 * Each scan group gains where its scans came from (country, region, city: looked up in memory from an offline IP
 * database while the request is answered; the address itself is never stored), the first language the phone
 * asked for, and whether its scans were unique. A group's scans share all of these, so a group now also splits by
 * them; `is_unique` is null for scans recorded before qroute counted visitors.
 *
 * A scan is unique when its visitor has not scanned the code earlier the same UTC day. The visitor is a keyed hash
 * of address and user agent under the day's secret (`visitor_secrets`, one row per UTC day, shared by every
 * instance); `scan_visitors` holds the day's (code, visitor) pairs, and a scan is unique when its pair is new
 * there. Both are deleted once the day has ended (src/audience/visitor-days.ts), so afterwards nobody, the operator
 * included, can link a stored scan to an address.
 *
 * Unique scans are counted like scans: increments appended by the scan batch, folded into qr_codes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Taken first, so an instance of the previous version inserting scans waits for this migration's commit.
  await sql`lock table scan_groups in share mode`.execute(db);
  await sql`
    alter table scan_groups
      add column country text,
      add column region text,
      add column city text,
      add column language text,
      add column is_unique boolean`.execute(db);

  // The view and its insert trigger (for instances still running the previous version during an upgrade) gain
  // the new columns; scans inserted through it have no audience (null), as the previous version knew none.
  await sql`drop view scans`.execute(db);
  await sql`
    create view scans as
    select g.id as group_id, t.position, g.qr_code_id, t.created_at, g.device, g.os, g.browser, g.destination_url,
           g.referrer_host, g.country, g.region, g.city, g.language, g.is_unique
    from scan_groups g cross join lateral unnest(coalesce(g.times, array[g.first_at])) with ordinality as t(created_at, position)`.execute(db);
  await sql`create trigger scans_insert instead of insert on scans for each row execute function insert_scan_as_group()`.execute(db);

  await sql`
    create table visitor_secrets (
      day date primary key,
      secret bytea not null check (octet_length(secret) = 32),
      created_at timestamptz not null default now()
    )`.execute(db);
  // Unlogged: the day's visitor hashes never reach the WAL, so no replica, physical backup or archived WAL holds
  // them (only this server's own files, until the day's rows are deleted), and a scan's insert here costs no WAL.
  // After a crash of PostgreSQL the table is empty: a visitor's next scan that day counts as unique again.
  await sql`
    create unlogged table scan_visitors (
      day date not null,
      qr_code_id text not null,
      visitor bytea not null,
      primary key (day, qr_code_id, visitor)
    )`.execute(db);

  await sql`alter table qr_code_scan_increments add column unique_scans bigint not null default 0`.execute(db);
  await sql`alter table qr_codes add column unique_scan_count bigint not null default 0`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`lock table scan_groups in share mode`.execute(db);
  await sql`alter table qr_codes drop column unique_scan_count`.execute(db);
  await sql`alter table qr_code_scan_increments drop column unique_scans`.execute(db);
  await sql`drop table scan_visitors`.execute(db);
  await sql`drop table visitor_secrets`.execute(db);
  await sql`drop view scans`.execute(db);
  await sql`
    create view scans as
    select g.id as group_id, t.position, g.qr_code_id, t.created_at, g.device, g.os, g.browser, g.destination_url,
           g.referrer_host
    from scan_groups g cross join lateral unnest(coalesce(g.times, array[g.first_at])) with ordinality as t(created_at, position)`.execute(db);
  await sql`create trigger scans_insert instead of insert on scans for each row execute function insert_scan_as_group()`.execute(db);
  await sql`
    alter table scan_groups
      drop column country, drop column region, drop column city, drop column language, drop column is_unique`.execute(db);
}
