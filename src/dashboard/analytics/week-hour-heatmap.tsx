import { count } from './format.js';
import { scanSteps, shadeOf } from './scan-steps.js';
import { ScaleLegend } from './scale-legend.js';

export interface WeekHourCell {
  /** 0 is Monday, 6 Sunday, in the viewer's zone. */
  weekday: number;
  /** 0 to 23, in the viewer's zone. */
  hour: number;
  scans: number;
}

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const HOURS = Array.from({ length: 24 }, (_, hour) => hour);

/**
 * When people scan: a weekday × hour-of-day grid in the viewer's zone (the caller counts in that zone), each cell
 * shaded like the map. A table, so a screen reader reads "Monday, 14, 12 scans" by row and column; the counts are
 * text for it and a tooltip for a pointer. The grid fits its width at any size (fixed layout), so a phone sees
 * all 24 hours at once with every sixth one labelled.
 */
export function WeekHourHeatmap(props: { cells: readonly WeekHourCell[]; timeZone: string }) {
  const scans = Array.from({ length: 7 }, () => new Array<number>(24).fill(0));
  for (const cell of props.cells) {
    const row = scans[cell.weekday];
    if (row && cell.hour >= 0 && cell.hour < 24) row[cell.hour] = (row[cell.hour] ?? 0) + cell.scans;
  }
  const steps = scanSteps(Math.max(0, ...scans.flat()));
  return (
    <figure class="heatmap">
      <table>
        <caption>
          Scans by weekday and hour of the day, in <strong>{props.timeZone}</strong>
        </caption>
        <thead>
          <tr>
            <td />
            {HOURS.map((hour) => (
              <th scope="col" class={hourLabelClass(hour)}>
                <span>{hour}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {WEEKDAYS.map((weekday, day) => (
            <tr>
              <th scope="row">
                <span aria-hidden="true">{weekday.slice(0, 3)}</span>
                <span class="visually-hidden">{weekday}</span>
              </th>
              {HOURS.map((hour) => {
                const value = scans[day]![hour]!;
                return (
                  <td class={`shade-${shadeOf(value, steps)}`} title={`${weekday} ${hourRange(hour)}: ${scansText(value)}`}>
                    <span class="visually-hidden">{scansText(value)}</span>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      <ScaleLegend steps={steps} label="Scans per hour:" />
    </figure>
  );
}

/** Every hour is a column heading for screen readers; a laptop shows them all, a phone every sixth. */
function hourLabelClass(hour: number): string | undefined {
  return hour % 6 === 0 ? undefined : 'minor';
}

function hourRange(hour: number): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${pad(hour)}:00–${pad(hour + 1)}:00`;
}

function scansText(value: number): string {
  return value === 1 ? '1 scan' : `${count(value)} scans`;
}
