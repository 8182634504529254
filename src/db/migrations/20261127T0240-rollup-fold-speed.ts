import { type Kysely, sql } from 'kysely';

// Frozen once landed: a schema change is a new migration file.

/**
 * The fold (src/analytics/scan-rollup.ts) writes four rollup tables; two changes make each row it writes cheaper.
 *
 * - The per-account rollups lose their foreign key to accounts, as scan_hourly lost its key to codes
 *   (20261123T1700): every row the fold inserts ran the key's check, a query of its own locking the account row
 *   (scripts/bench/rollup-fold.ts measures a fold). The key protected nothing the fold can break: it writes an
 *   account's rows only for codes it finds in qr_codes, whose own key names a live account, and the account's
 *   erasure, the one place an account is deleted, deletes these rows itself (src/accounts/account-erasure.ts),
 *   holding the fold's lock.
 * - The four tables leave a fifth of each new page free (fillfactor 80). A steady fold mostly adds to rows of the
 *   current hour, every few seconds; with full pages each of those updates wrote a new copy of the row elsewhere
 *   and new entries in every index. With room on the page the copy stays there and no index is touched (a HOT
 *   update), and the page sheds the old copies itself. Only pages written from now on get the room, which is
 *   where the current hour's rows are.
 */
const ROLLUPS = ['scan_hourly', 'account_scan_hourly', 'scan_hourly_audience', 'account_scan_hourly_audience'];

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table account_scan_hourly drop constraint account_scan_hourly_account_id_fkey`.execute(db);
  await sql`alter table account_scan_hourly_audience drop constraint account_scan_hourly_audience_account_id_fkey`.execute(db);
  for (const table of ROLLUPS) await sql`alter table ${sql.table(table)} set (fillfactor = 80)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ROLLUPS) await sql`alter table ${sql.table(table)} reset (fillfactor)`.execute(db);
  await sql`
    alter table account_scan_hourly_audience add constraint account_scan_hourly_audience_account_id_fkey
      foreign key (account_id) references accounts (id) on delete cascade`.execute(db);
  await sql`
    alter table account_scan_hourly add constraint account_scan_hourly_account_id_fkey
      foreign key (account_id) references accounts (id) on delete cascade`.execute(db);
}
