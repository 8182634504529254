import { getAccount } from '../accounts/account-service.js';
import { getWebhook, removeWebhook, rotateWebhookSecret, setWebhook, WebhookNotConfiguredError } from '../webhooks/webhook-settings.js';
import type { Config } from '../config.js';
import type { Database } from '../db/schema/index.js';
import type { DeliveryStatus } from '../db/schema/webhooks.js';
import type { AttemptOutcome } from '../webhooks/delivery-attempt.js';
import { attemptNow, getDelivery, listDeliveries } from '../webhooks/delivery-service.js';
import { DEFAULT_RETRY_DELAYS_MS, defaultJitter } from '../webhooks/retry-schedule.js';
import type { SecretBox } from '../webhooks/secret-box.js';
import { optionalInteger, required, UsageError } from './args.js';

export interface CommandContext {
  db: Database;
  config: Pick<Config, 'allowPrivateWebhookUrls'>;
  /** Loaded only by commands that touch webhook secrets, so the others run without WEBHOOK_SECRET_KEY. */
  secretBox(): Promise<SecretBox>;
}

export const WEBHOOK_USAGE = `  webhook set --account <accountId> --url <url>     prints the secret (issued on first set)
  webhook show --account <accountId>
  webhook rotate-secret --account <accountId>      the old secret keeps signing webhook-signature for 24 h
  webhook remove --account <accountId>
  webhook deliveries --account <accountId> [--status pending|succeeded|failed] [--limit <n>] [--cursor <id>]
  webhook delivery --id <deliveryId>              one delivery with every attempt
  webhook redeliver --id <deliveryId>             attempts it now, from this process, and prints the result
  webhook test --account <accountId>              sends a webhook.test event now and prints the result
                                                  (redeliver and test exit 1 when the receiver did not answer 2xx)`;

const STATUSES: readonly DeliveryStatus[] = ['pending', 'succeeded', 'failed'];

/**
 * An attempt from the CLI that did not succeed (receiver down, timeout, non-2xx). The outcome is still printed, as
 * on success, but the exit is non-zero, so `webhook test` in a script or a deploy check fails when delivery fails.
 */
export class AttemptFailedError extends Error {
  constructor(readonly outcome: AttemptOutcome) {
    const reason = outcome.error ?? (outcome.statusCode === undefined ? 'no answer' : `HTTP ${outcome.statusCode}`);
    const after = outcome.status === 'pending' ? '; the delivery stays pending and is retried on its schedule' : `; the delivery is ${outcome.status}`;
    super(`the webhook was not delivered (${reason})${after}`);
  }
}

export async function runWebhookCommand(context: CommandContext, action: string, flags: Map<string, string>): Promise<unknown> {
  switch (action) {
    case 'set':
      return setWebhook(context.db, await context.secretBox(), {
        accountId: required(flags, 'account'),
        url: required(flags, 'url'),
        allowPrivate: context.config.allowPrivateWebhookUrls,
      });
    case 'show': {
      const accountId = required(flags, 'account');
      await getAccount(context.db, accountId);
      const settings = await getWebhook(context.db, accountId);
      if (!settings) throw new WebhookNotConfiguredError(accountId);
      return settings;
    }
    case 'rotate-secret':
      return rotateWebhookSecret(context.db, await context.secretBox(), required(flags, 'account'));
    case 'remove':
      return removeWebhook(context.db, required(flags, 'account'));
    case 'deliveries': {
      const accountId = required(flags, 'account');
      await getAccount(context.db, accountId);
      const status = flags.get('status');
      if (status !== undefined && !STATUSES.includes(status as DeliveryStatus)) {
        throw new UsageError(`--status must be one of ${STATUSES.join(', ')}`);
      }
      return listDeliveries(context.db, accountId, {
        status: status as DeliveryStatus | undefined,
        limit: Math.min(optionalInteger(flags, 'limit') ?? 50, 1000),
        cursor: flags.get('cursor'),
      });
    }
    case 'delivery':
      return getDelivery(context.db, required(flags, 'id'));
    case 'redeliver':
      return attemptFromHere(context, { deliveryId: required(flags, 'id') });
    case 'test': {
      const accountId = required(flags, 'account');
      await getAccount(context.db, accountId);
      return attemptFromHere(context, { testForAccount: accountId });
    }
    default:
      throw new UsageError(`unknown command "webhook ${action}"`);
  }
}

/**
 * One attempt from the CLI process itself, so the operator sees the outcome at once, server running or not.
 * Throws AttemptFailedError (with the outcome) unless it succeeded.
 */
async function attemptFromHere(context: CommandContext, target: Parameters<typeof attemptNow>[1]): Promise<AttemptOutcome> {
  // Loaded here, not with the CLI: got added 0.2 s of CPU to every other command's start-up (0.9 s).
  const { WebhookSender } = await import('../webhooks/sender.js');
  const sender = new WebhookSender({ allowPrivateAddresses: context.config.allowPrivateWebhookUrls });
  let outcome: AttemptOutcome;
  try {
    outcome = await attemptNow(
      { db: context.db, box: await context.secretBox(), sender, retryPolicy: { delaysMs: DEFAULT_RETRY_DELAYS_MS, jitter: defaultJitter } },
      target,
    );
  } finally {
    sender.close();
  }
  if (outcome.status !== 'succeeded') throw new AttemptFailedError(outcome);
  return outcome;
}
