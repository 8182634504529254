import { type Kysely, sql } from 'kysely';

// Frozen once landed: a schema change is a new migration file.

/**
 * Scans are stored packed: one `scan_groups` row per batch, code, kind of device, destination, referrer and UTC
 * second, holding the scans' times as an array. A scan used to be a row of its own with two index entries, which
 * was most of what PostgreSQL spent recording it: measured on one connection, a batch of 45 scans of one code took
 * 290–304 µs as rows (of which the two indexes 110–145) and 132–139 µs packed. Side by side at 100 connections:
 * 1.16 times the redirects a second on one code, the same (1.01) with the load spread over 200 codes.
 *
 * What readers rely on (src/redirect/scan-batch.ts writes it so):
 * - every time of a group lies in the second `first_at` starts (so a group is never split by an hour, a day or a
 *   retention cutoff, and the scans after a time are in groups whose `first_at` is at most a second earlier);
 * - `first_at` is the group's earliest time;
 * - ids grow in commit order as scan ids did, and the existing ones are kept: the analytics watermark
 *   (`scan_rollup_state.folded_through_id`) now counts groups, and every scan recorded before this migration is a
 *   group of one with its old id.
 *
 * `scans` becomes a view with one row per scan (for people's SQL, and for instances still running the previous
 * version during an upgrade: their inserts into it are written as groups of one, so no scan they answer is lost).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Taken first, so an instance of the previous version inserting scans waits for this migration's commit.
  await sql`lock table scans in share mode`.execute(db);
  await sql`
    create table scan_groups (
      id bigint generated always as identity primary key,
      qr_code_id text not null,
      device text not null,
      os text not null,
      browser text not null,
      -- The destination these scans were sent to (destinations change over time).
      destination_url text,
      -- Host of the Referer header, when the scanners sent one; never the full URL, never the IP.
      referrer_host text,
      first_at timestamptz not null,
      -- Every time of the group; null for a group of one scan, which is at first_at (most groups where scans
      -- are spread over many codes: an array of one would cost a few percent more there).
      times timestamptz[] check (cardinality(times) > 1)
    )`.execute(db);
  await sql`
    insert into scan_groups (id, qr_code_id, device, os, browser, destination_url, referrer_host, first_at, times)
    overriding system value
    select id, qr_code_id, device, os, browser, destination_url, referrer_host, created_at, null
    from scans order by id`.execute(db);
  await sql`
    select setval(pg_get_serial_sequence('scan_groups', 'id'), coalesce((select max(id) from scan_groups), 0) + 1, false)`.execute(db);
  // A code's newest (and, walked backwards, oldest) groups; src/analytics/scan-pages.ts explains how scans are
  // paged through it.
  await sql`create index scan_groups_code_newest on scan_groups (qr_code_id, first_at desc, id desc)`.execute(db);

  await sql`
    create or replace function refuse_deleting_scanned_code() returns trigger language plpgsql as $$
    begin
      if exists (select 1 from scan_groups where qr_code_id = old.id)
        or exists (select 1 from webhook_deliveries where qr_code_id = old.id)
        or exists (select 1 from qr_code_scan_increments where qr_code_id = old.id) then
        raise exception 'qr code % has scans or webhook deliveries: codes are marked deleted (deleted_at), never removed', old.id
          using errcode = 'foreign_key_violation';
      end if;
      return old;
    end
    $$`.execute(db);
  await sql`drop table scans`.execute(db);

  await sql`
    create view scans as
    select g.id as group_id, t.position, g.qr_code_id, t.created_at, g.device, g.os, g.browser, g.destination_url,
           g.referrer_host
    from scan_groups g cross join lateral unnest(coalesce(g.times, array[g.first_at])) with ordinality as t(created_at, position)`.execute(db);
  await sql`
    create function insert_scan_as_group() returns trigger language plpgsql as $$
    begin
      insert into scan_groups (qr_code_id, device, os, browser, destination_url, referrer_host, first_at, times)
      values (new.qr_code_id, new.device, new.os, new.browser, new.destination_url, new.referrer_host, new.created_at, null);
      return new;
    end
    $$`.execute(db);
  await sql`create trigger scans_insert instead of insert on scans for each row execute function insert_scan_as_group()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`lock table scan_groups in share mode`.execute(db);
  await sql`drop view scans`.execute(db);
  await sql`drop function insert_scan_as_group()`.execute(db);
  await sql`
    create table scans (
      id bigint generated always as identity primary key,
      qr_code_id text not null,
      created_at timestamptz not null,
      device text not null,
      os text not null,
      browser text not null,
      destination_url text,
      referrer_host text
    )`.execute(db);
  // Scans get new ids in group order; the rollup's watermark moves to the last scan of the last folded group.
  await sql`
    create temporary table unpacked on commit drop as
    select row_number() over (order by g.id, t.position) as id, g.id as group_id, g.qr_code_id, t.created_at, g.device,
           g.os, g.browser, g.destination_url, g.referrer_host
    from scan_groups g cross join lateral unnest(coalesce(g.times, array[g.first_at])) with ordinality as t(created_at, position)`.execute(db);
  await sql`
    insert into scans (id, qr_code_id, created_at, device, os, browser, destination_url, referrer_host)
    overriding system value
    select id, qr_code_id, created_at, device, os, browser, destination_url, referrer_host from unpacked order by id`.execute(db);
  await sql`
    update scan_rollup_state set folded_through_id =
      coalesce((select max(id) from unpacked where group_id <= scan_rollup_state.folded_through_id), 0)`.execute(db);
  await sql`select setval(pg_get_serial_sequence('scans', 'id'), coalesce((select max(id) from scans), 0) + 1, false)`.execute(db);
  await sql`create index scans_code_newest on scans (qr_code_id, created_at desc, id desc)`.execute(db);
  await sql`
    create or replace function refuse_deleting_scanned_code() returns trigger language plpgsql as $$
    begin
      if exists (select 1 from scans where qr_code_id = old.id)
        or exists (select 1 from webhook_deliveries where qr_code_id = old.id)
        or exists (select 1 from qr_code_scan_increments where qr_code_id = old.id) then
        raise exception 'qr code % has scans or webhook deliveries: codes are marked deleted (deleted_at), never removed', old.id
          using errcode = 'foreign_key_violation';
      end if;
      return old;
    end
    $$`.execute(db);
  await sql`drop table scan_groups`.execute(db);
}
