import { randomBytes } from 'node:crypto';
import { type Selectable, sql } from 'kysely';
import { WebhookNotConfiguredError } from './webhook-settings.js';
import { WEBHOOKS_DUE_CHANNEL } from '../db/channels.js';
import type { Db } from '../db/schema/index.js';
import type { DeliveryStatus, WebhookAttemptsTable, WebhookDeliveriesTable } from '../db/schema/webhooks.js';
import { idPattern, newId } from '../ids.js';
import { attemptDelivery, type AttemptOutcome, type DeliveryDependencies } from './delivery-attempt.js';
import { CLAIMED_DELIVERY, type ClaimedDelivery } from './outbox.js';
import { testEventBody } from './payload.js';

export interface Delivery {
  id: string;
  event: string;
  qrCodeId: string | null;
  status: DeliveryStatus;
  attemptCount: number;
  /** When the next attempt is due (pending deliveries only). */
  nextAttemptAt: Date | null;
  lastAttemptAt: Date | null;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: Date;
  completedAt: Date | null;
  /** The exact body sent. */
  body: string;
}

export interface Attempt {
  attemptNumber: number;
  startedAt: Date;
  url: string;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  responseBody: string | null;
}

export class DeliveryNotFoundError extends Error {
  constructor(readonly deliveryId: string) {
    super(`no webhook delivery with id ${deliveryId}`);
  }
}

export class DeliveryInFlightError extends Error {
  constructor(readonly deliveryId: string) {
    super(`webhook delivery ${deliveryId} is being attempted right now; try again when that attempt is recorded`);
  }
}

const DELIVERY_COLUMNS = [
  'id',
  'event',
  'qr_code_id',
  'status',
  'attempt_count',
  'next_attempt_at',
  'last_attempt_at',
  'last_status_code',
  'last_error',
  'created_at',
  'completed_at',
  'body',
] as const;

type DeliveryRow = Pick<Selectable<WebhookDeliveriesTable>, (typeof DELIVERY_COLUMNS)[number]>;

/** Newest first, `limit` at most, after the cursor (a delivery id); `status` filters. */
export async function listDeliveries(
  db: Db,
  accountId: string,
  options: { status?: DeliveryStatus; limit: number; cursor?: string },
): Promise<{ data: Delivery[]; nextCursor: string | null }> {
  let query = db
    .selectFrom('webhook_deliveries')
    .select(DELIVERY_COLUMNS)
    .where('account_id', '=', accountId)
    .orderBy('id', 'desc')
    .limit(options.limit + 1);
  if (options.status) query = query.where('status', '=', options.status);
  if (options.cursor) query = query.where('id', '<', options.cursor);
  const rows = await query.execute();
  const page = rows.slice(0, options.limit);
  return { data: page.map(toDelivery), nextCursor: rows.length > options.limit ? page.at(-1)!.id : null };
}

/** One delivery with every attempt, oldest first; scoped to `accountId` when given (the API), any for the CLI. */
export async function getDelivery(db: Db, deliveryId: string, accountId?: string): Promise<Delivery & { accountId: string; attempts: Attempt[] }> {
  assertDeliveryId(deliveryId);
  let query = db.selectFrom('webhook_deliveries').select([...DELIVERY_COLUMNS, 'account_id']).where('id', '=', deliveryId);
  if (accountId) query = query.where('account_id', '=', accountId);
  const row = await query.executeTakeFirst();
  if (!row) throw new DeliveryNotFoundError(deliveryId);
  const attempts = await db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('delivery_id', '=', deliveryId)
    .orderBy('id')
    .execute();
  return {
    ...toDelivery(row),
    accountId: row.account_id,
    attempts: attempts.map(toAttempt),
  };
}

function toAttempt(a: Selectable<WebhookAttemptsTable>): Attempt {
  return {
    attemptNumber: a.attempt_number,
    startedAt: a.started_at,
    url: a.url,
    statusCode: a.status_code,
    latencyMs: a.latency_ms,
    error: a.error,
    responseBody: a.response_body,
  };
}

/**
 * The latest attempt of each of the given deliveries of the account (the dashboard's log shows its latency and
 * answer beside each delivery): one query for a page of deliveries instead of one per row.
 */
export async function latestAttempts(db: Db, accountId: string, deliveryIds: readonly string[]): Promise<Map<string, Attempt>> {
  if (deliveryIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('webhook_attempts as a')
    .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
    .distinctOn('a.delivery_id')
    .selectAll('a')
    .where('d.account_id', '=', accountId)
    .where('a.delivery_id', 'in', deliveryIds)
    .orderBy('a.delivery_id')
    .orderBy('a.id', 'desc')
    .execute();
  return new Map(rows.map((a) => [a.delivery_id, toAttempt(a)]));
}

/**
 * Queues a delivery again, due now, with the same id and bytes (so receivers can de-duplicate). A finished
 * delivery gets one more attempt (no new retry series); a pending one is simply made due now.
 */
export async function redeliver(db: Db, deliveryId: string, accountId?: string): Promise<Delivery> {
  assertDeliveryId(deliveryId);
  const result = await sql<DeliveryRow>`
    with queued as (
      update webhook_deliveries set
        final_attempt = final_attempt or status <> 'pending',
        -- A lapsed claim is cleared: this is a fresh request for an attempt, not an orphan to fail at claim time.
        status = 'pending', next_attempt_at = now(), completed_at = null, claimed_by = null, claim_token = null
      where id = ${deliveryId} ${accountId ? sql`and account_id = ${accountId}` : sql``}
        and (claimed_by is null or next_attempt_at <= now())
      returning *
    )
    select queued.*, pg_notify(${WEBHOOKS_DUE_CHANNEL}, '') from queued
  `.execute(db);
  const queued = result.rows[0];
  if (queued) return toDelivery(queued);
  await getDelivery(db, deliveryId, accountId); // throws when it does not exist
  throw new DeliveryInFlightError(deliveryId);
}

/** How long the CLI's claim holds: longer than one attempt (15 s), so no worker takes the row meanwhile. */
const CLI_LEASE = sql`interval '1 minute'`;

/**
 * For the admin CLI: make one attempt now, in this process, and report it. Redelivers an existing delivery
 * (`deliveryId`) or creates a `webhook.test` delivery for the account. The row is the CLI's from the moment it is
 * written or requeued: a test delivery is inserted already claimed, with its lease in the future, and a
 * redelivery is requeued and claimed in one statement, so a running worker (woken by the insert's notification)
 * never sees it due and cannot send it too.
 */
export async function attemptNow(
  deps: DeliveryDependencies,
  target: { deliveryId: string } | { testForAccount: string },
): Promise<AttemptOutcome> {
  const claimer = `cli-${randomBytes(6).toString('hex')}`;
  let delivery: ClaimedDelivery | undefined;
  if ('deliveryId' in target) {
    assertDeliveryId(target.deliveryId);
    const claimed = await sql<ClaimedDelivery>`
      update webhook_deliveries d set
        final_attempt = d.final_attempt or d.status <> 'pending', status = 'pending', completed_at = null,
        claimed_by = ${claimer}, claim_token = gen_random_uuid(), attempt_count = d.attempt_count + 1, next_attempt_at = now() + ${CLI_LEASE}
      from webhook_endpoints e
      where d.id = ${target.deliveryId} and e.account_id = d.account_id
        and (d.claimed_by is null or d.next_attempt_at <= now())
      returning ${CLAIMED_DELIVERY}
    `.execute(deps.db);
    delivery = claimed.rows[0];
    if (!delivery) {
      const existing = await getDelivery(deps.db, target.deliveryId); // throws when it does not exist
      const endpoint = await deps.db.selectFrom('webhook_endpoints').select('account_id').where('account_id', '=', existing.accountId).executeTakeFirst();
      throw endpoint ? new DeliveryInFlightError(target.deliveryId) : new WebhookNotConfiguredError(existing.accountId);
    }
  } else {
    const accountId = target.testForAccount;
    const deliveryId = newId('whd');
    const body = testEventBody({ deliveryId, at: new Date() });
    const inserted = await sql<ClaimedDelivery>`
      with d as (
        insert into webhook_deliveries (id, account_id, event, body, final_attempt, claimed_by, claim_token, attempt_count, next_attempt_at)
        select ${deliveryId}, account_id, 'webhook.test', ${body}, true, ${claimer}, gen_random_uuid(), 1, now() + ${CLI_LEASE}
        from webhook_endpoints where account_id = ${accountId}
        returning *
      )
      select ${CLAIMED_DELIVERY} from d join webhook_endpoints e on e.account_id = d.account_id
    `.execute(deps.db);
    delivery = inserted.rows[0];
    if (!delivery) throw new WebhookNotConfiguredError(accountId);
  }
  return (await attemptDelivery(deps, delivery, { workerId: claimer }))!;
}

const DELIVERY_ID = idPattern('whd');

/** Anything that is not a delivery id cannot name one (and must not reach SQL: a NUL byte is a PostgreSQL error). */
function assertDeliveryId(deliveryId: string): void {
  if (!DELIVERY_ID.test(deliveryId)) throw new DeliveryNotFoundError(deliveryId);
}

function toDelivery(row: DeliveryRow): Delivery {
  return {
    id: row.id,
    event: row.event,
    qrCodeId: row.qr_code_id,
    status: row.status,
    attemptCount: row.attempt_count,
    nextAttemptAt: row.status === 'pending' ? row.next_attempt_at : null,
    lastAttemptAt: row.last_attempt_at,
    lastStatusCode: row.last_status_code,
    lastError: row.last_error,
    createdAt: row.created_at,
    completedAt: row.completed_at,
    body: row.body,
  };
}
