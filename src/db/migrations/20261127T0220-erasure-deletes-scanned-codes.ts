import { type Kysely, sql } from 'kysely';

// Frozen once landed: a schema change is a new migration file.

/**
 * refuse_deleting_scanned_code lets an account's erasure delete its codes (src/accounts/account-erasure.ts sets
 * `qroute.erasing` for its own transaction only). Scan batches take no lock on codes, so one can commit a code's
 * scan group, counter increment or webhook delivery between the erasure's delete of those and its delete of the
 * codes; the trigger's next query sees it and refused, rolling the whole erasure back (the dashboard answered 500,
 * and a busy account could never be erased). What arrives that late is swept by the pruning job (erased_codes).
 * Everywhere else, a code with scans still cannot be deleted.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function refuse_deleting_scanned_code() returns trigger language plpgsql as $$
    begin
      if coalesce(current_setting('qroute.erasing', true), '') <> 'on' and (
        exists (select 1 from scan_groups where qr_code_id = old.id)
        or exists (select 1 from webhook_deliveries where qr_code_id = old.id)
        or exists (select 1 from qr_code_scan_increments where qr_code_id = old.id)) then
        raise exception 'qr code % has scans or webhook deliveries: codes are marked deleted (deleted_at), never removed', old.id
          using errcode = 'foreign_key_violation';
      end if;
      return old;
    end
    $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
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
}
