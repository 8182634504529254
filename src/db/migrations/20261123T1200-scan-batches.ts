import { type Kysely, sql } from 'kysely';

// Frozen once landed: a schema change is a new migration file.

export async function up(db: Kysely<unknown>): Promise<void> {
  // One row per committed scan batch (not per scan), written in the batch's own statement. A batch written again
  // after an ambiguous failure finds its id here and writes nothing, so retries never double-count a scan or
  // give its webhook a second id. Rows only need to outlive the longest retry; the pruning job removes old ones.
  await db.schema
    .createTable('scan_batches')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('committed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index scan_batches_committed_at on scan_batches (committed_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('scan_batches').execute();
}
