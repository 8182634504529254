import type { ScanTimeSeries } from '../../analytics/index.js';
import { BUCKET_WORDS, bucketText, count, rangeWords } from './format.js';
import { TableRegion } from '../shared/table-region.js';
import { dateLabelIndexes, evenTicks, hourLabelIndexes } from './chart-ticks.js';

const WIDTH = 720;
const HEIGHT = 220;
// The value labels sit inside the plot above their lines (left margin small whatever the numbers' width); the
// bottom margin fits the date labels at the larger size phones get (app.css).
const PLOT = { left: 4, right: 4, top: 22, bottom: 30 };
const X_LABELS = 6;

/**
 * Scans over time as an SVG bar chart drawn on the server (no script; classes from app.css and presentation
 * attributes only, as the CSP allows no style attributes), with the same numbers as a table behind it for screen
 * readers and anyone who wants them exactly. The picture is one image with a summary as its name. The value lines
 * (even steps, chart-ticks.ts) are labelled inside the plot, so no width has to be guessed for the numbers.
 */
export function ScanChart(props: { series: ScanTimeSeries; id: string }) {
  const { series } = props;
  const buckets = series.buckets;
  const words = BUCKET_WORDS[series.bucketSize];
  const { top, ticks } = evenTicks(Math.max(0, ...buckets.map((bucket) => bucket.scans)));
  const plotWidth = WIDTH - PLOT.left - PLOT.right;
  const plotHeight = HEIGHT - PLOT.top - PLOT.bottom;
  const step = plotWidth / Math.max(buckets.length, 1);
  const gap = step > 4 ? step * 0.15 : 0;
  const yOf = (value: number) => PLOT.top + plotHeight - (value / top) * plotHeight;
  const dateLabels =
    series.bucketSize === 'hour'
      ? hourLabelIndexes(buckets.map((bucket) => Number(bucket.label.slice(11, 13))), X_LABELS)
      : dateLabelIndexes(buckets.length, X_LABELS);
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={chartSummary(series)} xmlns="http://www.w3.org/2000/svg">
        {[0, ...ticks].map((value) => (
          <line class="gridline" x1={PLOT.left} x2={WIDTH - PLOT.right} y1={round(yOf(value))} y2={round(yOf(value))} />
        ))}
        {/* Each bar is the bucket's scans; its darker lower part the unique ones among them. */}
        {buckets.flatMap((bucket, index) =>
          [
            ['bar', bucket.scans],
            ['bar unique', bucket.uniqueScans],
          ].map(([kind, value]) =>
            (value as number) > 0 ? (
              <rect
                class={kind as string}
                x={round(PLOT.left + index * step + gap / 2)}
                y={round(yOf(value as number))}
                width={round(Math.max(step - gap, 0.5))}
                height={round(PLOT.top + plotHeight - yOf(value as number))}
              />
            ) : null,
          ),
        )}
        {ticks.map((value) => (
          <text class="value-label" x={PLOT.left + 2} y={round(yOf(value)) - 4}>
            {count(value)}
          </text>
        ))}
        <line class="axis" x1={PLOT.left} x2={WIDTH - PLOT.right} y1={PLOT.top + plotHeight} y2={PLOT.top + plotHeight} />
        {/* A phone shows only the oldest and newest labels (app.css hides the middle ones). */}
        {dateLabels.map((index) => (
          <text
            class={index === dateLabels[0] || index === dateLabels.at(-1) ? 'date-label' : 'date-label middle'}
            x={labelX(index, buckets.length, step)}
            y={HEIGHT - 6}
            text-anchor={anchorOf(index, buckets.length)}
          >
            {bucketText(buckets[index]!.label, series.bucketSize, true)}
          </text>
        ))}
      </svg>
      <figcaption class="chart-legend muted">
        <span class="key unique" aria-hidden="true" /> unique scans, <span class="key repeat" aria-hidden="true" /> repeat scans (the
        same visitor again that day, or recorded before visitors were counted)
      </figcaption>
      <details>
        <summary>Show as a table</summary>
        <TableRegion label="Scans as a table">
          <table id={props.id}>
            <caption>
              Human scans {words.per}, {rangeWords(series.range)} ({series.timeZone})
            </caption>
            <thead>
              <tr>
                <th scope="col">{words.column}</th>
                <th scope="col" class="numeric">Scans</th>
                <th scope="col" class="numeric">Unique</th>
              </tr>
            </thead>
            <tbody>
              {buckets.map((bucket) => (
                <tr>
                  <th scope="row">{bucketText(bucket.label, series.bucketSize)}</th>
                  <td class="numeric">{count(bucket.scans)}</td>
                  <td class="numeric">{count(bucket.uniqueScans)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      </details>
    </figure>
  );
}

/** What the picture says in one sentence: the name a screen reader reads for it. */
export function chartSummary(series: ScanTimeSeries): string {
  const words = BUCKET_WORDS[series.bucketSize];
  const intro = `Bar chart of human scans ${words.per}, ${rangeWords(series.range)}, in ${series.timeZone}`;
  if (series.total === 0) return `${intro}: no scans.`;
  const busiest = series.buckets.reduce((best, bucket) => (bucket.scans > best.scans ? bucket : best));
  return `${intro}: ${count(series.total)} in total (${count(series.uniqueTotal)} unique), the most ${words.when} ${bucketText(busiest.label, series.bucketSize)} (${count(busiest.scans)}).`;
}

/** Under its bar, except the first and last labels, which end at the plot's edges so they are not cut off. */
function labelX(index: number, length: number, step: number): number {
  const anchor = anchorOf(index, length);
  if (anchor === 'start') return PLOT.left;
  return anchor === 'end' ? WIDTH - PLOT.right : round(PLOT.left + (index + 0.5) * step);
}

function anchorOf(index: number, length: number): 'start' | 'middle' | 'end' {
  if (length > 1 && index === 0) return 'start';
  return length > 1 && index === length - 1 ? 'end' : 'middle';
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
