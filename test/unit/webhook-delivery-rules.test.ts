import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_DELAYS_MS, defaultJitter, nextRetryDelay, parseRetryAfter } from '../../src/webhooks/retry-schedule.js';
import { newWebhookSecret, serviceSignature, webhookHeaders } from '../../src/webhooks/signatures.js';
import { isPublicAddress, validateWebhookUrl, WebhookUrlError } from '../../src/webhooks/url-guard.js';

describe('signatures', () => {
  it('X-Service-Signature is lowercase hex HMAC-SHA256 of the body keyed with the secret as UTF-8', () => {
    const body = '{"event":"scan.created","name":"Café"}';
    const secret = 'whsec_c2VjcmV0';
    expect(serviceSignature(body, secret)).toBe(createHmac('sha256', Buffer.from(secret, 'utf8')).update(Buffer.from(body, 'utf8')).digest('hex'));
    expect(serviceSignature(body, secret)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('webhook-signature verifies with the Standard Webhooks library, for each secret listed', () => {
    const [current, previous] = [newWebhookSecret(), newWebhookSecret()];
    const body = '{"event":"scan.created"}';
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = webhookHeaders({ id: 'whd_1', event: 'scan.created', body, timestamp, secret: current, previousSecret: previous });
    const standard = { 'webhook-id': headers['webhook-id']!, 'webhook-timestamp': headers['webhook-timestamp']!, 'webhook-signature': headers['webhook-signature']! };
    expect(new Webhook(current).verify(body, standard)).toEqual({ event: 'scan.created' });
    expect(new Webhook(previous).verify(body, standard)).toEqual({ event: 'scan.created' });
    expect(() => new Webhook(newWebhookSecret()).verify(body, standard)).toThrow();
    expect(headers['X-Service-Signature']).toBe(serviceSignature(body, current));
  });
});

describe('retry schedule', () => {
  const policy = { delaysMs: DEFAULT_RETRY_DELAYS_MS, jitter: (ms: number) => ms };

  it('follows 5 s, 5 m, 30 m, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h, then gives up (10 attempts)', () => {
    const delays = Array.from({ length: 10 }, (_, i) => nextRetryDelay(policy, i + 1));
    expect(delays).toEqual([5e3, 3e5, 18e5, 72e5, 18e6, 36e6, 504e5, 72e6, 864e5, undefined]);
  });

  it('uses Retry-After instead, kept within 1 s and 24 h, but never beyond the last attempt', () => {
    expect(nextRetryDelay(policy, 1, 120_000)).toBe(120_000);
    expect(nextRetryDelay(policy, 1, 0)).toBe(1_000);
    expect(nextRetryDelay(policy, 1, 7 * 86_400_000)).toBe(86_400_000);
    expect(nextRetryDelay(policy, 10, 1_000)).toBeUndefined();
  });

  it('jitters by at most 10 %', () => {
    for (let i = 0; i < 1000; i++) {
      const delay = defaultJitter(100_000);
      expect(delay).toBeGreaterThanOrEqual(90_000);
      expect(delay).toBeLessThanOrEqual(110_000);
    }
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 10:01:00 GMT', now)).toBe(60_000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});

describe('webhook URL guard', () => {
  const publicDns = async () => ['93.184.215.14'];

  it.each([
    '127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1',
    '255.255.255.255', '::1', '::', 'fe80::1', 'fc00::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', 'not-an-ip',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111'])('allows %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each([
    ['http://127.0.0.1/hook', /127\.0\.0\.1/],
    ['http://[::1]:8080/hook', /::1/],
    ['http://[::ffff:7f00:1]/hook', /must point to a public address/],
    ['http://2130706433/hook', /127\.0\.0\.1/], // WHATWG parses a decimal host as 127.0.0.1
    ['ftp://example.com/hook', /http or https/],
    ['javascript:alert(1)', /http or https/],
    ['https://u:p@example.com/hook', /credentials/],
    ['https://example.com/hook#frag', /fragment/],
    ['example.com/hook', /absolute/],
    [`https://example.com/${'a'.repeat(2100)}`, /at most 2048/],
  ])('refuses %s', async (url, message) => {
    await expect(validateWebhookUrl(url, { allowPrivate: false, resolve: publicDns })).rejects.toThrow(message);
  });

  it('refuses a name that resolves to any private address', async () => {
    const resolve = async () => ['93.184.215.14', '10.0.0.5'];
    await expect(validateWebhookUrl('https://hooks.example.com/x', { allowPrivate: false, resolve })).rejects.toThrow(/hooks\.example\.com resolves to 10\.0\.0\.5, which is not one/);
  });

  it('refuses a name that does not resolve, naming the reason', async () => {
    await expect(validateWebhookUrl('https://does-not-exist.invalid/x', { allowPrivate: false })).rejects.toThrow(WebhookUrlError);
  });

  it('accepts public targets (normalised) and, when allowed, private ones', async () => {
    expect(await validateWebhookUrl('HTTPS://Hooks.Example.com/in?x=1', { allowPrivate: false, resolve: publicDns })).toBe('https://hooks.example.com/in?x=1');
    expect(await validateWebhookUrl('http://127.0.0.1:9000/hook', { allowPrivate: true })).toBe('http://127.0.0.1:9000/hook');
  });
});
