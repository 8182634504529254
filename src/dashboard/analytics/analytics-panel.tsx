import { type ComponentChildren, createElement } from 'preact';
import type { ScanBreakdowns, ScanRange, ScanTimeSeries, ScanTotals } from '../../analytics/index.js';
import type { RecentScan } from '../../analytics/recent-scans.js';
import { ScanChart } from './scan-chart.js';
import { BreakdownTables } from './breakdown-tables.js';
import { count, rangeWords } from './format.js';
import { type RangeLink, RangeNav } from './range-nav.js';
import { RecentScansTable } from './recent-scans-table.js';
import { TotalsGrid } from './totals-grid.js';

export interface AnalyticsData {
  totals: ScanTotals;
  series: ScanTimeSeries;
  breakdowns: ScanBreakdowns;
  recent: RecentScan[];
}

export interface AnalyticsPanelProps {
  data: AnalyticsData;
  /** The level of the panel's section headings: 2 on a page of its own, 3 inside a code's page. */
  level: 2 | 3;
  rangeLink: (range: ScanRange) => RangeLink;
  csvHref: string;
  /** The account's panel names the code of each recent scan. */
  withCode: boolean;
  /** Keeps ids unique if a page ever shows two panels. */
  idPrefix: string;
}

/** Everything an analytics view shows, shared by the account's page, a code's page and the code's panel. */
export function AnalyticsPanel(props: AnalyticsPanelProps) {
  const { data, level, idPrefix } = props;
  const { series } = data;
  const id = (name: string) => `${idPrefix}-${name}`;
  return (
    <>
      <TotalsGrid totals={data.totals} />
      <p class="muted">
        Totals are for all time. Below: human scans in {rangeWords(series.range)}, times in <strong>{series.timeZone}</strong>.
        {!series.exactBoundaries && ' Days here start at the first whole UTC hour after midnight, as scans are counted per hour.'}
      </p>
      <RangeNav current={series.range} link={props.rangeLink} label="Range" />
      <section aria-labelledby={id('over-time')}>
        <Heading level={level} id={id('over-time')}>Scans over time</Heading>
        <p>
          {count(series.total)} human {series.total === 1 ? 'scan' : 'scans'} in {rangeWords(series.range)}.
        </p>
        <ScanChart series={series} id={id('chart-table')} />
      </section>
      <section aria-labelledby={id('breakdowns')}>
        <Heading level={level} id={id('breakdowns')}>Devices, systems and browsers</Heading>
        <BreakdownTables breakdowns={data.breakdowns} />
      </section>
      <section aria-labelledby={id('recent')}>
        <Heading level={level} id={id('recent')}>Recent scans</Heading>
        <RecentScansTable scans={data.recent} timeZone={series.timeZone} withCode={props.withCode} />
        <p>
          <a href={props.csvHref} download>Download CSV</a> <span class="muted">of every stored scan (times in UTC).</span>
        </p>
      </section>
    </>
  );
}

function Heading(props: { level: 2 | 3; id: string; children: ComponentChildren }) {
  return createElement(`h${props.level}`, { id: props.id }, props.children);
}
