import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { isDatabaseUnavailable } from '../db/unavailable.js';
import type { Db } from '../db/schema/index.js';
import { allowedAttempts, CLAIMED_DELIVERY, type ClaimedDelivery, lapsedWithoutAttemptsLeft } from './outbox.js';
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
  box: SecretBox;
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
  /** The account's next due delivery, claimed for the caller (only with `claimNext`, after a success). */
  next: ClaimedDelivery | undefined;
  /**
   * False when the claim had lapsed and been taken over (or given back) before the outcome arrived: nothing was
   * recorded, neither the attempt nor the delivery's state nor the endpoint's streak; the holder of the claim decides.
   */
  recorded: boolean;
}

/**
 * One attempt at a claimed delivery: sign the stored body with the endpoint's secrets, send it, then record the
 * attempt, the delivery's new state and the endpoint's failure streak in one statement, only while the claim
 * (worker and attempt number) is still held. Success is a 2xx answer
 * within the timeout; anything else is retried on the schedule, except 410 Gone, which fails the delivery and
 * disables the endpoint. Returns undefined when `signal` aborted the request (shutdown): nothing is recorded and
 * the caller releases the claim, so the attempt is made again rather than counted.
 */
export async function attemptDelivery(
  deps: DeliveryDependencies,
  delivery: ClaimedDelivery,
  options: {
    workerId: string;
    signal?: AbortSignal;
    /** After a success, also claim the account's next due delivery (asked when the attempt is recorded). */
    claimNext?: { leaseMs: number; wanted: () => boolean };
  },
): Promise<AttemptOutcome | undefined> {
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
    result = await deps.sender.send({ url: delivery.url, body: delivery.body, headers, signal: options.signal });
  } catch (error) {
    // A secret that does not decrypt (wrong WEBHOOK_SECRET_KEY) is a failed attempt, logged like any other.
    result = { statusCode: undefined, latencyMs: 0, error: `cannot sign: ${(error as Error).message}`, responseExcerpt: undefined, retryAfterMs: undefined };
  }
  if (options.signal?.aborted) return undefined;

  const attemptNumber = delivery.attemptNumber;
  const succeeded = result.error === undefined && result.statusCode !== undefined && result.statusCode >= 200 && result.statusCode < 300;
  const gone = result.statusCode === 410;
  const retryInMs = succeeded || gone || delivery.finalAttempt ? undefined : nextRetryDelay(deps.retryPolicy, attemptNumber, result.retryAfterMs);
  const status = succeeded ? 'succeeded' : retryInMs === undefined ? 'failed' : 'pending';
  const error = result.error ?? (succeeded ? undefined : describeStatus(result.statusCode));

  const chain = succeeded && options.claimNext?.wanted() === true;
  const record: AttemptRecord = { attemptNumber, startedAt, status, retryInMs, succeeded, gone, chain, statusCode: result.statusCode, latencyMs: result.latencyMs, error, responseExcerpt: result.responseExcerpt };
  let recorded: RecordedRow | undefined;
  try {
    recorded = await recordWhileClaimed(deps, delivery, options, record);
  } catch (recordError) {
    // PostgreSQL refused a value (class 22, data exception) that storableText does not foresee: the attempt still
    // counts and its status stands; only what could not be stored is left out. Anything else (database down)
    // propagates: the claim lapses, and the attempt, already counted, is retried within the schedule.
    const code = (recordError as { code?: unknown }).code;
    if (typeof code !== 'string' || !code.startsWith('22')) throw recordError;
    recorded = await recordAttempt(deps, delivery, options, {
      ...record,
      statusCode: record.statusCode !== undefined && record.statusCode >= 100 && record.statusCode <= 999 ? record.statusCode : undefined,
      latencyMs: Math.min(Math.max(Math.round(record.latencyMs), 0), 2_147_483_647),
      error: `${error ?? 'succeeded'}; the answer could not be stored (${code}: ${(recordError as Error).message})`,
      responseExcerpt: undefined,
    });
  }

  return {
    deliveryId: delivery.id,
    attemptNumber,
    status,
    statusCode: result.statusCode,
    latencyMs: result.latencyMs,
    error,
    retryInMs,
    endpointDisabled: recorded.newly_disabled ? (recorded.disabled_reason ?? undefined) : undefined,
    next: recorded.next ?? undefined,
    recorded: recorded.recorded,
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
  options: { workerId: string; signal?: AbortSignal; claimNext?: { leaseMs: number } },
  record: AttemptRecord,
): Promise<RecordedRow> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await recordAttempt(deps, delivery, options, record);
    } catch (error) {
      const pause = RECORD_RETRY_DELAYS_MS[attempt];
      if (!isDatabaseUnavailable(error) || pause === undefined) throw error;
      try {
        await sleep(pause, undefined, { signal: options.signal });
      } catch {
        throw error; // stopping: the lease takes over
      }
    }
  }
}

interface AttemptRecord {
  attemptNumber: number;
  startedAt: Date;
  status: AttemptOutcome['status'];
  retryInMs: number | undefined;
  succeeded: boolean;
  gone: boolean;
  chain: boolean;
  statusCode: number | undefined;
  latencyMs: number;
  error: string | undefined;
  responseExcerpt: string | undefined;
}

interface RecordedRow {
  recorded: boolean;
  disabled_reason: string | null;
  newly_disabled: boolean | null;
  next: ClaimedDelivery | null;
}

async function recordAttempt(
  deps: DeliveryDependencies,
  delivery: ClaimedDelivery,
  options: { workerId: string; claimNext?: { leaseMs: number } },
  record: AttemptRecord,
): Promise<RecordedRow> {
  const { status, succeeded, gone } = record;
  const error = storableOrNull(record.error);
  const maxAttempts = allowedAttempts(deps.retryPolicy);
  const result = await sql<RecordedRow>`
    with delivery as (
      -- The claim token is the worker and the attempt number: a claim that lapsed and was taken again, even by
      -- this same worker, has a higher number, so a late outcome records nothing.
      update webhook_deliveries set
        status = ${status},
        next_attempt_at = now() + ${record.retryInMs ?? 0} * interval '1 millisecond',
        claimed_by = null,
        last_attempt_at = ${record.startedAt},
        last_status_code = ${record.statusCode ?? null},
        last_error = ${error},
        completed_at = ${status === 'pending' ? null : sql`now()`}
      where id = ${delivery.id} and claimed_by = ${options.workerId} and attempt_count = ${record.attemptNumber} and status = 'pending'
      returning account_id
    ),
    attempt as (
      insert into webhook_attempts (delivery_id, attempt_number, started_at, url, status_code, latency_ms, error, response_body)
      select ${delivery.id}, ${record.attemptNumber}, ${record.startedAt}, ${storableText(delivery.url)}, ${record.statusCode ?? null},
             ${record.latencyMs}, ${error}, ${storableOrNull(record.responseExcerpt)}
      from delivery
    ),
    next as (
      -- After a success, the same statement claims the account's next due delivery for this worker (and counts its
      -- attempt): a backlog drains at one round trip per delivery instead of two, and the account's slot never sits empty.
      update webhook_deliveries d
      set claimed_by = ${options.workerId}, attempt_count = d.attempt_count + 1,
          next_attempt_at = now() + ${options.claimNext?.leaseMs ?? 0} * interval '1 millisecond'
      from (
        select w.id from webhook_deliveries w
        where ${sql.lit(record.chain)} and exists (select 1 from delivery) and w.account_id = ${delivery.accountId}
          and w.status = 'pending' and w.next_attempt_at <= now() and w.id <> ${delivery.id}
          and not ${lapsedWithoutAttemptsLeft(maxAttempts)}
        order by w.next_attempt_at
        limit 1
        for update skip locked
      ) candidate, webhook_endpoints e
      where d.id = candidate.id and e.account_id = d.account_id and e.disabled_at is null
      returning ${CLAIMED_DELIVERY}
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
    select exists (select 1 from delivery) as recorded, endpoint.disabled_reason, endpoint.newly_disabled,
           (select to_jsonb(next) from next) as next
    from (select 1) as one left join endpoint on true
  `.execute(deps.db);
  return result.rows[0]!;
}

function describeStatus(statusCode: number | undefined): string | undefined {
  if (statusCode === undefined) return undefined;
  if (statusCode >= 300 && statusCode < 400) return `HTTP ${statusCode}: redirects are not followed`;
  return `HTTP ${statusCode}`;
}
