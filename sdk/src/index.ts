/**
 * @qroute/sdk: the typed client for the qroute v1 API and the webhook signature check, both generated from and
 * checked against the same contract (openapi/v1.yaml) as the server.
 */
export { createClient } from './client.js';
export type {
  CreateQrCodeInput,
  QrCode,
  QrCodeImageOptions,
  QrouteClient,
  QrouteClientOptions,
  Scan,
  UpdateQrCodeInput,
  Webhook,
  WebhookAttempt,
  WebhookDelivery,
  WebhookDeliveryStatus,
} from './client.js';
export { QrouteError, type ErrorCode } from './errors.js';
export { verifyWebhook, WebhookVerificationError, type ScanCreatedEvent, type VerifyWebhookOptions, type WebhookEvent, type WebhookTestEvent } from './webhooks.js';
export type { components, operations, paths } from '../../generated/v1.js';
