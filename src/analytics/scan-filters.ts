/**
 * Filters that narrow a whole analytics view (every number, chart and table), as Plausible's do: scans from one
 * country, one kind of device, one OS, one browser, one language. Pure, so pages can parse and link them without
 * loading the queries.
 */
export interface ScanFilters {
  /** ISO 3166-1 alpha-2, upper case (`DE`). */
  country?: string;
  /** A device class as the redirect records it (`mobile`, `desktop`, …). */
  device?: string;
  /** As recorded (`iOS`, `Android`, `unknown`). */
  os?: string;
  /** As recorded (`Mobile Safari`, `Chrome`, `unknown`). */
  browser?: string;
  /** BCP 47 primary language subtag, lower case (`de`). */
  language?: string;
}

export const FILTER_KEYS = ['country', 'device', 'os', 'browser', 'language'] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];

/** The device classes the redirect records (src/redirect/user-agent.ts DEVICE_CLASSES; a unit test keeps them equal). */
export const FILTERABLE_DEVICES = ['mobile', 'tablet', 'desktop', 'smarttv', 'console', 'wearable', 'embedded', 'unknown'] as const;

/** A value the filter did not take, and why, for the page to say so. */
export interface IgnoredFilter {
  key: FilterKey;
  value: string;
  reason: string;
}

const COUNTRY = /^[A-Za-z]{2}$/;
const LANGUAGE = /^[A-Za-z]{2,3}$/;
/** OS and browser names as ua-parser-js writes them (letters, digits, spaces, a few signs), at most 64 long. */
const SOFTWARE_NAME = /^[\p{L}\p{N}][\p{L}\p{N} ._+()/-]{0,63}$/u;

/**
 * Filters from untrusted input (a URL's query): each known key once, with a value of its shape; anything else is
 * left out and listed in `ignored` (never an error: a shared link with a stale or mistyped filter still shows the
 * page, saying what it left out). Values are normalised (`de` → `DE` for a country, `DE` → `de` for a language).
 */
export function parseScanFilters(query: Record<string, unknown>): { filters: ScanFilters; ignored: IgnoredFilter[] } {
  const filters: ScanFilters = {};
  const ignored: IgnoredFilter[] = [];
  for (const key of FILTER_KEYS) {
    const raw = query[key];
    if (raw === undefined || raw === '') continue;
    if (typeof raw !== 'string') {
      ignored.push({ key, value: String(Array.isArray(raw) ? raw.join(',') : '…'), reason: 'given more than once' });
      continue;
    }
    const value = raw.trim();
    const checked = checkFilter(key, value);
    if (typeof checked === 'string') filters[key] = checked;
    else ignored.push({ key, value: value.slice(0, 80), reason: checked.reason });
  }
  return { filters, ignored };
}

function checkFilter(key: FilterKey, value: string): string | { reason: string } {
  switch (key) {
    case 'country':
      return COUNTRY.test(value) ? value.toUpperCase() : { reason: 'not a two-letter country code' };
    case 'language':
      return LANGUAGE.test(value) ? value.toLowerCase() : { reason: 'not a language code' };
    case 'device':
      return (FILTERABLE_DEVICES as readonly string[]).includes(value) ? value : { reason: 'not a kind of device' };
    case 'os':
    case 'browser':
      return SOFTWARE_NAME.test(value) ? value : { reason: key === 'os' ? 'not an operating system name' : 'not a browser name' };
  }
}

export function hasFilters(filters: ScanFilters | undefined): filters is ScanFilters {
  return filters !== undefined && FILTER_KEYS.some((key) => filters[key] !== undefined);
}

/** The filters as query parameters, in a fixed order (links to the same view are the same string). */
export function filterParams(filters: ScanFilters): Array<[FilterKey, string]> {
  return FILTER_KEYS.flatMap((key) => (filters[key] === undefined ? [] : [[key, filters[key]!] as [FilterKey, string]]));
}
