import { DimensionTable } from './dimension-table.js';
import { countryName, languageName } from './place-names.js';

/** Scans of one recorded value; `null` is a scan where nothing was recorded (a private address, no header). */
export interface ValueScans<Value> {
  value: Value;
  scans: number;
  uniques: number;
  /** The row that sums every value below the top ones (analytics' topWithOther): "Other", not a link. */
  other?: boolean;
}

interface FilterProps {
  /** The page filtered to a value (not offered for Unknown). */
  filterHref?: (value: string) => string;
  /** The value the page is filtered to. */
  selected?: string;
  /** All scans of the period, when the rows are only the top few. */
  total?: number;
}

/** Countries by English name ("Germany", "United States"), each a link filtering the page; none recorded is "Unknown". */
export function CountryTable(props: { countries: ReadonlyArray<{ code: string | null; scans: number; uniques: number; other?: boolean }> } & FilterProps) {
  return (
    <DimensionTable
      caption="Country"
      total={props.total}
      empty="No scans in this range."
      rows={props.countries.map((country) => ({
        name: country.other ? 'Other' : countryName(country.code),
        ...linkTo(country.other ? null : (country.code?.toUpperCase() ?? null), props),
        scans: country.scans,
        uniques: country.uniques,
      }))}
    />
  );
}

/** Cities with their region and country (the city database has them; the embedded country database does not). */
export function CityTable(
  props: {
    cities: ReadonlyArray<{ city: string | null; region: string | null; country: string | null; scans: number; uniques: number; other?: boolean }>;
  } & FilterProps,
) {
  return (
    <DimensionTable
      caption="City"
      detailColumns={['Region', 'Country']}
      total={props.total}
      empty="No scans with a known city in this range (the embedded database knows countries only; see the docs for a city database)."
      rows={props.cities.map((city) => ({
        name: city.other ? 'Other' : (city.city ?? 'Unknown'),
        details: [city.region ?? '', city.country ? countryName(city.country) : ''],
        ...linkTo(city.other ? null : city.city, props),
        scans: city.scans,
        uniques: city.uniques,
      }))}
    />
  );
}

/** The first language of each scanner's browser, by English name ("German"). */
export function LanguageTable(props: { languages: ReadonlyArray<ValueScans<string | null>> } & FilterProps) {
  return (
    <DimensionTable
      caption="Language"
      total={props.total}
      empty="No scans in this range."
      rows={props.languages.map((language) => ({
        name: language.other ? 'Other' : languageName(language.value),
        ...linkTo(language.other ? null : (language.value?.toLowerCase() ?? null), props),
        scans: language.scans,
        uniques: language.uniques,
      }))}
    />
  );
}

/** The sites scanners came from (their host); a printed code sends none, so most scans have "No referrer". */
export function ReferrerTable(props: { referrers: ReadonlyArray<ValueScans<string | null>> } & FilterProps) {
  return (
    <DimensionTable
      caption="Referrer"
      total={props.total}
      empty="No scans in this range."
      rows={props.referrers.map((referrer) => ({
        name: referrer.other ? 'Other' : (referrer.value ?? 'No referrer'),
        ...linkTo(referrer.other ? null : referrer.value, props),
        scans: referrer.scans,
        uniques: referrer.uniques,
      }))}
    />
  );
}

function linkTo(value: string | null, props: FilterProps): { href?: string; current?: boolean } {
  if (value === null || !props.filterHref) return {};
  return { href: props.filterHref(value), current: value.toLowerCase() === props.selected?.toLowerCase() };
}
