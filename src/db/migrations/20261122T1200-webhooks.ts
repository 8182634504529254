import { type Kysely, sql } from 'kysely';

// Frozen once landed: a schema change is a new migration file.

/** Workers LISTEN here; inserting deliveries notifies once per statement (one scan batch, one notification). */
export const WEBHOOKS_DUE_CHANNEL = 'qroute_webhooks_due';

export async function up(db: Kysely<unknown>): Promise<void> {
  // One endpoint per account (the spec's "the account's webhook URL"). Secrets are encrypted by the service
  // (AES-256-GCM, key outside the database); the previous secret stays usable until the rotation overlap ends.
  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('account_id', 'text', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('secret_encrypted', 'text', (c) => c.notNull())
    .addColumn('previous_secret_encrypted', 'text')
    .addColumn('previous_secret_expires_at', 'timestamptz')
    .addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('disabled_at', 'timestamptz')
    .addColumn('disabled_reason', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  // The outbox. A row is written in the same statement as its scan; `body` holds the exact bytes every attempt
  // sends (and signs). A claimed row has `claimed_by` set and `next_attempt_at` pushed to the end of its lease,
  // so a worker that dies leaves it due again once the lease runs out.
  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('qr_code_id', 'text', (c) => c.references('qr_codes.id'))
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending').check(sql`status in ('pending', 'succeeded', 'failed')`))
    .addColumn('attempt_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('final_attempt', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('claimed_by', 'text')
    .addColumn('last_attempt_at', 'timestamptz')
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('completed_at', 'timestamptz')
    .execute();
  await sql`create index webhook_deliveries_due on webhook_deliveries (account_id, next_attempt_at) where status = 'pending'`.execute(db);
  await sql`create index webhook_deliveries_account_newest on webhook_deliveries (account_id, id desc)`.execute(db);

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('delivery_id', 'text', (c) => c.notNull().references('webhook_deliveries.id').onDelete('cascade'))
    .addColumn('attempt_number', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'timestamptz', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('latency_ms', 'integer', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('response_body', 'text')
    .execute();
  await db.schema.createIndex('webhook_attempts_delivery').on('webhook_attempts').columns(['delivery_id', 'id']).execute();

  await sql`
    create function notify_webhooks_due() returns trigger language plpgsql as $$
    begin
      -- A scan batch whose accounts have no webhook inserts nothing: no notification (NOTIFY serialises commits).
      if exists (select 1 from inserted) then
        perform pg_notify(${sql.lit(WEBHOOKS_DUE_CHANNEL)}, '');
      end if;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger webhook_deliveries_notify after insert on webhook_deliveries
    referencing new table as inserted
    for each statement execute function notify_webhooks_due()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger webhook_deliveries_notify on webhook_deliveries`.execute(db);
  await sql`drop function notify_webhooks_due()`.execute(db);
  await db.schema.dropTable('webhook_attempts').execute();
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.dropTable('webhook_endpoints').execute();
}
