import { Router } from 'express';
import { confirmRemoveWebhook } from '../actions/api-webhooks/confirm-remove-webhook.js';
import { confirmRevokeApiKey } from '../actions/api-webhooks/confirm-revoke-api-key.js';
import { createApiKeyAction } from '../actions/api-webhooks/create-api-key.js';
import { listDeliveriesAction } from '../actions/api-webhooks/list-deliveries.js';
import { redeliverAction } from '../actions/api-webhooks/redeliver.js';
import { removeWebhookAction } from '../actions/api-webhooks/remove-webhook.js';
import { revealWebhookSecretAction } from '../actions/api-webhooks/reveal-webhook-secret.js';
import { revokeApiKeyAction } from '../actions/api-webhooks/revoke-api-key.js';
import { rotateWebhookSecretAction } from '../actions/api-webhooks/rotate-webhook-secret.js';
import { saveWebhook } from '../actions/api-webhooks/save-webhook.js';
import { sendTestEvent } from '../actions/api-webhooks/send-test-event.js';
import { showDelivery } from '../actions/api-webhooks/show-delivery.js';
import { showOverview } from '../actions/api-webhooks/show-overview.js';
import type { DashboardDependencies } from '../context.js';
import { requireOwner } from '../middleware.js';

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
