import { WebhookNotConfiguredError } from '../../webhooks/webhook-settings.js';
import type { AttemptOutcome } from '../../webhooks/delivery-attempt.js';
import { attemptNow, DeliveryInFlightError, DeliveryNotFoundError } from '../../webhooks/delivery-service.js';
import { DEFAULT_RETRY_DELAYS_MS, defaultJitter } from '../../webhooks/retry-schedule.js';
import { WebhookSender } from '../../webhooks/sender.js';
import type { DashboardDependencies } from '../shared/context.js';
import { DashboardError } from '../shared/errors.js';

/**
 * One attempt made now, in this request, so the owner sees its outcome: the admin CLI's `webhook test` and
 * `webhook redeliver` path (attemptNow), with a sender of its own under the same address guard as the worker's.
 * The caller has already checked that a delivery id belongs to the account: attemptNow does not scope it.
 */
export async function attemptFromDashboard(
  deps: DashboardDependencies,
  target: Parameters<typeof attemptNow>[1],
): Promise<AttemptOutcome> {
  const sender = new WebhookSender({ allowPrivateAddresses: deps.config.allowPrivateWebhookUrls });
  try {
    return await attemptNow(
      { db: deps.db, box: deps.box, sender, retryPolicy: { delaysMs: DEFAULT_RETRY_DELAYS_MS, jitter: defaultJitter } },
      target,
    );
  } catch (error) {
    throw asDashboardError(error);
  } finally {
    sender.close();
  }
}

function asDashboardError(error: unknown): unknown {
  if (error instanceof WebhookNotConfiguredError) {
    return new DashboardError(409, 'No webhook is set', 'Save a webhook URL first; then test events and redeliveries have somewhere to go.');
  }
  if (error instanceof DeliveryInFlightError) {
    return new DashboardError(409, 'That delivery is being sent right now', 'Wait a few seconds for the attempt to be recorded, then try again.');
  }
  if (error instanceof DeliveryNotFoundError) {
    return new DashboardError(404, 'Not found', 'There is nothing here, or it belongs to another account.');
  }
  return error;
}
