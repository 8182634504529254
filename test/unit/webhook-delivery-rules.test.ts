import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_DELAYS_MS, defaultJitter, nextRetryDelay, parseRetryAfter } from '../../src/webhooks/retry-schedule.js';
import { newWebhookSecret, serviceSignature, webhookHeaders } from '../../src/webhooks/signatures.js';
import { addressRefusal, isPublicAddress, validateWebhookUrl, WebhookUrlError } from '../../src/webhooks/url-guard.js';

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

  // One address from every IANA special-purpose range (IPv4 and IPv6 registries), and the IPv6 forms that embed
  // an IPv4 address, which ipaddr.js's `unicast` (the old rule) let through.
  it.each([
    ['0.1.2.3', '0.0.0.0/8'], ['10.1.2.3', '10.0.0.0/8'], ['100.64.0.1', '100.64.0.0/10'], ['127.0.0.1', '127.0.0.0/8'],
    ['169.254.169.254', '169.254.0.0/16'], ['172.16.0.1', '172.16.0.0/12'], ['172.31.255.255', '172.16.0.0/12'],
    ['192.0.0.9', '192.0.0.0/24'], ['192.0.2.1', '192.0.2.0/24'], ['192.31.196.1', '192.31.196.0/24'],
    ['192.52.193.1', '192.52.193.0/24'], ['192.88.99.1', '192.88.99.0/24'], ['192.168.1.1', '192.168.0.0/16'],
    ['192.175.48.1', '192.175.48.0/24'], ['198.18.0.1', '198.18.0.0/15'], ['198.19.255.1', '198.18.0.0/15'],
    ['198.51.100.1', '198.51.100.0/24'], ['203.0.113.1', '203.0.113.0/24'], ['224.0.0.1', '224.0.0.0/4'],
    ['239.255.255.250', '224.0.0.0/4'], ['240.0.0.1', '240.0.0.0/4'], ['255.255.255.255', '240.0.0.0/4'],
    ['::', '::/128'], ['::1', '::1/128'], // ipaddr.js reads the dotted IPv6 tail as IPv4-mapped; either way it is refused.
    ['::127.0.0.1', '/96, IPv4-'], ['::169.254.169.254', '/96, IPv4-'], ['::7f00:1', '::/96'],
    ['::ffff:127.0.0.1', '::ffff:0:0/96'], ['::ffff:7f00:1', '::ffff:0:0/96'], ['::ffff:8.8.8.8', '::ffff:0:0/96'],
    ['64:ff9b::10.0.0.1', '64:ff9b::/96'], ['64:ff9b::8.8.8.8', '64:ff9b::/96'], ['64:ff9b:1::a00:1', '64:ff9b:1::/48'],
    ['100::1', '100::/64'], ['100:0:0:1::1', '100:0:0:1::/64'], ['2001::7f00:1', '2001::/32'], ['2001:0:4136:e378:8000:63bf:3fff:fdd2', '2001::/32'],
    ['2001:2::1', '2001::/23'], ['2001:20::1', '2001::/23'], ['2001:db8::1', '2001:db8::/32'], ['2002:7f00:1::', '2002::/16'],
    ['2002:a9fe:a9fe::1', '2002::/16'], ['2620:4f:8000::1', '2620:4f:8000::/48'], ['3fff::1', '3fff::/20'], ['5f00::1', '5f00::/16'],
    ['fc00::1', 'fc00::/7'], ['fd12:3456::1', 'fc00::/7'], ['fe80::1', 'fe80::/10'], ['fe80::1%eth0', 'fe80::/10'], ['ff02::1', 'ff00::/8'],
    ['4000::1', 'outside 2000::/3'], ['e000::1', 'outside 2000::/3'], ['not-an-ip', 'not an IP address'],
  ])('refuses %s (%s)', (address, why) => {
    expect(isPublicAddress(address)).toBe(false);
    expect(addressRefusal(address)).toContain(why);
  });

  it.each(['93.184.215.14', '8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '2a00:1450:4001::200e', '2001:200::1'])(
    'allows %s',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );

  // Every way of writing a refused address in a URL. WHATWG URL parsing (what `new URL` and got do) turns the
  // decimal, octal, hex and short IPv4 forms into the dotted address, and compresses IPv6 embedding forms.
  it.each([
    ['http://127.0.0.1/hook', '127.0.0.1', '127.0.0.0/8'],
    ['http://2130706433/hook', '127.0.0.1', '127.0.0.0/8'],
    ['http://0x7f.1/hook', '127.0.0.1', '127.0.0.0/8'],
    ['http://0x7f000001/hook', '127.0.0.1', '127.0.0.0/8'],
    ['http://017700000001/hook', '127.0.0.1', '127.0.0.0/8'],
    ['http://0177.0.0.1/hook', '127.0.0.1', '127.0.0.0/8'],
    ['http://127.1/hook', '127.0.0.1', '127.0.0.0/8'],
    ['http://127.0.0.1./hook', '127.0.0.1', '127.0.0.0/8'],
    ['http://%31%32%37.0.0.1/hook', '127.0.0.1', '127.0.0.0/8'],
    ['http://169.254.169.254/latest/meta-data', '169.254.169.254', '169.254.0.0/16'],
    ['http://0/hook', '0.0.0.0', '0.0.0.0/8'],
    ['http://[::1]:8080/hook', '::1', '::1/128'],
    ['http://[::]/hook', '::', '::/128'],
    ['http://[::127.0.0.1]/hook', '::7f00:1', '::/96'],
    ['http://[::169.254.169.254]/hook', '::a9fe:a9fe', '::/96'],
    ['http://[::ffff:127.0.0.1]/hook', '::ffff:7f00:1', '::ffff:0:0/96'],
    ['http://[::ffff:7f00:1]/hook', '::ffff:7f00:1', '::ffff:0:0/96'],
    ['http://[0:0:0:0:0:ffff:169.254.169.254]/hook', '::ffff:a9fe:a9fe', '::ffff:0:0/96'],
    ['http://[64:ff9b::127.0.0.1]/hook', '64:ff9b::7f00:1', '64:ff9b::/96'],
    ['http://[64:ff9b:1::a9fe:a9fe]/hook', '64:ff9b:1::a9fe:a9fe', '64:ff9b:1::/48'],
    ['http://[2002:7f00:1::]/hook', '2002:7f00:1::', '2002::/16'],
    ['http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hook', '2001:0:4136:e378:8000:63bf:80ff:fffe', '2001::/32'],
    ['http://[fe80::1]/hook', 'fe80::1', 'fe80::/10'],
    ['http://[fd00::1]/hook', 'fd00::1', 'fc00::/7'],
    ['http://[ff02::1]/hook', 'ff02::1', 'ff00::/8'],
  ])('refuses %s, naming the address, the range and the switch', async (url, address, range) => {
    const refusal = validateWebhookUrl(url, { allowPrivate: false, resolve: publicDns });
    await expect(refusal).rejects.toThrow(WebhookUrlError);
    await expect(refusal).rejects.toThrow(`must point to a public address; ${address} is not one (${range}`);
    await expect(refusal).rejects.toThrow(/ALLOW_PRIVATE_WEBHOOK_URLS=true/);
  });

  it.each([
    ['ftp://example.com/hook', /http or https/],
    ['javascript:alert(1)', /http or https/],
    ['https://u:p@example.com/hook', /credentials/],
    ['https://example.com/hook#frag', /fragment/],
    ['example.com/hook', /absolute/],
    [`https://example.com/${'a'.repeat(2100)}`, /at most 2048/],
  ])('refuses %.60s', async (url, message) => {
    await expect(validateWebhookUrl(url, { allowPrivate: false, resolve: publicDns })).rejects.toThrow(message);
  });

  it('refuses a name that resolves to any private address, or to an address embedding one', async () => {
    const resolve = async () => ['93.184.215.14', '10.0.0.5'];
    await expect(validateWebhookUrl('https://hooks.example.com/x', { allowPrivate: false, resolve })).rejects.toThrow(
      /hooks\.example\.com resolves to 10\.0\.0\.5, which is not one \(10\.0\.0\.0\/8, private\); .*ALLOW_PRIVATE_WEBHOOK_URLS/,
    );
    const nat64 = async () => ['64:ff9b::a9fe:a9fe'];
    await expect(validateWebhookUrl('https://hooks.example.com/x', { allowPrivate: false, resolve: nat64 })).rejects.toThrow(/64:ff9b::\/96, NAT64/);
  });

  it('refuses a name that does not resolve, naming the reason', async () => {
    await expect(validateWebhookUrl('https://does-not-exist.invalid/x', { allowPrivate: false })).rejects.toThrow(WebhookUrlError);
  });

  it('accepts public targets (normalised) and, when allowed, private ones', async () => {
    expect(await validateWebhookUrl('HTTPS://Hooks.Example.com/in?x=1', { allowPrivate: false, resolve: publicDns })).toBe('https://hooks.example.com/in?x=1');
    expect(await validateWebhookUrl('https://[2606:4700:4700::1111]/in', { allowPrivate: false })).toBe('https://[2606:4700:4700::1111]/in');
    expect(await validateWebhookUrl('http://127.0.0.1:9000/hook', { allowPrivate: true })).toBe('http://127.0.0.1:9000/hook');
  });
});
