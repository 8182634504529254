export const MAX_URL_LENGTH = 2048;

export type DestinationUrlResult = { ok: true; href: string } | { ok: false; message: string };

/**
 * Checks a destination the way browsers will read it (WHATWG URL) and returns its normalized form, which is
 * what gets stored and sent in `Location`: absolute, http(s) only, with a host, without credentials.
 * The contract's schema already rejects most bad values; this is the part JSON Schema cannot say.
 */
export function parseDestinationUrl(raw: string): DestinationUrlResult {
  if (raw.length > MAX_URL_LENGTH) return { ok: false, message: `must be at most ${MAX_URL_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, message: 'must be an absolute URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, message: 'must use http or https' };
  if (!url.hostname) return { ok: false, message: 'must have a host' };
  if (url.username || url.password) return { ok: false, message: 'must not contain credentials' };
  if (url.href.length > MAX_URL_LENGTH) {
    return { ok: false, message: `must be at most ${MAX_URL_LENGTH} characters once normalized` };
  }
  return { ok: true, href: url.href };
}
