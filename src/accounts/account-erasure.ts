import { sql } from 'kysely';
import { CODE_CHANGES_CHANNEL } from '../db/channels.js';
import type { Db, Transaction } from '../db/schema/index.js';
import { inTransaction } from '../db/transaction.js';
import { AccountNotFoundError } from './account-service.js';
import { accountChangePayload } from './branding.js';

/**
 * What an erasure deleted, by kind (rows, except `scans`, which counts scans, and `fileBytes`). The hourly rollups
 * count the rows of both rollups (by kind of phone, and by audience).
 */
export interface ErasureCounts {
  account: number;
  codes: number;
  retiredSlugs: number;
  scans: number;
  scanVisitors: number;
  scanCountIncrements: number;
  codeHourlyRollups: number;
  accountHourlyRollups: number;
  destinationChanges: number;
  files: number;
  fileBytes: number;
  webhookEndpoints: number;
  webhookDeliveries: number;
  webhookAttempts: number;
  apiKeys: number;
  people: number;
  sessions: number;
  passwordResets: number;
  loginFailures: number;
  signupRequests: number;
  invitations: number;
  imports: number;
  importRows: number;
  designTemplates: number;
  idempotencyKeys: number;
  writeRateEvents: number;
}

/**
 * Erases an account and everything it holds, in one transaction: either all of it goes or none of it does
 * (docs/dashboard/account.md, "Your data: export and erasure").
 *
 * - Its codes' slugs go to `retired_slugs` first, so no other account is ever given one (a printed copy of an
 *   erased code must never lead somewhere new); the short URLs answer 404 from the commit on.
 * - Scans, counters and deliveries go before the codes: a trigger (refuse_deleting_scanned_code) refuses deleting
 *   a code that still has any, which is what keeps a code from being deleted by hand anywhere else.
 * - People belong to one account each (users.account_id), so every person of the account goes, with their
 *   sessions: a signed-in page answers with the sign-in page at its next request, and keys answer 401 (keys are
 *   read from the database on every request; nothing caches them).
 * - Stored files' bytes live in the database (file_chunks), so they go in the same transaction.
 * - Every instance's short-link cache drops the account's codes at the commit (the same notification a branding
 *   change sends), so a cached slug stops answering at once, not after the cache's TTL.
 * - Scans answered a moment before the commit may still be written after it (a scan batch in flight, a scan
 *   journal replayed after an outage): the codes' ids are kept in `erased_codes`, and the pruning job sweeps what
 *   arrives for them (sweepErasedCodes).
 */
export async function eraseAccount(db: Db, accountId: string): Promise<ErasureCounts> {
  return inTransaction(db, async (trx) => {
    // Locked first, so a code created meanwhile (which locks the account row to count it) waits and then fails.
    const account = await trx.selectFrom('accounts').select('id').where('id', '=', accountId).forUpdate().executeTakeFirst();
    if (!account) throw new AccountNotFoundError(accountId);
    const codes = trx.selectFrom('qr_codes').select('id').where('account_id', '=', accountId);
    const users = trx.selectFrom('users').select('id').where('account_id', '=', accountId);
    const deliveries = trx.selectFrom('webhook_deliveries').select('id').where('account_id', '=', accountId);

    const retiredSlugs = await inserted(
      trx
        .insertInto('retired_slugs')
        .columns(['slug'])
        .expression(trx.selectFrom('qr_codes').select('slug').where('account_id', '=', accountId))
        .onConflict((oc) => oc.column('slug').doNothing()),
    );
    // For the pruning job's sweep of scans still on their way (sweepErasedCodes below).
    await trx.insertInto('erased_codes').columns(['qr_code_id']).expression(codes).onConflict((oc) => oc.column('qr_code_id').doNothing()).execute();
    const scans = await scansErased(trx, accountId);
    const scanVisitors = await count(trx.deleteFrom('scan_visitors').where('qr_code_id', 'in', codes));
    const scanCountIncrements = await count(trx.deleteFrom('qr_code_scan_increments').where('qr_code_id', 'in', codes));
    const codeHourlyRollups =
      (await count(trx.deleteFrom('scan_hourly').where('qr_code_id', 'in', codes))) +
      (await count(trx.deleteFrom('scan_hourly_audience').where('qr_code_id', 'in', codes)));
    const accountHourlyRollups =
      (await count(trx.deleteFrom('account_scan_hourly').where('account_id', '=', accountId))) +
      (await count(trx.deleteFrom('account_scan_hourly_audience').where('account_id', '=', accountId)));
    const webhookAttempts = await count(trx.deleteFrom('webhook_attempts').where('delivery_id', 'in', deliveries));
    const webhookDeliveries = await count(trx.deleteFrom('webhook_deliveries').where('account_id', '=', accountId));
    const webhookEndpoints = await count(trx.deleteFrom('webhook_endpoints').where('account_id', '=', accountId));
    const destinationChanges = await count(trx.deleteFrom('qr_code_destination_changes').where('qr_code_id', 'in', codes));
    const importRows = await count(
      trx.deleteFrom('import_rows').where('import_id', 'in', trx.selectFrom('imports').select('id').where('account_id', '=', accountId)),
    );
    const imports = await count(trx.deleteFrom('imports').where('account_id', '=', accountId));
    const erasedCodes = await count(trx.deleteFrom('qr_codes').where('account_id', '=', accountId));
    const designTemplates = await count(trx.deleteFrom('design_templates').where('account_id', '=', accountId));
    await trx.updateTable('accounts').set({ brand_logo_file_id: null }).where('id', '=', accountId).execute();
    const { files, fileBytes } = await filesErased(trx, accountId);
    const apiKeys = await count(trx.deleteFrom('api_keys').where('account_id', '=', accountId));
    const idempotencyKeys = await count(trx.deleteFrom('idempotency_keys').where('account_id', '=', accountId));
    const writeRateEvents = await count(trx.deleteFrom('write_rate_events').where('account_id', '=', accountId));
    const invitations = await count(trx.deleteFrom('invitations').where('account_id', '=', accountId));
    // Rows kept by a person's email rather than their id: failed sign-ins (src/people/login-limit.ts's key) and
    // sign-up notices mailed because the email had a user.
    const emails = (await trx.selectFrom('users').select('email').where('account_id', '=', accountId).execute()).map((user) => user.email);
    const loginFailures = emails.length === 0 ? 0 : await count(trx.deleteFrom('login_failures').where('key', 'in', emails.map((email) => `email:${email}`)));
    const signupRequests = emails.length === 0 ? 0 : await count(trx.deleteFrom('signup_requests').where('email', 'in', emails));
    const sessions = await count(trx.deleteFrom('sessions').where('user_id', 'in', users));
    const passwordResets = await count(trx.deleteFrom('password_resets').where('user_id', 'in', users));
    const people = await count(trx.deleteFrom('users').where('account_id', '=', accountId));
    const erasedAccount = await count(trx.deleteFrom('accounts').where('id', '=', accountId));
    await sql`select pg_notify(${CODE_CHANGES_CHANNEL}, ${accountChangePayload(accountId)})`.execute(trx);
    return {
      account: erasedAccount,
      codes: erasedCodes,
      retiredSlugs,
      scans,
      scanVisitors,
      scanCountIncrements,
      codeHourlyRollups,
      accountHourlyRollups,
      destinationChanges,
      files,
      fileBytes,
      webhookEndpoints,
      webhookDeliveries,
      webhookAttempts,
      apiKeys,
      people,
      sessions,
      passwordResets,
      loginFailures,
      signupRequests,
      invitations,
      imports,
      importRows,
      designTemplates,
      idempotencyKeys,
      writeRateEvents,
    };
  });
}

/** Rows a DELETE removed. */
async function count(query: { executeTakeFirst(): Promise<{ numDeletedRows: bigint }> }): Promise<number> {
  return Number((await query.executeTakeFirst()).numDeletedRows);
}

/** Rows an INSERT added. */
async function inserted(query: { executeTakeFirst(): Promise<{ numInsertedOrUpdatedRows?: bigint | undefined }> }): Promise<number> {
  return Number((await query.executeTakeFirst()).numInsertedOrUpdatedRows ?? 0n);
}

/** Deletes the scan groups of the account's codes and counts the scans they held, in one statement. */
async function scansErased(trx: Transaction, accountId: string): Promise<number> {
  const { rows } = await sql<{ scans: string }>`
    with erased as (
      delete from scan_groups where qr_code_id in (select id from qr_codes where account_id = ${accountId})
      returning coalesce(cardinality(times), 1) as scans
    )
    select coalesce(sum(scans), 0)::text as scans from erased`.execute(trx);
  return Number(rows[0]!.scans);
}

/** Every file of the account (deleted ones kept their rows) and their stored bytes. */
async function filesErased(trx: Transaction, accountId: string): Promise<{ files: number; fileBytes: number }> {
  const { rows } = await sql<{ bytes: string }>`
    with erased as (
      delete from file_chunks where file_id in (select id from files where account_id = ${accountId})
      returning octet_length(data) as bytes
    )
    select coalesce(sum(bytes), 0)::text as bytes from erased`.execute(trx);
  const files = await count(trx.deleteFrom('files').where('account_id', '=', accountId));
  return { files, fileBytes: Number(rows[0]!.bytes) };
}

/**
 * Deletes what was written for codes of erased accounts after their erasure (see eraseAccount): scans, their
 * counters' increments, today's visitors, and the rollup rows the analytics job may have folded from those scans.
 * Code ids are forgotten `keepDays` after the erasure, once no journal can replay a scan of them. Returns the
 * scans swept. Run by the pruning job; cheap when nothing arrived (an index probe per erased code and table).
 */
export async function sweepErasedCodes(db: Db, keepDays: number): Promise<number> {
  return inTransaction(db, async (trx) => {
    const erased = trx.selectFrom('erased_codes').select('qr_code_id');
    const { rows } = await sql<{ scans: string }>`
      with swept as (
        delete from scan_groups where qr_code_id in (select qr_code_id from erased_codes)
        returning coalesce(cardinality(times), 1) as scans
      )
      select coalesce(sum(scans), 0)::text as scans from swept`.execute(trx);
    await trx.deleteFrom('qr_code_scan_increments').where('qr_code_id', 'in', erased).execute();
    await trx.deleteFrom('scan_visitors').where('qr_code_id', 'in', erased).execute();
    await trx.deleteFrom('scan_hourly').where('qr_code_id', 'in', erased).execute();
    await trx.deleteFrom('scan_hourly_audience').where('qr_code_id', 'in', erased).execute();
    await trx.deleteFrom('erased_codes').where('erased_at', '<', sql<Date>`now() - make_interval(days => ${keepDays})`).execute();
    return Number(rows[0]!.scans);
  });
}
