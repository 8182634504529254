import { sql } from 'kysely';
import type { Db } from '../db/schema/index.js';
import { CLAIMED_DELIVERY, type ClaimedDelivery } from './outbox.js';
import { nextRetryDelay, type RetryPolicy } from './retry-schedule.js';
import type { SecretBox } from './secret-box.js';
import type { SendResult, WebhookSender } from './sender.js';
import { webhookHeaders } from './signatures.js';

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
}

/**
 * One attempt at a claimed delivery: sign the stored body with the endpoint's secrets, send it, then record the
 * attempt, the delivery's new state and the endpoint's failure streak in one statement. Success is a 2xx answer
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

  const attemptNumber = delivery.attemptCount + 1;
  const succeeded = result.error === undefined && result.statusCode !== undefined && result.statusCode >= 200 && result.statusCode < 300;
  const gone = result.statusCode === 410;
  const retryInMs = succeeded || gone || delivery.finalAttempt ? undefined : nextRetryDelay(deps.retryPolicy, attemptNumber, result.retryAfterMs);
  const status = succeeded ? 'succeeded' : retryInMs === undefined ? 'failed' : 'pending';
  const error = result.error ?? (succeeded ? undefined : describeStatus(result.statusCode));

  const chain = succeeded && options.claimNext?.wanted() === true;
  const recorded = await sql<{ disabled_reason: string | null; newly_disabled: boolean; next: ClaimedDelivery | null }>`
    with attempt as (
      insert into webhook_attempts (delivery_id, attempt_number, started_at, url, status_code, latency_ms, error, response_body)
      values (${delivery.id}, ${attemptNumber}, ${startedAt}, ${delivery.url}, ${result.statusCode ?? null}, ${result.latencyMs},
              ${error ?? null}, ${result.responseExcerpt ?? null})
    ),
    delivery as (
      update webhook_deliveries set
        status = ${status},
        attempt_count = ${attemptNumber},
        next_attempt_at = now() + ${retryInMs ?? 0} * interval '1 millisecond',
        claimed_by = null,
        last_attempt_at = ${startedAt},
        last_status_code = ${result.statusCode ?? null},
        last_error = ${error ?? null},
        completed_at = ${status === 'pending' ? null : sql`now()`}
      where id = ${delivery.id} and claimed_by = ${options.workerId}
      returning account_id
    ),
    next as (
      -- After a success, the same statement claims the account's next due delivery for this worker: a backlog
      -- drains at one round trip per delivery instead of two, and the account's slot never sits empty.
      update webhook_deliveries d
      set claimed_by = ${options.workerId}, next_attempt_at = now() + ${options.claimNext?.leaseMs ?? 0} * interval '1 millisecond'
      from (
        select w.id from webhook_deliveries w
        where ${sql.lit(Boolean(chain))} and w.account_id = ${delivery.accountId} and w.status = 'pending'
          and w.next_attempt_at <= now() and w.id <> ${delivery.id}
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
    select endpoint.disabled_reason, endpoint.newly_disabled, (select to_jsonb(next) from next) as next
    from (select 1) as one left join endpoint on true
  `.execute(deps.db);
  const endpoint = recorded.rows[0];

  return {
    deliveryId: delivery.id,
    attemptNumber,
    status,
    statusCode: result.statusCode,
    latencyMs: result.latencyMs,
    error,
    retryInMs,
    endpointDisabled: endpoint?.newly_disabled ? (endpoint.disabled_reason ?? undefined) : undefined,
    next: endpoint?.next ?? undefined,
  };
}

function describeStatus(statusCode: number | undefined): string | undefined {
  if (statusCode === undefined) return undefined;
  if (statusCode >= 300 && statusCode < 400) return `HTTP ${statusCode}: redirects are not followed`;
  return `HTTP ${statusCode}`;
}
