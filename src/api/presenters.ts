import type { QrCode, Scan } from '../codes/qr-code-service.js';
import { kindOf } from '../codes/types/index.js';
import type { WebhookSettings } from '../webhooks/webhook-settings.js';
import type { Attempt, Delivery } from '../webhooks/delivery-service.js';
import type { ApiQrCode, ApiScan, ApiWebhook, ApiWebhookAttempt, ApiWebhookDelivery } from './contract.js';

type ApiRoutingConditions = NonNullable<ApiQrCode['routing']>['rules'][number]['when'];

/** The API shape of a code. `shortUrl` depends on where this instance is reachable, so it is built here. */
export function presentQrCode(code: QrCode, siteUrl: string): ApiQrCode {
  const shortUrl = `${siteUrl}/r/${code.slug}`;
  return {
    id: code.id,
    name: code.name,
    // The database checks `type` against the same seventeen values as the contract's enum.
    type: code.type as ApiQrCode['type'],
    slug: code.slug,
    // A landing page lives at the short URL: said from this instance's SITE_URL, not the one it was created under.
    destinationUrl: kindOf(code.type) === 'page' ? shortUrl : code.destinationUrl,
    scanCount: code.scanCount,
    uniqueScanCount: code.uniqueScanCount,
    active: code.active,
    createdAt: code.createdAt.toISOString(),
    shortUrl,
    routing: code.routing && {
      timeZone: code.routing.timeZone,
      // parseRouting keeps devices to the classes scans record, the contract's Device enum.
      rules: code.routing.rules.map((rule) => ({ id: rule.id, name: rule.name ?? null, when: rule.when as ApiRoutingConditions, destinationUrl: rule.destinationUrl })),
      split: code.routing.split ?? null,
    },
    activeFrom: code.activeFrom?.toISOString() ?? null,
    expiresAt: code.expiresAt?.toISOString() ?? null,
    scanLimit: code.scanLimit,
    expiredUrl: code.expiredUrl,
  };
}

export function presentScan(scan: Scan): ApiScan {
  return {
    createdAt: scan.createdAt.toISOString(),
    device: scan.device as ApiScan['device'],
    os: scan.os,
    browser: scan.browser,
    country: scan.country,
    region: scan.region,
    city: scan.city,
    language: scan.language,
    unique: scan.unique,
    ruleId: scan.ruleId,
    variant: scan.variant,
  };
}

/** Webhook settings as integrators see them: never the secret. */
export function presentWebhook(settings: WebhookSettings): ApiWebhook {
  return {
    url: settings.url,
    enabled: settings.enabled,
    disabledAt: settings.disabledAt?.toISOString() ?? null,
    disabledReason: settings.disabledReason,
    previousSecretExpiresAt: settings.previousSecretExpiresAt?.toISOString() ?? null,
    consecutiveFailures: settings.consecutiveFailures,
    createdAt: settings.createdAt.toISOString(),
    updatedAt: settings.updatedAt.toISOString(),
  };
}

export function presentDelivery(delivery: Delivery): ApiWebhookDelivery {
  return {
    id: delivery.id,
    event: delivery.event as ApiWebhookDelivery['event'],
    qrCodeId: delivery.qrCodeId,
    status: delivery.status,
    attemptCount: delivery.attemptCount,
    nextAttemptAt: delivery.nextAttemptAt?.toISOString() ?? null,
    lastAttemptAt: delivery.lastAttemptAt?.toISOString() ?? null,
    lastStatusCode: delivery.lastStatusCode,
    lastError: delivery.lastError,
    createdAt: delivery.createdAt.toISOString(),
    completedAt: delivery.completedAt?.toISOString() ?? null,
    payload: JSON.parse(delivery.body) as ApiWebhookDelivery['payload'],
  };
}

export function presentAttempt(attempt: Attempt): ApiWebhookAttempt {
  return { ...attempt, startedAt: attempt.startedAt.toISOString() };
}
