/**
 * The destination check codes use (src/codes/destination-url.ts), for rules and split variants: the same rules and
 * limits, so a URL a code accepts a rule accepts too. A copy, not an import: codes will store routings and so import
 * this folder, and the layer check refuses folders that import each other. Change both together.
 */
const MAX_URL_LENGTH = 2048;

export type DestinationUrlResult = { ok: true; href: string } | { ok: false; message: string };

/** Absolute, http(s), with a host, without credentials; returned in the WHATWG normal form sent in `Location`. */
export function parseRoutingDestination(raw: unknown): DestinationUrlResult {
  if (typeof raw !== 'string') return { ok: false, message: 'must be a URL as a string' };
  if (raw.length > MAX_URL_LENGTH) return { ok: false, message: `must be at most ${MAX_URL_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, message: 'must be an absolute URL (https://example.com/page)' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, message: 'must use http or https' };
  if (!url.hostname) return { ok: false, message: 'must have a host' };
  if (url.username || url.password) return { ok: false, message: 'must not contain credentials' };
  if (url.href.length > MAX_URL_LENGTH) {
    return { ok: false, message: `must be at most ${MAX_URL_LENGTH} characters once normalized` };
  }
  return { ok: true, href: url.href };
}
