/** The event kinds a delivery can carry: the spec's one, and the test event the admin CLI sends. */
export type WebhookEvent = 'scan.created' | 'webhook.test';

/**
 * The body of a `scan.created` delivery: the spec's seven fields first, then the additions (`id`, equal to the
 * `webhook-id` header, for de-duplication; `createdAt`, the scan's time; `country`, `language` and `unique`, the
 * audience, docs/dashboard/audience.md; `ruleId` and `variant`, how it was routed, docs/api/routing.md). Fields may be added, never removed; new ones go last.
 * Serialised once, when the scan is written; every attempt sends (and signs) these exact bytes.
 */
export function scanCreatedBody(input: {
  deliveryId: string;
  qrCodeId: string;
  slug: string;
  name: string;
  device: string;
  os: string;
  browser: string;
  at: Date;
  country: string | null;
  language: string | null;
  /** Null when it is not known (the day's secret was unavailable). */
  unique: boolean | null;
  /** How the scan was routed (issue 28): the rule's id, or the split's variant (index); null when neither answered. */
  ruleId: string | null;
  variant: number | null;
}): string {
  return JSON.stringify({
    event: 'scan.created',
    qrCodeId: input.qrCodeId,
    slug: input.slug,
    name: input.name,
    device: input.device,
    os: input.os,
    browser: input.browser,
    id: input.deliveryId,
    createdAt: input.at.toISOString(),
    country: input.country,
    language: input.language,
    unique: input.unique,
    ruleId: input.ruleId,
    variant: input.variant,
  });
}

/** A `webhook.test` body: lets an operator check reachability and signatures without a real scan. */
export function testEventBody(input: { deliveryId: string; at: Date }): string {
  return JSON.stringify({ event: 'webhook.test', id: input.deliveryId, createdAt: input.at.toISOString() });
}
