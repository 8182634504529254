import { type Selectable, sql } from 'kysely';
import type { WebhookEndpointsTable } from '../db/schema/webhooks.js';
import type { Db } from '../db/schema/index.js';
import type { SecretBox } from './secret-box.js';
import { newWebhookSecret } from './signatures.js';
import { validateWebhookUrl } from './url-guard.js';
import { getAccount } from '../accounts/account-service.js';

/** How long the previous secret keeps signing (`webhook-signature`) after a rotation. */
export const ROTATION_OVERLAP_HOURS = 24;

export interface WebhookSettings {
  accountId: string;
  url: string;
  /** Only in what `setWebhook` and `rotateWebhookSecret` return (the admin CLI); the API never shows it. */
  secret?: string;
  enabled: boolean;
  disabledAt: Date | null;
  disabledReason: string | null;
  /** Until then, `webhook-signature` also carries a signature made with the previous secret. */
  previousSecretExpiresAt: Date | null;
  consecutiveFailures: number;
  createdAt: Date;
  updatedAt: Date;
}

export class WebhookNotConfiguredError extends Error {
  constructor(readonly accountId: string) {
    super(`account ${accountId} has no webhook; set one with: webhook set --account ${accountId} --url <url>`);
  }
}

/**
 * Stores the account's webhook URL. The first call issues a secret; later calls keep it (changing the URL must
 * not break verification) and re-enable an endpoint that was disabled, with its failure streak reset.
 */
export async function setWebhook(
  db: Db,
  box: SecretBox,
  input: { accountId: string; url: string; allowPrivate: boolean },
): Promise<WebhookSettings> {
  await getAccount(db, input.accountId);
  const url = await validateWebhookUrl(input.url, { allowPrivate: input.allowPrivate });
  const row = await db
    .insertInto('webhook_endpoints')
    .values({ account_id: input.accountId, url, secret_encrypted: box.encrypt(newWebhookSecret(), input.accountId) })
    .onConflict((oc) =>
      oc.column('account_id').doUpdateSet({
        url,
        disabled_at: null,
        disabled_reason: null,
        consecutive_failures: 0,
        updated_at: sql<Date>`now()`,
      }),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
  return present(row, box.decrypt(row.secret_encrypted, row.account_id));
}

/**
 * Issues a new secret. The previous one keeps signing `webhook-signature` for 24 h so receivers can switch
 * without dropping events; rotating again within the overlap retires the oldest secret at once.
 */
export async function rotateWebhookSecret(db: Db, box: SecretBox, accountId: string): Promise<WebhookSettings> {
  const row = await db
    .updateTable('webhook_endpoints')
    .set({
      secret_encrypted: box.encrypt(newWebhookSecret(), accountId),
      previous_secret_encrypted: sql<string>`secret_encrypted`,
      previous_secret_expires_at: sql<Date>`now() + make_interval(hours => ${ROTATION_OVERLAP_HOURS})`,
      updated_at: sql<Date>`now()`,
    })
    .where('account_id', '=', accountId)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw new WebhookNotConfiguredError(accountId);
  return present(row, box.decrypt(row.secret_encrypted, row.account_id));
}

/** The settings without the secret (which only `setWebhook` and `rotateWebhookSecret` reveal). */
export async function getWebhook(db: Db, accountId: string): Promise<WebhookSettings | undefined> {
  const row = await db.selectFrom('webhook_endpoints').selectAll().where('account_id', '=', accountId).executeTakeFirst();
  return row && present(row);
}

/**
 * The current signing secret, decrypted: for the dashboard, which shows it only when an owner asks for it.
 * Undefined when the account has no webhook.
 */
export async function revealWebhookSecret(db: Db, box: SecretBox, accountId: string): Promise<string | undefined> {
  const row = await db.selectFrom('webhook_endpoints').select('secret_encrypted').where('account_id', '=', accountId).executeTakeFirst();
  return row && box.decrypt(row.secret_encrypted, accountId);
}

/** Removes the webhook; deliveries still pending are failed (with a reason) rather than left waiting forever. */
export async function removeWebhook(db: Db, accountId: string): Promise<{ accountId: string; pendingDeliveriesFailed: number }> {
  return db.transaction().execute(async (trx) => {
    const removed = await trx.deleteFrom('webhook_endpoints').where('account_id', '=', accountId).executeTakeFirst();
    if (removed.numDeletedRows === 0n) throw new WebhookNotConfiguredError(accountId);
    const failed = await trx
      .updateTable('webhook_deliveries')
      .set({ status: 'failed', last_error: 'webhook removed', completed_at: sql<Date>`now()`, claimed_by: null, claim_token: null })
      .where('account_id', '=', accountId)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return { accountId, pendingDeliveriesFailed: Number(failed.numUpdatedRows) };
  });
}

function present(
  row: Selectable<WebhookEndpointsTable>,
  secret?: string,
): WebhookSettings {
  const overlapActive = row.previous_secret_expires_at !== null && row.previous_secret_expires_at > new Date();
  return {
    accountId: row.account_id,
    url: row.url,
    ...(secret !== undefined && { secret }),
    enabled: row.disabled_at === null,
    disabledAt: row.disabled_at,
    disabledReason: row.disabled_reason,
    previousSecretExpiresAt: overlapActive ? row.previous_secret_expires_at : null,
    consecutiveFailures: row.consecutive_failures,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
