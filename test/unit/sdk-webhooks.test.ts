import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyWebhook, WebhookVerificationError } from '../../sdk/src/index.js';
import { newWebhookSecret, webhookHeaders } from '../../src/webhooks/signatures.js';

const secret = newWebhookSecret();
const body = '{"event":"scan.created","qrCodeId":"qr_1","slug":"ABCDEFGH","name":"Poster","device":"mobile","os":"iOS","browser":"Mobile Safari"}';
const now = Date.parse('2026-11-22T10:00:00Z');
const signed = (overrides: { body?: string; secret?: string; timestamp?: number } = {}) =>
  webhookHeaders({
    id: 'whd_1',
    event: 'scan.created',
    body: overrides.body ?? body,
    timestamp: overrides.timestamp ?? now / 1000,
    secret: overrides.secret ?? secret,
  });
const options = { now: () => now };

describe('verifyWebhook', () => {
  it('returns the typed payload of a correctly signed webhook (string, bytes, Headers or a plain object)', () => {
    const headers = signed();
    expect(verifyWebhook(body, headers, secret, options)).toMatchObject({ event: 'scan.created', slug: 'ABCDEFGH' });
    expect(verifyWebhook(Buffer.from(body), new Headers(headers), secret, options)).toMatchObject({ name: 'Poster' });
  });

  it('rejects a tampered body', () => {
    expect(() => verifyWebhook(body.replace('Poster', 'Poster!'), signed(), secret, options)).toThrow(WebhookVerificationError);
  });

  it('rejects a wrong secret', () => {
    expect(() => verifyWebhook(body, signed(), newWebhookSecret(), options)).toThrow(/X-Service-Signature does not match/);
  });

  it('rejects a signature of another length, and an upper-case one', () => {
    const headers = signed();
    const shorter = { ...headers, 'X-Service-Signature': headers['X-Service-Signature']!.slice(0, 63) };
    expect(() => verifyWebhook(body, shorter, secret, options)).toThrow(/X-Service-Signature/);
    const upper = { ...headers, 'X-Service-Signature': headers['X-Service-Signature']!.toUpperCase() };
    expect(() => verifyWebhook(body, upper, secret, options)).toThrow(/X-Service-Signature/);
  });

  it('rejects a stale or future webhook-timestamp (replay)', () => {
    expect(() => verifyWebhook(body, signed({ timestamp: now / 1000 - 301 }), secret, options)).toThrow(/outside the tolerance/);
    expect(() => verifyWebhook(body, signed({ timestamp: now / 1000 + 301 }), secret, options)).toThrow(/outside the tolerance/);
    expect(verifyWebhook(body, signed({ timestamp: now / 1000 - 3_000 }), secret, { ...options, toleranceSeconds: 3_600 })).toBeTruthy();
  });

  it('rejects a missing signature, and a webhook-signature that does not match', () => {
    const { 'X-Service-Signature': _, ...withoutSignature } = signed();
    expect(() => verifyWebhook(body, withoutSignature, secret, options)).toThrow(/missing X-Service-Signature/);
    const other = signed({ secret: newWebhookSecret() });
    const mixed = { ...signed(), 'webhook-signature': other['webhook-signature']! };
    expect(() => verifyWebhook(body, mixed, secret, options)).toThrow(/no webhook-signature entry matches/);
  });

  it('checks only the spec header when the Standard Webhooks headers are absent', () => {
    const hex = createHmac('sha256', secret).update(body).digest('hex');
    expect(verifyWebhook(body, { 'x-service-signature': hex }, secret)).toMatchObject({ event: 'scan.created' });
  });

  it('accepts any of several secrets, for a rotation', () => {
    expect(verifyWebhook(body, signed(), [newWebhookSecret(), secret], options)).toBeTruthy();
  });
});
