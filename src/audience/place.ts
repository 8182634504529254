/** Where a scan came from, as far as the geo database knows: every part null when it does not. */
export interface Place {
  /** ISO 3166-1 alpha-2, upper case (`DE`). */
  readonly country: string | null;
  /** English name of the first subdivision (`Bavaria`), when the database has regions. */
  readonly region: string | null;
  /** English city name (`Munich`), when the database has cities. */
  readonly city: string | null;
}

export const NOWHERE: Place = Object.freeze({ country: null, region: null, city: null });

/** City and region names longer than this are cut (the longest English city names are about 60 characters). */
const MAX_NAME_LENGTH = 100;

/**
 * The place in one MMDB record, whichever of the known layouts it uses:
 * - MaxMind GeoLite2/GeoIP2 and DB-IP Lite City (DB-IP's own .mmdb follows MaxMind's):
 *   `{ country: { iso_code }, subdivisions: [{ names: { en } }], city: { names: { en } } }`;
 * - ip-location-db (the embedded default, DB-IP Lite Country) and IPinfo Lite: `{ country_code: 'DE' }`, IPinfo Lite
 *   with `country` as the English name; ip-location-db's city files add `city` and `state1` as plain strings;
 * - IPinfo's older country/city files: `{ country: 'DE', region: 'Bavaria', city: 'Munich' }`.
 * A value that is not what it should be (a country that is not two letters, a name with control characters) is
 * null: the file may be anyone's, and what comes out is stored and shown on the dashboard.
 */
export function placeOf(record: unknown): Place {
  if (typeof record !== 'object' || record === null) return NOWHERE;
  const fields = record as Record<string, unknown>;
  const country = countryCode(property(fields.country, 'iso_code') ?? fields.country_code ?? fields.country);
  if (country === null) return NOWHERE;
  const subdivision = Array.isArray(fields.subdivisions) ? fields.subdivisions[0] : undefined;
  return {
    country,
    region: name(englishName(subdivision) ?? fields.region ?? fields.state1),
    city: name(englishName(fields.city) ?? fields.city),
  };
}

function property(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

function englishName(value: unknown): unknown {
  return property(property(value, 'names'), 'en');
}

/**
 * Two letters, upper case. `ZZ` and `XX` are what some databases write for "unknown" (user-assigned codes, no
 * country); the rest of the user-assigned range (AA, QM-QZ, XA-XZ) is left alone: nobody ships those as locations.
 */
function countryCode(value: unknown): string | null {
  if (typeof value !== 'string' || !/^[A-Za-z]{2}$/.test(value)) return null;
  const code = value.toUpperCase();
  return code === 'ZZ' || code === 'XX' ? null : code;
}

/** Trimmed and at most MAX_NAME_LENGTH characters; empty, or with control or format characters, is null. */
function name(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  let text = value.trim();
  if (text === '' || /[\p{Cc}\p{Cf}\u2028\u2029]/u.test(text)) return null;
  if (text.length > MAX_NAME_LENGTH) text = Array.from(text).slice(0, MAX_NAME_LENGTH).join('').trim();
  return text;
}
