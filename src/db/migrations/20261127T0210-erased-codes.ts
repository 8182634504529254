import { type Kysely, sql } from 'kysely';

// Frozen once landed: a schema change is a new migration file.

/**
 * Ids of codes whose account was erased (src/accounts/account-erasure.ts), kept for a while after the erasure so
 * the pruning job can sweep away what still arrives for them: a scan answered from an instance's cache a moment
 * before the erasure committed, written by its batch a moment after, or replayed from a scan journal after a
 * database outage (which may be days later, see scan_batches' lifetime). Scan writes carry no check that their
 * code still exists (it would cost a lookup per scan), so the sweep is what keeps "nothing of the account is left"
 * true. The id is the code's random id only, nothing that names the account.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table erased_codes (
      qr_code_id text primary key,
      erased_at timestamptz not null default now()
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table erased_codes`.execute(db);
}
