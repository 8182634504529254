/**
 * Zone names that IANA renamed but ICU (and so Intl in Node and Chromium) still answers with: its canonical names
 * are CLDR's, which never change, so a browser in Kolkata reports "Asia/Calcutta" and one in Kyiv "Europe/Kiev".
 * People know the current names. This is every name `Intl.supportedValuesOf('timeZone')` lists (Node 20, ICU 78)
 * that is a Link, not a Zone, in IANA's tzdata 2025b while ICU resolves the Zone's name to it; the same pairs as
 * CLDR's bcp47/timezone.xml marks with an `iana` attribute. Merged zones (Europe/Amsterdam, a Link to
 * Europe/Brussels since 2022) are not renames and keep their names. PostgreSQL knows every name on the right.
 */
const CURRENT_NAMES: Readonly<Record<string, string>> = {
  'Africa/Asmera': 'Africa/Asmara',
  'America/Buenos_Aires': 'America/Argentina/Buenos_Aires',
  'America/Catamarca': 'America/Argentina/Catamarca',
  'America/Coral_Harbour': 'America/Atikokan',
  'America/Cordoba': 'America/Argentina/Cordoba',
  'America/Godthab': 'America/Nuuk',
  'America/Indianapolis': 'America/Indiana/Indianapolis',
  'America/Jujuy': 'America/Argentina/Jujuy',
  'America/Louisville': 'America/Kentucky/Louisville',
  'America/Mendoza': 'America/Argentina/Mendoza',
  'Asia/Calcutta': 'Asia/Kolkata',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'Asia/Rangoon': 'Asia/Yangon',
  'Asia/Saigon': 'Asia/Ho_Chi_Minh',
  'Atlantic/Faeroe': 'Atlantic/Faroe',
  'Europe/Kiev': 'Europe/Kyiv',
  'Pacific/Enderbury': 'Pacific/Kanton',
  'Pacific/Ponape': 'Pacific/Pohnpei',
  'Pacific/Truk': 'Pacific/Chuuk',
};

/** A zone's name as people know it today ("Asia/Calcutta" → "Asia/Kolkata"); any other name as given. */
export function currentZoneName(name: string): string {
  return CURRENT_NAMES[name] ?? name;
}

/** Every rename, old name → current name: the dashboard hands it to app.js, which reads the browser's zone. */
export function renamedZones(): Readonly<Record<string, string>> {
  return CURRENT_NAMES;
}

/** The zones the runtime knows, by their current names, in alphabetical order. */
export function knownZoneNames(): string[] {
  return Intl.supportedValuesOf('timeZone').map(currentZoneName).sort();
}
