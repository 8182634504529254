import { createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

/** `whsec_` + base64 of 32 random bytes: the Standard Webhooks secret format, so its libraries accept it. */
export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/** The spec's `X-Service-Signature`: lowercase hex HMAC-SHA256 of the raw body, keyed with the secret's UTF-8 bytes. */
export function serviceSignature(body: string, secret: string): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(body, 'utf8').digest('hex');
}

/**
 * One Standard Webhooks signature: `v1,` + base64 HMAC-SHA256 of `<id>.<timestamp>.<body>`, keyed with the
 * base64-decoded part of the secret after `whsec_` (that standard's rule, unlike the spec's header).
 */
export function standardSignature(input: { id: string; timestamp: number; body: string }, secret: string): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  const mac = createHmac('sha256', key).update(`${input.id}.${input.timestamp}.${input.body}`, 'utf8').digest('base64');
  return `v1,${mac}`;
}

/**
 * Every header of one attempt. `X-Service-Signature` uses the current secret; `webhook-signature` lists the
 * current one and, during a rotation overlap, the previous one, space-separated.
 */
export function webhookHeaders(input: {
  id: string;
  event: string;
  body: string;
  timestamp: number;
  secret: string;
  previousSecret?: string | null;
}): Record<string, string> {
  const secrets = input.previousSecret ? [input.secret, input.previousSecret] : [input.secret];
  return {
    'Content-Type': 'application/json',
    'User-Agent': 'qroute-webhooks/1',
    'X-Service-Event': input.event,
    'X-Service-Signature': serviceSignature(input.body, input.secret),
    'webhook-id': input.id,
    'webhook-timestamp': String(input.timestamp),
    'webhook-signature': secrets.map((secret) => standardSignature(input, secret)).join(' '),
  };
}
