import { Router } from 'express';
import { confirmRemoveWebhook } from './confirm-remove-webhook.js';
import { confirmRevokeApiKey } from './confirm-revoke-api-key.js';
import { createApiKeyAction } from './create-api-key.js';
import { listDeliveriesAction } from './list-deliveries.js';
import { redeliverAction } from './redeliver.js';
import { removeWebhookAction } from './remove-webhook.js';
import { revealWebhookSecretAction } from './reveal-webhook-secret.js';
import { revokeApiKeyAction } from './revoke-api-key.js';
import { rotateWebhookSecretAction } from './rotate-webhook-secret.js';
import { saveWebhook } from './save-webhook.js';
import { sendTestEvent } from './send-test-event.js';
import { showDelivery } from './show-delivery.js';
import { showOverview } from './show-overview.js';
import type { DashboardDependencies } from '../shared/context.js';
import { requireOwner } from '../shared/middleware.js';

/** /api-and-webhooks — API keys, the webhook, deliveries (owners only). */
export function apiWebhooksRoutes(deps: DashboardDependencies): Router {
  const router = Router();
  // Once for the whole section, before any route, so no page or action of it can forget it.
  router.use('/api-and-webhooks', requireOwner);
  router.get('/api-and-webhooks', showOverview(deps));
  router.post('/api-and-webhooks/keys', createApiKeyAction(deps));
  router.get('/api-and-webhooks/keys/:keyId/revoke', confirmRevokeApiKey(deps));
  router.post('/api-and-webhooks/keys/:keyId/revoke', revokeApiKeyAction(deps));
  router.post('/api-and-webhooks/webhook', saveWebhook(deps));
  router.post('/api-and-webhooks/webhook/secret', revealWebhookSecretAction(deps));
  router.post('/api-and-webhooks/webhook/rotate', rotateWebhookSecretAction(deps));
  router.post('/api-and-webhooks/webhook/test', sendTestEvent(deps));
  router.get('/api-and-webhooks/webhook/remove', confirmRemoveWebhook(deps));
  router.post('/api-and-webhooks/webhook/remove', removeWebhookAction(deps));
  router.get('/api-and-webhooks/deliveries', listDeliveriesAction(deps));
  router.get('/api-and-webhooks/deliveries/:deliveryId', showDelivery(deps));
  router.post('/api-and-webhooks/deliveries/:deliveryId/redeliver', redeliverAction(deps));
  return router;
}
