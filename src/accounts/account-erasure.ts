import { type RawBuilder, sql } from 'kysely';
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
 *   a code that still has any, which is what keeps a code from being deleted by hand anywhere else. The erasure
 *   alone may (`qroute.erasing`): a scan batch can commit a code's scans between the two deletes.
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
    // Lets refuse_deleting_scanned_code delete codes that a scan batch wrote to after the scans went (the
    // migration 20261127T0220-erasure-deletes-scanned-codes); this transaction only.
    await sql`set local qroute.erasing = 'on'`.execute(trx);
    // The rollup fold's lock, first: a fold running beside the erasure read this account's codes and scans in its
    // own snapshot and would upsert their rollup rows after the erasure deleted them, leaving rows of an erased
    // account (and erasure and fold would each wait for rows the other holds). Taken first, the two run one after
    // the other (a fold meanwhile skips its round: it takes this lock with SKIP LOCKED).
    await sql`select 1 from scan_rollup_state for update`.execute(trx);
    // Locked first, so a code created meanwhile (which locks the account row to count it) waits and then fails.
    const account = await trx.selectFrom('accounts').select('id').where('id', '=', accountId).forUpdate().executeTakeFirst();
    if (!account) throw new AccountNotFoundError(accountId);
    const codes = trx.selectFrom('qr_codes').select('id').where('account_id', '=', accountId);
    const users = trx.selectFrom('users').select('id').where('account_id', '=', accountId);
    const ofCodes = sql<boolean>`qr_code_id in (select id from qr_codes where account_id = ${accountId})`;
    const ofAccount = sql<boolean>`account_id = ${accountId}`;

    const retiredSlugs = await inserted(
      trx
        .insertInto('retired_slugs')
        .columns(['slug'])
        .expression(trx.selectFrom('qr_codes').select('slug').where('account_id', '=', accountId))
        .onConflict((oc) => oc.column('slug').doNothing()),
    );
    // For the pruning job's sweep of scans still on their way (sweepErasedCodes below).
    await trx.insertInto('erased_codes').columns(['qr_code_id']).expression(codes).onConflict((oc) => oc.column('qr_code_id').doNothing()).execute();
    // The tables that grow with scans are deleted in chunks (see chunksErased).
    const scans = await chunksErased(trx, 'scan_groups', ofCodes, sql`coalesce(cardinality(times), 1)`);
    const scanVisitors = await chunksErased(trx, 'scan_visitors', ofCodes);
    const scanCountIncrements = await chunksErased(trx, 'qr_code_scan_increments', ofCodes);
    const codeHourlyRollups = (await chunksErased(trx, 'scan_hourly', ofCodes)) + (await chunksErased(trx, 'scan_hourly_audience', ofCodes));
    const accountHourlyRollups =
      (await chunksErased(trx, 'account_scan_hourly', ofAccount)) + (await chunksErased(trx, 'account_scan_hourly_audience', ofAccount));
    const webhookAttempts = await chunksErased(trx, 'webhook_attempts', sql<boolean>`delivery_id in (select id from webhook_deliveries where account_id = ${accountId})`);
    const webhookDeliveries = await chunksErased(trx, 'webhook_deliveries', ofAccount);
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

/** Rows deleted per statement by chunksErased. */
const ERASURE_CHUNK_ROWS = 50_000;

/**
 * Deletes the rows of `table` that `where` picks, ERASURE_CHUNK_ROWS at a time, and returns how many went (or the
 * sum of `counted` over them). One statement for a large account's scans or rollups ran past the 30 s statement
 * timeout (DATABASE_STATEMENT_TIMEOUT_MS, and the client's read timeout after it), rolling the erasure back every
 * time: a busy account could never be erased. Chunks keep each statement short in the same transaction. (Lifting
 * statement_timeout for the transaction would not do: the client's read guard, src/db/pg-client.ts, drops a
 * connection whose statement has not answered in 35 s.) A chunk's index scan passes the rows earlier chunks
 * deleted (not dead to others until the commit), which is why chunks are large: 10 million rows are 200 chunks.
 */
async function chunksErased(trx: Transaction, table: string, where: RawBuilder<boolean>, counted: RawBuilder<unknown> = sql`1`): Promise<number> {
  let total = 0;
  for (;;) {
    const { rows } = await sql<{ rows: number; counted: string }>`
      with erased as (
        delete from ${sql.table(table)}
        -- A ctid names a row within one partition only (scan_groups is partitioned by month): the condition again,
        -- so a row of another partition at the same ctid goes only if it is to go anyway.
        where ${where} and ctid = any(array(select ctid from ${sql.table(table)} where ${where} limit ${ERASURE_CHUNK_ROWS}))
        returning ${counted} as counted
      )
      select count(*)::int as rows, coalesce(sum(counted), 0)::text as counted from erased`.execute(trx);
    if (rows[0]!.rows === 0) return total;
    total += Number(rows[0]!.counted);
  }
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
