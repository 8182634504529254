/**
 * English names of countries and languages as `Intl.DisplayNames` gives them ("DE" → "Germany", "US" → "United
 * States", "de" → "German"), so no name list ships with qroute. Built once per process: they are constants.
 */
let regions: Intl.DisplayNames | undefined;
let languages: Intl.DisplayNames | undefined;

/** A recorded country code (ISO 3166-1 alpha-2, or XK for Kosovo) as a name; no country recorded is "Unknown". */
export function countryName(code: string | null): string {
  if (!code) return 'Unknown';
  regions ??= new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
  return nameOrCode(() => regions!.of(code.toUpperCase()), code);
}

/** A recorded language subtag ("de") as its English name ("German"); none recorded is "Unknown". */
export function languageName(code: string | null): string {
  if (!code) return 'Unknown';
  languages ??= new Intl.DisplayNames(['en'], { type: 'language', fallback: 'code' });
  return nameOrCode(() => languages!.of(code.toLowerCase()), code);
}

// Intl throws on a code that is not well formed; a stored value is shown as it is rather than failing the page.
function nameOrCode(name: () => string | undefined, code: string): string {
  try {
    return name() ?? code;
  } catch {
    return code;
  }
}
