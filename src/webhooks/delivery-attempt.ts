import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { isDatabaseUnavailable } from '../db/unavailable.js';
import type { Db } from '../db/schema/index.js';
import { type ClaimedDelivery, runPrepared } from './outbox.js';
import { nextRetryDelay, type RetryPolicy } from './retry-schedule.js';
import type { SecretBox } from './secret-box.js';
import type { SendResult, WebhookSender } from './sender.js';
import { webhookHeaders } from './signatures.js';
import { storableOrNull, storableText } from './storable-text.js';

/** Failed deliveries in a row (no success between) after which an endpoint is disabled. */
export const DISABLE_AFTER_FAILED_DELIVERIES = 20;
const GONE_REASON = 'the receiver answered 410 Gone';
const STREAK_REASON = `${DISABLE_AFTER_FAILED_DELIVERIES} deliveries in a row failed`;

export interface DeliveryDependencies {
  db: Db;
  /** Opens the endpoint's sealed secrets (a SecretBox, or the worker's OpenedSecrets in front of one). */
  box: Pick<SecretBox, 'decrypt'>;
  sender: WebhookSender;
  retryPolicy: RetryPolicy;
  now?: () => Date;
}

export interface AttemptOutcome {
  deliveryId: string;
  attemptNumber: number;
  /** Where the delivery stands after this attempt. */
  status: 'succeeded' | 'pending' | 'failed';
  statusCode: number | undefined;
  latencyMs: number;
  error: string | undefined;
  /** When `pending`: milliseconds until the next attempt. */
  retryInMs: number | undefined;
  /** Set when this attempt disabled the endpoint. */
  endpointDisabled: string | undefined;
  /**
   * False when the claim had lapsed and been taken over (or given back) before the outcome arrived: nothing was
   * recorded, neither the attempt nor the delivery's state nor the endpoint's streak; the holder of the claim decides.
   */
  recorded: boolean;
}

/**
 * One attempt at a claimed delivery: `sendAttempt`, then `recordAttempt` in one statement, only while the claim
 * (worker and attempt number) is still held. Returns undefined when `signal` aborted the request (shutdown):
 * nothing is recorded and the caller releases the claim, so the attempt is made again rather than counted. The
 * worker records through `AttemptRecorder` instead (many outcomes per statement); the CLI and tests use this.
 */
export async function attemptDelivery(
  deps: DeliveryDependencies,
  delivery: ClaimedDelivery,
  options: { workerId: string; signal?: AbortSignal },
): Promise<AttemptOutcome | undefined> {
  const record = await sendAttempt(deps, delivery, options.signal);
  if (!record) return undefined;
  const recorded = await recordWithFallback(deps, delivery, options, record);
  return outcomeOf(delivery, record, recorded);
}

/**
 * Signs the stored body with the endpoint's secrets and sends it, and decides where the delivery stands: success
 * is a 2xx answer within the timeout; anything else is retried on the schedule, except 410 Gone, which fails the
 * delivery and disables the endpoint. Undefined when `signal` aborted it.
 */
export async function sendAttempt(deps: DeliveryDependencies, delivery: ClaimedDelivery, signal?: AbortSignal): Promise<AttemptRecord | undefined> {
  const startedAt = deps.now?.() ?? new Date();
  let result: SendResult;
  try {
    const headers = webhookHeaders({
      id: delivery.id,
      event: delivery.event,
      body: delivery.body,
      timestamp: Math.floor(startedAt.getTime() / 1000),
      secret: deps.box.decrypt(delivery.secretEncrypted, delivery.accountId),
      previousSecret: delivery.previousSecretEncrypted && deps.box.decrypt(delivery.previousSecretEncrypted, delivery.accountId),
    });
    result = await deps.sender.send({ url: delivery.url, body: delivery.body, headers, signal });
  } catch (error) {
    // A secret that does not decrypt (wrong WEBHOOK_SECRET_KEY) is a failed attempt, logged like any other.
    result = { statusCode: undefined, latencyMs: 0, error: `cannot sign: ${(error as Error).message}`, responseExcerpt: undefined, retryAfterMs: undefined };
  }
  if (signal?.aborted) return undefined;

  const attemptNumber = delivery.attemptNumber;
  const succeeded = result.error === undefined && result.statusCode !== undefined && result.statusCode >= 200 && result.statusCode < 300;
  const gone = result.statusCode === 410;
  const retryInMs = succeeded || gone || delivery.finalAttempt ? undefined : nextRetryDelay(deps.retryPolicy, attemptNumber, result.retryAfterMs);
  const status = succeeded ? 'succeeded' : retryInMs === undefined ? 'failed' : 'pending';
  const error = result.error ?? (succeeded ? undefined : describeStatus(result.statusCode));
  return { attemptNumber, startedAt, status, retryInMs, succeeded, gone, statusCode: result.statusCode, latencyMs: result.latencyMs, error, responseExcerpt: result.responseExcerpt };
}

export function outcomeOf(delivery: ClaimedDelivery, record: AttemptRecord, recorded: RecordedRow): AttemptOutcome {
  return {
    deliveryId: delivery.id,
    attemptNumber: record.attemptNumber,
    status: record.status,
    statusCode: record.statusCode,
    latencyMs: record.latencyMs,
    error: record.error,
    retryInMs: record.retryInMs,
    endpointDisabled: recorded.newly_disabled ? (recorded.disabled_reason ?? undefined) : undefined,
    recorded: recorded.recorded,
  };
}

/**
 * `recordWhileClaimed`, and when PostgreSQL refuses a value (class 22, data exception) that storableText does not
 * foresee: the attempt still counts and its status stands; only what could not be stored is left out. Anything
 * else (database down) propagates: the claim lapses, and the attempt, already counted, is retried within the schedule.
 */
export async function recordWithFallback(
  deps: DeliveryDependencies,
  delivery: ClaimedDelivery,
  options: { workerId: string; signal?: AbortSignal },
  record: AttemptRecord,
): Promise<RecordedRow> {
  try {
    return await recordWhileClaimed(deps, delivery, options, record);
  } catch (recordError) {
    const code = (recordError as { code?: unknown }).code;
    if (typeof code !== 'string' || !code.startsWith('22')) throw recordError;
    return await recordAttempt(deps, delivery, options, withoutUnstorable(record, recordError));
  }
}

function withoutUnstorable(record: AttemptRecord, recordError: unknown): AttemptRecord {
  const code = (recordError as { code?: unknown }).code;
  return {
    ...record,
    statusCode: record.statusCode !== undefined && record.statusCode >= 100 && record.statusCode <= 999 ? record.statusCode : undefined,
    latencyMs: Math.min(Math.max(Math.round(record.latencyMs), 0), 2_147_483_647),
    error: `${record.error ?? 'succeeded'}; the answer could not be stored (${String(code)}: ${(recordError as Error).message})`,
    responseExcerpt: undefined,
  };
}

/** Pauses between tries to record an outcome while the database is away (the request was already sent). */
const RECORD_RETRY_DELAYS_MS = [250, 500, 1_000, 2_000, 2_000, 2_000, 2_000, 2_000, 2_000];

/**
 * Records the outcome, and when the database cannot be reached (a restart, a failover) tries again for a while
 * (about 14 s, half the usual lease) instead of giving up at once: the receiver already has this request, and an
 * outcome left unrecorded means the delivery is sent again when its lease ends. Only an unreachable database is
 * waited for; any other error is the caller's. Stopping (`signal`) ends the tries, and the lease takes over.
 */
async function recordWhileClaimed(
  deps: DeliveryDependencies,
  delivery: ClaimedDelivery,
  options: { workerId: string; signal?: AbortSignal },
  record: AttemptRecord,
): Promise<RecordedRow> {
  return retryWhileDatabaseAway(() => recordAttempt(deps, delivery, options, record), options.signal);
}

/** `write`, tried again on `RECORD_RETRY_DELAYS_MS` while the database cannot be reached; `signal` ends the tries. */
export async function retryWhileDatabaseAway<T>(write: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      const pause = RECORD_RETRY_DELAYS_MS[attempt];
      if (!isDatabaseUnavailable(error) || pause === undefined) throw error;
      try {
        await sleep(pause, undefined, { signal });
      } catch {
        throw error; // stopping: the lease takes over
      }
    }
  }
}

export interface AttemptRecord {
  attemptNumber: number;
  startedAt: Date;
  status: AttemptOutcome['status'];
  retryInMs: number | undefined;
  succeeded: boolean;
  gone: boolean;
  statusCode: number | undefined;
  latencyMs: number;
  error: string | undefined;
  responseExcerpt: string | undefined;
}

export interface RecordedRow {
  recorded: boolean;
  disabled_reason: string | null;
  newly_disabled: boolean | null;
}

async function recordAttempt(
  deps: DeliveryDependencies,
  delivery: ClaimedDelivery,
  options: { workerId: string },
  record: AttemptRecord,
): Promise<RecordedRow> {
  const { status, succeeded, gone } = record;
  const error = storableOrNull(record.error);
  const result = await sql<RecordedRow>`
    with delivery as (
      -- Only under the claim this attempt was sent for (its random token, and this worker): a claim that lapsed and
      -- was taken again, or that a crash forgot and this same worker made again, has another token, so a late
      -- outcome records nothing.
      update webhook_deliveries set
        status = ${status},
        next_attempt_at = now() + ${record.retryInMs ?? 0} * interval '1 millisecond',
        claimed_by = null,
        claim_token = null,
        last_attempt_at = ${record.startedAt},
        last_status_code = ${record.statusCode ?? null},
        last_error = ${error},
        completed_at = ${status === 'pending' ? null : sql`now()`}
      where id = ${delivery.id} and claimed_by = ${options.workerId} and claim_token = ${delivery.claimToken}::uuid and status = 'pending'
      returning account_id
    ),
    attempt as (
      -- An attempt row of this number already there (written by another version's claim) is kept, not a failure.
      insert into webhook_attempts (delivery_id, attempt_number, started_at, url, status_code, latency_ms, error, response_body)
      select ${delivery.id}, ${record.attemptNumber}, ${record.startedAt}, ${storableText(delivery.url)}, ${record.statusCode ?? null},
             ${record.latencyMs}, ${error}, ${storableOrNull(record.responseExcerpt)}
      from delivery
      on conflict (delivery_id, attempt_number) do nothing
    ),
    endpoint as (
      update webhook_endpoints e set
        consecutive_failures = ${succeeded ? sql`0` : status === 'failed' ? sql`e.consecutive_failures + 1` : sql`e.consecutive_failures`},
        disabled_at = case when e.disabled_at is not null then e.disabled_at
          when ${gone} then now()
          when ${status === 'failed'} and e.consecutive_failures + 1 >= ${DISABLE_AFTER_FAILED_DELIVERIES} then now()
        end,
        disabled_reason = case when e.disabled_at is not null then e.disabled_reason
          when ${gone} then ${GONE_REASON}::text
          when ${status === 'failed'} and e.consecutive_failures + 1 >= ${DISABLE_AFTER_FAILED_DELIVERIES} then ${STREAK_REASON}::text
        end
      from delivery
      where e.account_id = delivery.account_id
        -- Most attempts change nothing here; skipping them keeps concurrent attempts off the endpoint's row lock.
        and ${succeeded ? sql`e.consecutive_failures <> 0` : sql.lit(status === 'failed' || gone)}
      -- now() is the statement's transaction time: equal only for an endpoint this statement disabled.
      returning e.disabled_reason, (e.disabled_at = now()) as newly_disabled
    )
    select exists (select 1 from delivery) as recorded, endpoint.disabled_reason, endpoint.newly_disabled
    from (select 1) as one left join endpoint on true
  `.execute(deps.db);
  return result.rows[0]!;
}

function describeStatus(statusCode: number | undefined): string | undefined {
  if (statusCode === undefined) return undefined;
  if (statusCode >= 300 && statusCode < 400) return `HTTP ${statusCode}: redirects are not followed`;
  return `HTTP ${statusCode}`;
}

/** Whether an outcome can be group-committed: it leaves the endpoint's failure streak and enabled state alone, or resets the streak. */
export function groupable(record: AttemptRecord): boolean {
  return record.status !== 'failed' && !record.gone;
}

/** What `recordAttemptBatch` did with each outcome, by claim token. */
export interface BatchRecorded {
  /** The claims whose outcome was recorded; the others had lost their claim (lapsed, released, or forgotten by a crash). */
  recorded: Set<string>;
  /**
   * Recorded claims whose attempt row was not written because one of that number was already there: the delivery's
   * state was recorded, the earlier row kept. Never expected (a claim token is never reused); reported, not failed.
   */
  attemptRowKept: Set<string>;
}

/**
 * Records many `groupable` outcomes of one worker in one statement: each delivery's new state and its attempt row,
 * each only while its claim (worker and claim token) is still held, and the failure streak of every endpoint
 * that had a success reset. Outcomes that end a delivery as failed (or 410) change the streak and may disable the
 * endpoint, so they go through `recordAttempt`, one at a time, in the order they finished.
 *
 * No one row can make the statement fail for the others: an outcome whose claim is not held records nothing, an
 * existing attempt row of the same number is kept (`attemptRowKept`), and two outcomes of one claim are refused
 * before the statement is sent (the caller sends at most one outcome per delivery in a batch, see AttemptRecorder).
 */
export async function recordAttemptBatch(
  db: Db,
  workerId: string,
  entries: ReadonlyArray<{ delivery: ClaimedDelivery; record: AttemptRecord }>,
): Promise<BatchRecorded> {
  const deliveries = new Set(entries.map((entry) => entry.delivery.id));
  if (deliveries.size !== entries.length) throw new Error('recordAttemptBatch: one outcome per delivery in a batch');
  const column = <T>(pick: (entry: { delivery: ClaimedDelivery; record: AttemptRecord }) => T) => entries.map(pick);
  const rows = await runPrepared(db, 'webhook-record-batch', sql<{ token: string; attempt_logged: boolean }>`
    with input as (
      select * from unnest(
        ${column((e) => e.delivery.id)}::text[], ${column((e) => e.delivery.claimToken)}::uuid[], ${column((e) => e.record.attemptNumber)}::int[],
        ${column((e) => e.record.status)}::text[], ${column((e) => e.record.retryInMs ?? 0)}::int8[],
        ${column((e) => e.record.startedAt)}::timestamptz[], ${column((e) => e.record.statusCode ?? null)}::int[],
        ${column((e) => e.record.latencyMs)}::int[], ${column((e) => storableOrNull(e.record.error))}::text[],
        ${column((e) => storableOrNull(e.record.responseExcerpt))}::text[], ${column((e) => storableText(e.delivery.url))}::text[]
      ) as i(id, claim_token, attempt_number, status, retry_ms, started_at, status_code, latency_ms, error, response_body, url)
    ),
    delivery as (
      -- Only under the claim each outcome was sent for, as in recordAttempt: this worker and the claim's token.
      update webhook_deliveries d set
        status = i.status,
        next_attempt_at = now() + i.retry_ms * interval '1 millisecond',
        claimed_by = null,
        claim_token = null,
        last_attempt_at = i.started_at,
        last_status_code = i.status_code,
        last_error = i.error,
        completed_at = case when i.status = 'pending' then null else now() end
      from input i
      where d.id = i.id and d.claimed_by = ${workerId} and d.claim_token = i.claim_token and d.status = 'pending'
      returning d.id, i.claim_token, d.account_id, i.status = 'succeeded' as succeeded
    ),
    attempt as (
      insert into webhook_attempts (delivery_id, attempt_number, started_at, url, status_code, latency_ms, error, response_body)
      select i.id, i.attempt_number, i.started_at, i.url, i.status_code, i.latency_ms, i.error, i.response_body
      from input i join delivery on delivery.id = i.id and delivery.claim_token = i.claim_token
      on conflict (delivery_id, attempt_number) do nothing
      returning delivery_id
    ),
    endpoint as (
      -- Most batches change nothing here; skipping them keeps concurrent workers off the endpoints' row locks.
      update webhook_endpoints e set consecutive_failures = 0
      where e.account_id in (select account_id from delivery where succeeded) and e.consecutive_failures <> 0
    )
    select delivery.claim_token::text as token, exists (select 1 from attempt where attempt.delivery_id = delivery.id) as attempt_logged
    from delivery
  `);
  return {
    recorded: new Set(rows.map((row) => row.token)),
    attemptRowKept: new Set(rows.filter((row) => !row.attempt_logged).map((row) => row.token)),
  };
}
