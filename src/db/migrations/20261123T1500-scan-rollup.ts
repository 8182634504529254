import { type Kysely, sql } from 'kysely';

// Frozen once landed: a schema change is a new migration file.

/**
 * The analytics rollup (src/analytics/): scans counted per code and per account, per UTC hour and per
 * (device, os, browser), filled by a folding job from `scans` rows with an id above the watermark kept in
 * `scan_rollup_state`. Queries add the raw scans above the watermark, so results are exact and current while the
 * scan-recording path writes nothing new. The rollup is the history: pruning raw scans (SCAN_RETENTION_DAYS)
 * leaves it as it is.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('scan_hourly')
    .addColumn('qr_code_id', 'text', (c) => c.notNull().references('qr_codes.id').onDelete('cascade'))
    // The start of the scan's UTC hour.
    .addColumn('hour', 'timestamptz', (c) => c.notNull())
    .addColumn('device', 'text', (c) => c.notNull())
    .addColumn('os', 'text', (c) => c.notNull())
    .addColumn('browser', 'text', (c) => c.notNull())
    .addColumn('scans', 'bigint', (c) => c.notNull().check(sql`scans > 0`))
    .addPrimaryKeyConstraint('scan_hourly_pk', ['qr_code_id', 'hour', 'device', 'os', 'browser'])
    .execute();

  // The same per account, so an account's charts read one row per hour and combination whatever its number of
  // codes (deleted codes included: their scans stay part of the account's history).
  await db.schema
    .createTable('account_scan_hourly')
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('hour', 'timestamptz', (c) => c.notNull())
    .addColumn('device', 'text', (c) => c.notNull())
    .addColumn('os', 'text', (c) => c.notNull())
    .addColumn('browser', 'text', (c) => c.notNull())
    .addColumn('scans', 'bigint', (c) => c.notNull().check(sql`scans > 0`))
    .addPrimaryKeyConstraint('account_scan_hourly_pk', ['account_id', 'hour', 'device', 'os', 'browser'])
    .execute();

  // One row: every scan with an id at or below `folded_through_id` is in the rollup, none above it. Folders lock
  // this row, so two instances never fold the same scans.
  await db.schema
    .createTable('scan_rollup_state')
    .addColumn('singleton', 'boolean', (c) => c.primaryKey().defaultTo(true).check(sql`singleton`))
    .addColumn('folded_through_id', 'bigint', (c) => c.notNull())
    .addColumn('folded_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  // Account totals sum the counters of every code, deleted ones included, and the account's CSV export walks its
  // codes by id: the existing index covers live codes only. Neither column is ever updated, so scan counter
  // updates stay HOT.
  await sql`create index qr_codes_account_all on qr_codes (account_id, id)`.execute(db);

  // Scans recorded before this migration are folded here, so none of them can be pruned before the job has
  // counted them. SHARE mode waits for scan inserts in flight and holds new ones (on other instances still
  // running the previous version) until the migrations commit: every id up to max(id) is then final.
  await sql`lock table scans in share mode`.execute(db);
  await sql`
    create temporary table scans_to_fold on commit drop as
    select s.qr_code_id, c.account_id, date_trunc('hour', s.created_at, 'UTC') as hour, s.device, s.os, s.browser,
           count(*) as scans
    from scans s join qr_codes c on c.id = s.qr_code_id
    group by 1, 2, 3, 4, 5, 6`.execute(db);
  await sql`
    insert into scan_hourly (qr_code_id, hour, device, os, browser, scans)
    select qr_code_id, hour, device, os, browser, scans from scans_to_fold`.execute(db);
  await sql`
    insert into account_scan_hourly (account_id, hour, device, os, browser, scans)
    select account_id, hour, device, os, browser, sum(scans) from scans_to_fold group by 1, 2, 3, 4, 5`.execute(db);
  await sql`insert into scan_rollup_state (folded_through_id) select coalesce(max(id), 0) from scans`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index qr_codes_account_all`.execute(db);
  await db.schema.dropTable('scan_rollup_state').execute();
  await db.schema.dropTable('account_scan_hourly').execute();
  await db.schema.dropTable('scan_hourly').execute();
}
