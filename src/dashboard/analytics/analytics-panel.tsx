import { type ComponentChildren, createElement } from 'preact';
import type {
  AudienceBreakdowns,
  BreakdownEntry,
  FilterKey,
  IgnoredFilter,
  RankedCodes as RankedCodesData,
  ScanBreakdowns,
  ScanRange,
  ScanTimeSeries,
  ScanTotals,
  WeekHours,
} from '../../analytics/index.js';
import { hasFilters } from '../../analytics/scan-filters.js';
import type { RecentScan } from '../../analytics/recent-scans.js';
import { CityTable, CountryTable, LanguageTable, ReferrerTable } from './audience-tables.js';
import { BreakdownTables } from './breakdown-tables.js';
import { FilterChips } from './filter-chips.js';
import { count, rangeWords } from './format.js';
import { type RangeLink, RangeNav } from './range-nav.js';
import { RankedCodes } from './ranked-codes.js';
import { RecentScansTable } from './recent-scans-table.js';
import { ScanChart } from './scan-chart.js';
import { TotalsGrid } from './totals-grid.js';
import { WeekHourHeatmap } from './week-hour-heatmap.js';
import { WorldMap } from './world-map.js';

export interface AnalyticsData {
  totals: ScanTotals;
  series: ScanTimeSeries;
  breakdowns: ScanBreakdowns;
  audience: AudienceBreakdowns;
  weekHours: WeekHours;
  /** The account's codes by scans (the account's view only). */
  ranked?: RankedCodesData;
  recent: RecentScan[];
  ignoredFilters: IgnoredFilter[];
}

/** Where a view's links go; every one keeps the range, the zone and the filters unless it changes them. */
export interface AnalyticsLinks {
  range: (range: ScanRange) => RangeLink;
  /** The view with one more filter (or another value for it). */
  filter: (key: FilterKey, value: string) => string;
  removeFilter: (key: FilterKey) => string;
  clearFilters: string;
  /** The CSV of the view's scans (filtered like it). */
  csv: string;
  /** A code's analytics over the same range, zone and filters (the account's ranking links to it). */
  codeAnalytics?: (codeId: string) => string;
}

export interface AnalyticsPanelProps {
  data: AnalyticsData;
  /** The level of the panel's section headings: 2 on a page of its own, 3 inside a code's page. */
  level: 2 | 3;
  links: AnalyticsLinks;
  /** The account's panel names the code of each recent scan. */
  withCode: boolean;
  /** Keeps ids unique if a page ever shows two panels. */
  idPrefix: string;
}

/** Everything an analytics view shows, shared by the account's page, a code's page and the code's panel. */
export function AnalyticsPanel(props: AnalyticsPanelProps) {
  const { data, level, idPrefix, links } = props;
  const { series, audience } = data;
  const filters = series.filters;
  const filtered = hasFilters(filters);
  const id = (name: string) => `${idPrefix}-${name}`;
  const filterTo = (key: FilterKey) => (value: string) => links.filter(key, value);
  return (
    <>
      <FilterChips filters={filters} ignored={data.ignoredFilters} removeHref={links.removeFilter} clearHref={links.clearFilters} />
      <TotalsGrid totals={data.totals} />
      <p class="muted">
        {filtered ? 'Totals are for all time, of the scans matching the filters.' : 'Totals are for all time.'} Below: human scans in{' '}
        {rangeWords(series.range)}, times in <strong>{series.timeZone}</strong>.
        {!series.exactBoundaries && ' Days here start at the first whole UTC hour after midnight, as scans are counted per hour.'}{' '}
        A scan is unique when its visitor had not scanned that code earlier the same UTC day (no cookie and nothing
        personal stored; scans from before qroute counted visitors are not unique).
      </p>
      <RangeNav current={series.range} link={links.range} label="Range" />
      <section aria-labelledby={id('over-time')}>
        <Heading level={level} id={id('over-time')}>Scans over time</Heading>
        <p>
          {count(series.total)} human {series.total === 1 ? 'scan' : 'scans'}, {count(series.uniqueTotal)} unique, in {rangeWords(series.range)}.
        </p>
        <ScanChart series={series} id={id('chart-table')} />
      </section>
      <section aria-labelledby={id('breakdowns')}>
        <Heading level={level} id={id('breakdowns')}>Devices, systems and browsers</Heading>
        <BreakdownTables breakdowns={data.breakdowns} filterHref={links.filter} />
      </section>
      <section aria-labelledby={id('places')}>
        <Heading level={level} id={id('places')}>Countries</Heading>
        <WorldMap countries={countryScans(audience.countries)} filterHref={filterTo('country')} selected={filters.country} />
        <CountryTable
          countries={audience.countries.map((entry) => ({ code: entry.value || null, scans: entry.scans, uniques: entry.uniqueScans }))}
          filterHref={filterTo('country')}
          selected={filters.country}
          total={audience.total}
        />
        {audience.cities.length > 0 && (
          <>
            <Heading level={level === 2 ? 3 : 4} id={id('cities')}>Cities</Heading>
            <CityTable
              cities={audience.cities.map((entry) => ({
                city: entry.value,
                other: entry.other,
                region: entry.region ?? null,
                country: entry.country ?? null,
                scans: entry.scans,
                uniques: entry.uniqueScans,
              }))}
              total={audience.total}
            />
          </>
        )}
      </section>
      <section aria-labelledby={id('languages')}>
        <Heading level={level} id={id('languages')}>Languages and referrers</Heading>
        <div class="breakdowns">
          <LanguageTable languages={valueScans(audience.languages)} filterHref={filterTo('language')} selected={filters.language} total={audience.total} />
          <ReferrerTable referrers={valueScans(audience.referrers)} total={audience.total} />
        </div>
      </section>
      <section aria-labelledby={id('week')}>
        <Heading level={level} id={id('week')}>When people scan</Heading>
        <WeekHourHeatmap
          cells={data.weekHours.scans.flatMap((hours, weekday) => hours.map((scans, hour) => ({ weekday, hour, scans })))}
          timeZone={data.weekHours.timeZone}
        />
      </section>
      {data.ranked && (
        <section aria-labelledby={id('codes')}>
          <Heading level={level} id={id('codes')}>Codes by scans</Heading>
          <p class="muted">
            {data.ranked.scannedCodes > data.ranked.codes.length
              ? `The ${data.ranked.codes.length} most scanned of ${count(data.ranked.scannedCodes)} codes scanned in ${rangeWords(series.range)}.`
              : `Every code scanned in ${rangeWords(series.range)}.`}
          </p>
          <RankedCodes
            codes={data.ranked.codes.map((code) => ({
              id: code.id,
              name: code.deleted ? `${code.name} (deleted)` : code.name,
              // A deleted code has no page of its own to go to.
              href: code.deleted ? undefined : (links.codeAnalytics?.(code.id) ?? `/codes/${encodeURIComponent(code.id)}/analytics`),
              scans: code.scans,
              uniques: code.uniqueScans,
            }))}
          />
        </section>
      )}
      <section aria-labelledby={id('recent')}>
        <Heading level={level} id={id('recent')}>Recent scans</Heading>
        <RecentScansTable scans={data.recent} timeZone={series.timeZone} withCode={props.withCode} filtered={filtered} />
        <p>
          <a href={links.csv} download>Download CSV</a>{' '}
          <span class="muted">of every stored scan{filtered ? ' matching the filters' : ''} (times in UTC).</span>
        </p>
      </section>
    </>
  );
}

/** Entries as the tables take them: '' (nothing recorded) is null; "other" sums the values below the top ones. */
function valueScans(entries: readonly BreakdownEntry[]) {
  return entries.map((entry) => ({ value: entry.value || null, scans: entry.scans, uniques: entry.uniqueScans, other: entry.other }));
}

function countryScans(entries: readonly BreakdownEntry[]) {
  return entries.filter((entry) => entry.value !== '').map((entry) => ({ code: entry.value, scans: entry.scans, uniques: entry.uniqueScans }));
}

function Heading(props: { level: 2 | 3 | 4; id: string; children: ComponentChildren }) {
  return createElement(`h${props.level}`, { id: props.id }, props.children);
}
