import { type Kysely, sql } from 'kysely';

// Frozen once landed: a schema change is a new migration file.

/**
 * The hourly rollup learns who scanned (issue 27): unique scans, and where scans came from.
 *
 * - `scan_hourly` and `account_scan_hourly` keep their key (hour × device × os × browser) and gain `unique_scans`.
 *   They stay what the unfiltered charts and device tables read: measured at 10M scans on one code over a year,
 *   they hold about 150,000 rows for it, and adding country and language to their key would make that a row per
 *   few scans (a poster's hour has dozens of (country, language) pairs beside its 17 kinds of phone).
 * - `scan_hourly_audience` and `account_scan_hourly_audience` add country, region, city, language and the
 *   referrer's host to that key, with scans and unique scans: the world map, the tables of countries, cities,
 *   languages and referrers, and every filtered view (country = DE narrows the devices too) read them. Each key
 *   column may be null (unknown), so the key is a unique index with NULLS NOT DISTINCT rather than a primary key.
 *
 * Both are exact as before: the fold adds the groups above the watermark to all four tables in one transaction.
 * Existing rows are filled so nothing about old scans changes: their unique scans are counted from the scan groups
 * still stored (scans recorded before qroute counted visitors have `is_unique` null: 0 unique), and the audience
 * table gets the stored groups' countries, languages and referrers, plus, per hour and kind of phone, the scans
 * pruned since (SCAN_RETENTION_DAYS) with everything unknown, so its sums equal the narrow table's.
 *
 * `unique_scans` has no default once filled: an instance of the previous version folding during the upgrade
 * fails its fold (logged, retried) instead of adding scans to the narrow tables only; the new version folds them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // The watermark row is locked so no fold runs while the tables are filled (a fold waits, or skips its round).
  await sql`select folded_through_id from scan_rollup_state for update`.execute(db);

  for (const table of ['scan_hourly', 'account_scan_hourly']) {
    await sql`alter table ${sql.table(table)} add column unique_scans bigint not null default 0 check (unique_scans >= 0 and unique_scans <= scans)`.execute(db);
    await sql`alter table ${sql.table(table)} alter column unique_scans drop default`.execute(db);
  }

  await sql`
    create table scan_hourly_audience (
      qr_code_id text not null,
      hour timestamptz not null,
      device text not null,
      os text not null,
      browser text not null,
      country text,
      region text,
      city text,
      language text,
      referrer_host text,
      scans bigint not null check (scans > 0),
      unique_scans bigint not null check (unique_scans >= 0 and unique_scans <= scans)
    )`.execute(db);
  await sql`
    create table account_scan_hourly_audience (
      account_id text not null references accounts (id) on delete cascade,
      hour timestamptz not null,
      device text not null,
      os text not null,
      browser text not null,
      country text,
      region text,
      city text,
      language text,
      referrer_host text,
      scans bigint not null check (scans > 0),
      unique_scans bigint not null check (unique_scans >= 0 and unique_scans <= scans)
    )`.execute(db);

  // What the stored, folded groups say, per code and hour and every key column.
  await sql`
    create temporary table folded_audience on commit drop as
    select g.qr_code_id, date_trunc('hour', g.first_at, 'UTC') as hour, g.device, g.os, g.browser, g.country, g.region,
           g.city, g.language, g.referrer_host, sum(coalesce(cardinality(g.times), 1)) as scans,
           sum(case when g.is_unique then coalesce(cardinality(g.times), 1) else 0 end) as unique_scans
    from scan_groups g
    where g.id <= (select folded_through_id from scan_rollup_state)
    group by 1, 2, 3, 4, 5, 6, 7, 8, 9, 10`.execute(db);
  await sql`
    create temporary table folded_narrow on commit drop as
    select qr_code_id, hour, device, os, browser, sum(scans) as scans, sum(unique_scans) as unique_scans
    from folded_audience group by 1, 2, 3, 4, 5`.execute(db);

  await sql`
    update scan_hourly h set unique_scans = least(f.unique_scans, h.scans)
    from folded_narrow f
    where f.unique_scans > 0 and (h.qr_code_id, h.hour, h.device, h.os, h.browser) = (f.qr_code_id, f.hour, f.device, f.os, f.browser)`.execute(db);
  await sql`
    update account_scan_hourly h set unique_scans = least(f.unique_scans, h.scans)
    from (select c.account_id, f.hour, f.device, f.os, f.browser, sum(f.unique_scans) as unique_scans
          from folded_narrow f join qr_codes c on c.id = f.qr_code_id
          where f.unique_scans > 0 group by 1, 2, 3, 4, 5) f
    where (h.account_id, h.hour, h.device, h.os, h.browser) = (f.account_id, f.hour, f.device, f.os, f.browser)`.execute(db);

  // The stored groups as they are, and what the rollup counts beyond them (pruned scans) as unknown.
  await sql`
    insert into scan_hourly_audience
      (qr_code_id, hour, device, os, browser, country, region, city, language, referrer_host, scans, unique_scans)
    select qr_code_id, hour, device, os, browser, country, region, city, language, referrer_host, sum(scans), sum(unique_scans)
    from (
      select qr_code_id, hour, device, os, browser, country, region, city, language, referrer_host, scans, unique_scans
      from folded_audience
      union all
      select h.qr_code_id, h.hour, h.device, h.os, h.browser, null, null, null, null, null, h.scans - coalesce(f.scans, 0), 0
      from scan_hourly h left join folded_narrow f using (qr_code_id, hour, device, os, browser)
      where h.scans > coalesce(f.scans, 0)
    ) rows
    group by 1, 2, 3, 4, 5, 6, 7, 8, 9, 10`.execute(db);
  await sql`
    insert into account_scan_hourly_audience
      (account_id, hour, device, os, browser, country, region, city, language, referrer_host, scans, unique_scans)
    select c.account_id, a.hour, a.device, a.os, a.browser, a.country, a.region, a.city, a.language, a.referrer_host,
           sum(a.scans), sum(a.unique_scans)
    from scan_hourly_audience a join qr_codes c on c.id = a.qr_code_id
    group by 1, 2, 3, 4, 5, 6, 7, 8, 9, 10`.execute(db);

  // The keys, built after the fill; they are also how a scope's hours are read.
  await sql`
    create unique index scan_hourly_audience_key on scan_hourly_audience
      (qr_code_id, hour, device, os, browser, country, region, city, language, referrer_host) nulls not distinct`.execute(db);
  await sql`
    create unique index account_scan_hourly_audience_key on account_scan_hourly_audience
      (account_id, hour, device, os, browser, country, region, city, language, referrer_host) nulls not distinct`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`select folded_through_id from scan_rollup_state for update`.execute(db);
  await sql`drop table account_scan_hourly_audience`.execute(db);
  await sql`drop table scan_hourly_audience`.execute(db);
  await sql`alter table account_scan_hourly drop column unique_scans`.execute(db);
  await sql`alter table scan_hourly drop column unique_scans`.execute(db);
}
