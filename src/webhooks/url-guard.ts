import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export class WebhookUrlError extends Error {}

const MAX_URL_LENGTH = 2048;

/** What an operator developing against a receiver on their own machine needs to read in every refusal. */
export const PRIVATE_TARGETS_HINT =
  'private, loopback and special-purpose addresses are refused; set ALLOW_PRIVATE_WEBHOOK_URLS=true to allow them (local development only)';

type Range = { cidr: [ipaddr.IPv4 | ipaddr.IPv6, number]; label: string };

const range = (cidr: string, name: string): Range => ({ cidr: ipaddr.parseCIDR(cidr), label: `${cidr}, ${name}` });

/**
 * The IANA IPv4 Special-Purpose Address Registry, every entry, whether or not the registry calls it globally
 * reachable (none of them is where a webhook receiver lives), plus multicast and the reserved 240/4.
 */
const REFUSED_V4: readonly Range[] = [
  range('0.0.0.0/8', '"this network"'),
  range('10.0.0.0/8', 'private'),
  range('100.64.0.0/10', 'carrier-grade NAT'),
  range('127.0.0.0/8', 'loopback'),
  range('169.254.0.0/16', 'link-local, cloud metadata'),
  range('172.16.0.0/12', 'private'),
  range('192.0.0.0/24', 'IETF protocol assignments'),
  range('192.0.2.0/24', 'documentation'),
  range('192.31.196.0/24', 'AS112'),
  range('192.52.193.0/24', 'AMT'),
  range('192.88.99.0/24', '6to4 relay anycast'),
  range('192.168.0.0/16', 'private'),
  range('192.175.48.0/24', 'AS112 direct delegation'),
  range('198.18.0.0/15', 'benchmarking'),
  range('198.51.100.0/24', 'documentation'),
  range('203.0.113.0/24', 'documentation'),
  range('224.0.0.0/4', 'multicast'),
  range('240.0.0.0/4', 'reserved, broadcast'),
];

/**
 * The IANA IPv6 Special-Purpose Address Registry, every entry. The ranges that embed an IPv4 address (mapped,
 * IPv4-compatible ::/96, NAT64, 6to4, Teredo) are refused whole: whatever they embed, a translator or tunnel on
 * the path may deliver them to it, and ipaddr.js calls some of them plain unicast.
 */
const REFUSED_V6: readonly Range[] = [
  range('::/128', 'unspecified'),
  range('::1/128', 'loopback'),
  range('::/96', 'IPv4-compatible (deprecated)'),
  range('::ffff:0:0/96', 'IPv4-mapped'),
  range('64:ff9b::/96', 'NAT64'),
  range('64:ff9b:1::/48', 'local-use NAT64'),
  range('100::/64', 'discard-only'),
  range('100:0:0:1::/64', 'dummy prefix'),
  range('2001::/32', 'Teredo'),
  range('2001::/23', 'IETF protocol assignments'),
  range('2001:db8::/32', 'documentation'),
  range('2002::/16', '6to4'),
  range('2620:4f:8000::/48', 'AS112 direct delegation'),
  range('3fff::/20', 'documentation'),
  range('5f00::/16', 'segment routing SIDs'),
  range('fc00::/7', 'unique local'),
  range('fe80::/10', 'link-local'),
  range('ff00::/8', 'multicast'),
];

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/**
 * Why the worker must not connect to `address`, or undefined when it may. The one rule for webhook targets, used
 * when a URL is registered and again on every connection the sender opens (see guarded-agent.ts). An address
 * that does not parse is refused.
 */
export function addressRefusal(address: string): string | undefined {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return 'not an IP address';
  }
  if (parsed.kind() === 'ipv4') return REFUSED_V4.find((r) => parsed.match(r.cidr))?.label;
  const v6 = parsed as ipaddr.IPv6;
  // Checked before the global unicast test so the refusal names the range (IPv4-mapped rather than "not global").
  const special = REFUSED_V6.find((r) => v6.match(r.cidr));
  if (special) return special.label;
  if (!v6.match(GLOBAL_UNICAST_V6)) return 'outside 2000::/3, not global unicast';
  return undefined;
}

export function isPublicAddress(address: string): boolean {
  return addressRefusal(address) === undefined;
}

/** The refusal message for `host` (resolving to `address`, when a name), the same at registration and at connect time. */
export function refusalMessage(host: string, address: string, reason: string): string {
  const where = address === host ? address : `${host} resolves to ${address}, which`;
  return `${where} is not one (${reason}); ${PRIVATE_TARGETS_HINT}`;
}

/**
 * Checks a webhook URL before it is stored: absolute http(s), no credentials, no fragment, and, unless private
 * targets are allowed, a host that resolves only to public addresses. The URL is parsed the WHATWG way, the same
 * way got parses it when sending, so decimal, octal, hex and short IPv4 forms (`http://2130706433/`,
 * `http://0x7f.1/`, `http://127.1/`) arrive here as the dotted address they mean. The connect-time guard repeats
 * the address check on every connection, so a name that later resolves somewhere private (DNS rebinding) is still
 * refused.
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
  for (const address of addresses) {
    const reason = addressRefusal(address);
    if (reason) throw new WebhookUrlError(`webhook URL must point to a public address; ${refusalMessage(host, address, reason)}`);
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
