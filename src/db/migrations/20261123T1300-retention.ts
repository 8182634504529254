import { type Kysely, sql } from 'kysely';

// Frozen once landed: a schema change is a new migration file.

export async function up(db: Kysely<unknown>): Promise<void> {
  // What the pruning job (src/maintenance/) looks rows up by, so each of its bounded batches reads only the
  // rows it deletes instead of the whole table. Scans need none: they are pruned oldest id first.
  await sql`create index webhook_deliveries_completed_at on webhook_deliveries (completed_at) where status <> 'pending'`.execute(db);
  await sql`create index idempotency_keys_created_at on idempotency_keys (created_at)`.execute(db);
  await sql`create index write_rate_events_at on write_rate_events (at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index write_rate_events_at`.execute(db);
  await sql`drop index idempotency_keys_created_at`.execute(db);
  await sql`drop index webhook_deliveries_completed_at`.execute(db);
}
