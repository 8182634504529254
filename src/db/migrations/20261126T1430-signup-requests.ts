import { type Kysely, sql } from 'kysely';

// Frozen once landed: a schema change is a new migration file.

/**
 * Sign-ups waiting for their email to be confirmed (SIGNUP=open with SMTP_URL): /signup answers every well-formed
 * form alike and mails either a confirmation link (a new email) or a notice (an email that already has a user), so
 * the form no longer tells strangers who uses qroute. A row is one request; the account is made when its link is
 * used. Only the token's SHA-256 is stored. No password: whoever fills the form names any address, so the password
 * is chosen on the confirmation page by whoever holds the mailed link; the account name is only the one proposed
 * there. A notice's row has no account name (nothing can be confirmed with it); it is there so one address gets
 * one mail per interval, whichever kind. (Edited in place the day it was written, before any release: a first
 * version kept the form's password hash.)
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('signup_requests')
    .addColumn('token_hash', 'bytea', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().check(sql`email = lower(btrim(email))`))
    .addColumn('account_name', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('signup_requests_email_created_at').on('signup_requests').columns(['email', 'created_at']).execute();
  // The pruning job deletes the expired ones (pruneExpired).
  await db.schema.createIndex('signup_requests_expires_at').on('signup_requests').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('signup_requests').execute();
}
