import { createHmac, timingSafeEqual } from 'node:crypto';
import type { components } from '../../generated/v1.js';

export type ScanCreatedEvent = components['schemas']['ScanCreatedEvent'];
export type WebhookTestEvent = components['schemas']['WebhookTestEvent'];
export type WebhookEvent = ScanCreatedEvent | WebhookTestEvent;

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

export interface VerifyWebhookOptions {
  /** Largest age (either way) of `webhook-timestamp` accepted, in seconds; 300 by default. */
  toleranceSeconds?: number;
  /** Current time in milliseconds (tests). */
  now?: () => number;
}

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

/**
 * Checks a webhook the way the spec's receiver steps say, then returns its payload.
 *
 * 1. `X-Service-Signature` must equal the lowercase hex HMAC-SHA256 of the raw body (as received, before any JSON
 *    parsing) keyed with the secret: equal length, compared in constant time.
 * 2. When the Standard Webhooks headers are present, `webhook-timestamp` must be within the tolerance (replays are
 *    refused) and one `webhook-signature` entry must match.
 *
 * `secret` may be a list, for the time while you switch to a rotated secret. Throws `WebhookVerificationError`.
 */
export function verifyWebhook(rawBody: string | Uint8Array, headers: HeaderBag, secret: string | readonly string[], options: VerifyWebhookOptions = {}): WebhookEvent {
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
  const secrets = typeof secret === 'string' ? [secret] : [...secret];
  if (secrets.length === 0) throw new WebhookVerificationError('no secret given');

  const signature = header(headers, 'x-service-signature');
  if (!signature) throw new WebhookVerificationError('missing X-Service-Signature header');
  const received = Buffer.from(signature, 'utf8');
  const matches = secrets.some((s) => {
    const expected = Buffer.from(createHmac('sha256', Buffer.from(s, 'utf8')).update(body).digest('hex'), 'utf8');
    return expected.length === received.length && timingSafeEqual(expected, received);
  });
  if (!matches) throw new WebhookVerificationError('X-Service-Signature does not match the body');

  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const standardSignatures = header(headers, 'webhook-signature');
  if (id !== undefined || timestamp !== undefined || standardSignatures !== undefined) {
    if (!id || !timestamp || !standardSignatures) throw new WebhookVerificationError('incomplete webhook-id / webhook-timestamp / webhook-signature headers');
    verifyStandard({ id, timestamp, signatures: standardSignatures, body, secrets, options });
  }

  try {
    return JSON.parse(body.toString('utf8')) as WebhookEvent;
  } catch {
    throw new WebhookVerificationError('the body is not JSON');
  }
}

function verifyStandard(input: { id: string; timestamp: string; signatures: string; body: Buffer; secrets: string[]; options: VerifyWebhookOptions }): void {
  const seconds = /^\d+$/.test(input.timestamp) ? Number(input.timestamp) : NaN;
  const now = (input.options.now?.() ?? Date.now()) / 1000;
  const tolerance = input.options.toleranceSeconds ?? 300;
  if (!Number.isFinite(seconds) || Math.abs(now - seconds) > tolerance) {
    throw new WebhookVerificationError('webhook-timestamp is outside the tolerance (a replay, or a clock far off)');
  }
  const signed = Buffer.concat([Buffer.from(`${input.id}.${input.timestamp}.`, 'utf8'), input.body]);
  const offered = input.signatures
    .split(' ')
    .filter((entry) => entry.startsWith('v1,'))
    .map((entry) => Buffer.from(entry.slice(3), 'base64'));
  const matches = input.secrets.some((s) => {
    const key = Buffer.from(s.startsWith('whsec_') ? s.slice(6) : s, 'base64');
    const expected = createHmac('sha256', key).update(signed).digest();
    return offered.some((candidate) => candidate.length === expected.length && timingSafeEqual(candidate, expected));
  });
  if (!matches) throw new WebhookVerificationError('no webhook-signature entry matches');
}

function header(headers: HeaderBag, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const bag = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(bag).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : bag[key];
  return Array.isArray(value) ? value[0] : value;
}
