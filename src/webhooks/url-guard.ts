import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export class WebhookUrlError extends Error {}

const MAX_URL_LENGTH = 2048;

/**
 * Whether the worker may connect to `address`. The same rule as request-filtering-agent applies at connect time
 * (only ipaddr.js's `unicast` range), so registration and delivery never disagree: loopback, private, link-local,
 * carrier-grade NAT, multicast, reserved and IPv4-mapped addresses are all refused.
 */
export function isPublicAddress(address: string): boolean {
  try {
    return ipaddr.parse(address).range() === 'unicast';
  } catch {
    return false;
  }
}

/**
 * Checks a webhook URL before it is stored: absolute http(s), no credentials, no fragment, and, unless private
 * targets are allowed, a host that resolves only to public addresses. The connect-time guard repeats the address
 * check on every connection, so a name that later resolves somewhere private (DNS rebinding) is still refused.
 */
export async function validateWebhookUrl(
  raw: string,
  options: { allowPrivate: boolean; resolve?: (host: string) => Promise<string[]> },
): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookUrlError(`webhook URL must be an absolute http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new WebhookUrlError(`webhook URL must use http or https, got "${url.protocol}"`);
  }
  if (url.username || url.password) throw new WebhookUrlError('webhook URL must not carry credentials');
  if (url.hash) throw new WebhookUrlError('webhook URL must not have a fragment (it is never sent)');
  if (url.href.length > MAX_URL_LENGTH) throw new WebhookUrlError(`webhook URL must be at most ${MAX_URL_LENGTH} characters`);
  if (options.allowPrivate) return url.href;

  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const addresses = isIP(host) ? [host] : await (options.resolve ?? resolveAll)(host);
  const refused = addresses.find((address) => !isPublicAddress(address));
  if (refused) {
    const where = refused === host ? host : `${host} resolves to ${refused}, which`;
    throw new WebhookUrlError(
      `webhook URL must point to a public address; ${where} is not one (private, loopback and link-local targets are refused)`,
    );
  }
  return url.href;
}

async function resolveAll(host: string): Promise<string[]> {
  try {
    const answers = await lookup(host, { all: true, verbatim: true });
    return answers.map((answer) => answer.address);
  } catch (error) {
    throw new WebhookUrlError(`webhook URL host ${host} does not resolve (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}
