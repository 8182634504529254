import { type Kysely, sql } from 'kysely';

// Frozen once landed: a schema change is a new migration file.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('plan', 'text', (c) => c.notNull().check(sql`plan in ('free', 'starter', 'pro', 'business')`))
    .addColumn('code_limit', 'integer', (c) => c.check(sql`code_limit >= 0`))
    .addColumn('code_count', 'integer', (c) => c.notNull().defaultTo(0).check(sql`code_count >= 0`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('key_hash', 'bytea', (c) => c.notNull().unique())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('last_four', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('last_used_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('api_keys_account_id').on('api_keys').column('account_id').execute();

  await db.schema
    .createTable('qr_codes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull().defaultTo('URL'))
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('destination_url', 'text', (c) => c.notNull())
    .addColumn('active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('scan_count', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('bot_scan_count', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addColumn('deleted_at', 'timestamptz')
    .execute();
  // Listing newest first is a walk down this index from the cursor; deleted codes are not in it.
  await sql`create index qr_codes_account_live on qr_codes (account_id, id desc) where deleted_at is null`.execute(db);

  await db.schema
    .createTable('scans')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('qr_code_id', 'text', (c) => c.notNull().references('qr_codes.id'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('device', 'text', (c) => c.notNull())
    .addColumn('os', 'text', (c) => c.notNull())
    .addColumn('browser', 'text', (c) => c.notNull())
    .execute();
  // "Last 1000 scans, newest first" reads 1000 index entries whatever the code's lifetime total.
  await sql`create index scans_code_newest on scans (qr_code_id, created_at desc, id desc)`.execute(db);

  await db.schema
    .createTable('write_rate_events')
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('write_rate_events_account_at').on('write_rate_events').columns(['account_id', 'at']).execute();

  // One round trip per write, exact under concurrency: the advisory lock serialises one account's writes
  // (on every instance), the window is measured with the database clock, and a refused write is not recorded.
  await sql`
    create function take_write_slot(p_account_id text, p_limit integer, p_window_ms integer)
    returns table (allowed boolean, remaining integer, reset_ms integer)
    language plpgsql as $$
    declare
      v_now timestamptz;
      v_window interval := make_interval(secs => p_window_ms / 1000.0);
      v_count integer;
      v_oldest timestamptz;
    begin
      perform pg_advisory_xact_lock(hashtextextended('write_rate:' || p_account_id, 0));
      v_now := clock_timestamp();
      delete from write_rate_events where account_id = p_account_id and at <= v_now - v_window;
      select count(*), min(at) into v_count, v_oldest from write_rate_events where account_id = p_account_id;
      if v_count >= p_limit then
        return query select false, 0, ceil(extract(epoch from (v_oldest + v_window - v_now)) * 1000)::integer;
        return;
      end if;
      insert into write_rate_events (account_id, at) values (p_account_id, v_now);
      return query select true, p_limit - v_count - 1,
        ceil(extract(epoch from (coalesce(v_oldest, v_now) + v_window - v_now)) * 1000)::integer;
    end
    $$`.execute(db);

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('response_body', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['account_id', 'key'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['idempotency_keys', 'write_rate_events', 'scans', 'qr_codes', 'api_keys', 'accounts']) {
    await db.schema.dropTable(table).execute();
  }
  await sql`drop function take_write_slot(text, integer, integer)`.execute(db);
}
