import { type Kysely, sql } from 'kysely';

// Frozen once landed: a schema change is a new migration file.

/**
 * Scans are partitioned by month (issue 29, docs/operating/postgresql.md#scans-are-partitioned-by-month).
 *
 * `scan_groups` becomes a table partitioned by range on `first_at`: one partition per UTC month, named so they sort
 * (`scan_groups_2026_11`), plus `scan_groups_default` for a scan whose month has no partition (a journal replayed
 * from long ago, a clock set wrong), so no scan is ever refused. A group's times lie in the second `first_at`
 * starts, so in one month. The pruning job (src/maintenance/scan-partitions.ts) creates the coming months ahead and
 * drops a month whole once all of it is past SCAN_RETENTION_DAYS and folded into the rollup: no bulk DELETE.
 *
 * Every group is copied into its month with its id, and the id sequence continues after the highest. A unique key of
 * a partitioned table must hold the partition key, so the primary key is (id, first_at): its leading id is what
 * the rollup's `max(id)` and every `id > watermark` read walk (one probe per partition). scan_groups_code_newest
 * stays as it was, per partition. The `scans` view and its insert trigger are created again over the new table;
 * the functions that name scan_groups (refuse_deleting_scanned_code, insert_scan_as_group) look it up by name
 * when they run, so they need nothing.
 *
 * Scan writes wait for the copy (docs/operating/upgrading.md says how long per million scans; redirects keep
 * answering meanwhile); readers keep reading the old table until the commit.
 */

/** Months before this many before the current one get no partition of their own: their scans go to the default. */
const OLDEST_MONTHS_BACK = 120;
/** Months after the current one created now (the pruning job keeps as many ahead). */
const MONTHS_AHEAD = 3;

/** scan_groups' columns after its id, as 20261127T0300-code-routing left them; the same both ways. */
const COLUMN_DEFINITIONS = sql.raw(`qr_code_id text not null,
      device text not null,
      os text not null,
      browser text not null,
      destination_url text,
      referrer_host text,
      first_at timestamptz not null,
      times timestamptz[] constraint scan_groups_times_check check (cardinality(times) > 1),
      country text,
      region text,
      city text,
      language text,
      is_unique boolean,
      rule_id text,
      variant smallint`);
const COLUMN_NAMES = sql.raw(
  'qr_code_id, device, os, browser, destination_url, referrer_host, first_at, times, country, region, city, language, is_unique, rule_id, variant',
);

export async function up(db: Kysely<unknown>): Promise<void> {
  // Taken first, so an instance of the previous version inserting scans waits for this migration's commit.
  await sql`lock table scan_groups in share mode`.execute(db);
  // A sequence of its own rather than an identity column: PostgreSQL before 17 has no identity on partitioned tables.
  await sql`create sequence scan_groups_partitioned_id_seq as bigint`.execute(db);
  await sql`
    create table scan_groups_partitioned (
      id bigint not null default nextval('scan_groups_partitioned_id_seq'),
      ${COLUMN_DEFINITIONS}
    ) partition by range (first_at)`.execute(db);
  await sql`alter sequence scan_groups_partitioned_id_seq owned by scan_groups_partitioned.id`.execute(db);

  const { rows } = await sql<{ month: string }>`
    select to_char(month, 'YYYY-MM') as month
    from generate_series(
      greatest(
        coalesce(date_trunc('month', (select min(first_at) from scan_groups) at time zone 'UTC'), date_trunc('month', now() at time zone 'UTC')),
        date_trunc('month', now() at time zone 'UTC') - make_interval(months => ${OLDEST_MONTHS_BACK})),
      date_trunc('month', now() at time zone 'UTC') + make_interval(months => ${MONTHS_AHEAD}),
      interval '1 month') as month`.execute(db);
  // UTC wall-clock months (timestamps without a zone): month steps that no session time zone can shift.
  for (const { month } of rows) {
    const [year, monthOfYear] = month.split('-');
    await sql`
      create table ${sql.table(`scan_groups_${year}_${monthOfYear}`)} partition of scan_groups_partitioned
      for values from (${sql.lit(`${month}-01 00:00:00+00`)}) to (${sql.lit(`${nextMonth(month)}-01 00:00:00+00`)})`.execute(db);
  }
  await sql`create table scan_groups_default partition of scan_groups_partitioned default`.execute(db);

  await sql`insert into scan_groups_partitioned (id, ${COLUMN_NAMES}) select id, ${COLUMN_NAMES} from scan_groups`.execute(db);
  // Built after the copy (faster than row by row), partition by partition; renamed once the old ones are gone.
  await sql`alter table scan_groups_partitioned add constraint scan_groups_partitioned_pkey primary key (id, first_at)`.execute(db);
  await sql`create index scan_groups_partitioned_code_newest on scan_groups_partitioned (qr_code_id, first_at desc, id desc)`.execute(db);
  await continueIdsAfterCopy(db);

  await sql`drop view scans`.execute(db);
  await sql`drop table scan_groups`.execute(db);
  await renameTo(db, 'scan_groups_partitioned', 'scan_groups');
  await createScansView(db);
  // The planner's statistics of the parent (autovacuum analyzes partitions, never a partitioned parent).
  await sql`analyze scan_groups`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`lock table scan_groups in share mode`.execute(db);
  await sql`
    create table scan_groups_partitioned (
      id bigint generated always as identity primary key,
      ${COLUMN_DEFINITIONS}
    )`.execute(db);
  await sql`
    insert into scan_groups_partitioned (id, ${COLUMN_NAMES}) overriding system value
    select id, ${COLUMN_NAMES} from scan_groups order by id`.execute(db);
  await sql`create index scan_groups_partitioned_code_newest on scan_groups_partitioned (qr_code_id, first_at desc, id desc)`.execute(db);
  await continueIdsAfterCopy(db);
  await sql`drop view scans`.execute(db);
  // Drops every partition with it.
  await sql`drop table scan_groups`.execute(db);
  await renameTo(db, 'scan_groups_partitioned', 'scan_groups');
  await createScansView(db);
}

/** The new table's id sequence goes on after the copied ids and after every id the old sequence handed out. */
async function continueIdsAfterCopy(db: Kysely<unknown>): Promise<void> {
  await sql`
    select setval(pg_get_serial_sequence('scan_groups_partitioned', 'id'),
                  greatest((select max(id) from scan_groups_partitioned), (select case when is_called then last_value else last_value - 1 end from scan_groups_id_seq), 0) + 1, false)`.execute(db);
}

/** The new table, its id sequence, primary key and index take the names the old ones had. */
async function renameTo(db: Kysely<unknown>, from: string, to: string): Promise<void> {
  await sql`alter table ${sql.table(from)} rename to ${sql.table(to)}`.execute(db);
  await sql`alter sequence ${sql.table(`${from}_id_seq`)} rename to ${sql.table(`${to}_id_seq`)}`.execute(db);
  await sql`alter table ${sql.table(to)} rename constraint ${sql.ref(`${from}_pkey`)} to ${sql.ref(`${to}_pkey`)}`.execute(db);
  await sql`alter index ${sql.table(`${from}_code_newest`)} rename to ${sql.table(`${to}_code_newest`)}`.execute(db);
}

/** As 20261127T0300-code-routing left them: the view, and its trigger for instances of earlier versions. */
async function createScansView(db: Kysely<unknown>): Promise<void> {
  await sql`
    create view scans as
    select g.id as group_id, t.position, g.qr_code_id, t.created_at, g.device, g.os, g.browser, g.destination_url,
           g.referrer_host, g.country, g.region, g.city, g.language, g.is_unique, g.rule_id, g.variant
    from scan_groups g cross join lateral unnest(coalesce(g.times, array[g.first_at])) with ordinality as t(created_at, position)`.execute(db);
  await sql`create trigger scans_insert instead of insert on scans for each row execute function insert_scan_as_group()`.execute(db);
}

/** '2026-12' → '2027-01'. */
function nextMonth(month: string): string {
  const [year, monthOfYear] = month.split('-').map(Number) as [number, number];
  return monthOfYear === 12 ? `${year + 1}-01` : `${year}-${String(monthOfYear + 1).padStart(2, '0')}`;
}
