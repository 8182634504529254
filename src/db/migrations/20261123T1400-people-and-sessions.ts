import { type Kysely, sql } from 'kysely';

// Frozen once landed: a schema change is a new migration file.

/**
 * The dashboard's people: users of an account (owner or member), their sign-in sessions, invitations and
 * password-reset links, the login rate limit, who made each API key, and each code's destination history.
 * Every secret (session token, invitation and reset token) is stored as its SHA-256 only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    // Stored lower-cased and trimmed; one person signs in with one email, so it is unique across accounts.
    .addColumn('email', 'text', (c) => c.notNull().unique().check(sql`email = lower(btrim(email))`))
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('owner', 'member')`))
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('password_changed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('users_account_id').on('users').column('account_id').execute();

  await db.schema
    .createTable('sessions')
    .addColumn('token_hash', 'bytea', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // Absolute expiry, fixed at sign-in; the idle expiry is last_seen_at + the configured idle time.
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('user_agent', 'text')
    .execute();
  await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute();
  await db.schema.createIndex('sessions_expires_at').on('sessions').column('expires_at').execute();

  await db.schema
    .createTable('invitations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull().check(sql`email = lower(btrim(email))`))
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('owner', 'member')`))
    .addColumn('token_hash', 'bytea', (c) => c.notNull().unique())
    // Null when the operator invited from the CLI.
    .addColumn('invited_by_user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('accepted_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('invitations_account_id').on('invitations').column('account_id').execute();

  await db.schema
    .createTable('password_resets')
    .addColumn('token_hash', 'bytea', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('password_resets_user_id').on('password_resets').column('user_id').execute();

  // One row per failed sign-in, keyed by what it counts against ("ip:<address>" or "email:<email>"); the
  // limit is a count over a window, read and written in the database so it holds across instances.
  await db.schema
    .createTable('login_failures')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index login_failures_key_at on login_failures (key, at)`.execute(db);
  await sql`create index login_failures_at on login_failures (at)`.execute(db);

  await db.schema
    .alterTable('api_keys')
    .addColumn('name', 'text')
    .addColumn('created_by_user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .execute();

  // Every change of a code's destination: when, and by whom (a person in the dashboard) or by which API key.
  await db.schema
    .createTable('qr_code_destination_changes')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('qr_code_id', 'text', (c) => c.notNull().references('qr_codes.id').onDelete('cascade'))
    .addColumn('changed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('previous_url', 'text')
    .addColumn('new_url', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('api_key_id', 'text', (c) => c.references('api_keys.id').onDelete('set null'))
    .execute();
  await sql`create index qr_code_destination_changes_code on qr_code_destination_changes (qr_code_id, id desc)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('qr_code_destination_changes').execute();
  await db.schema.alterTable('api_keys').dropColumn('created_by_user_id').dropColumn('name').execute();
  await db.schema.dropTable('login_failures').execute();
  await db.schema.dropTable('password_resets').execute();
  await db.schema.dropTable('invitations').execute();
  await db.schema.dropTable('sessions').execute();
  await db.schema.dropTable('users').execute();
}
