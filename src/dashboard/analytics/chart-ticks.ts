/** At most this many steps up the value axis: each gets a gridline and a label, which must not crowd a phone. */
const MAX_STEPS = 4;

/**
 * The value axis of a chart whose values are whole counts: a step of 1, 2 or 5 times a power of ten (the steps
 * people count in), the fewest lines that reach `max` in at most four steps, and the top at the last line.
 * 7 → 2, 4, 6, 8; 37 → 10, 20, 30, 40; 1,234 → 500, 1,000, 1,500. No scans still draws one step (0 to 1).
 */
export function evenTicks(max: number): { step: number; top: number; ticks: number[] } {
  const wanted = Math.max(max, 1);
  let step = 1;
  for (let power = 1; ; power *= 10) {
    const found = [1, 2, 5].map((factor) => factor * power).find((candidate) => Math.ceil(wanted / candidate) <= MAX_STEPS);
    if (found !== undefined) {
      step = found;
      break;
    }
  }
  const steps = Math.ceil(wanted / step);
  return { step, top: steps * step, ticks: Array.from({ length: steps }, (_, index) => (index + 1) * step) };
}

/**
 * Which of `length` bars get a date under the axis: at most `most`, at one even step, counted back from the newest
 * bar (always labelled: it is the one people look for). Spreading six labels over seven days by rounding left one
 * day out in the middle (20, 21, 22, 24, 25, 26 Nov), which reads as a missing day; an even step labels
 * 20, 22, 24 and 26 Nov instead. The table behind the chart names every bar.
 */
export function dateLabelIndexes(length: number, most: number): number[] {
  if (length <= 0 || most <= 0) return [];
  const step = most === 1 ? length : Math.max(1, Math.ceil((length - 1) / (most - 1)));
  const indexes: number[] = [];
  for (let index = length - 1; index >= 0; index -= step) indexes.unshift(index);
  return indexes;
}

/** Hour steps a clock is read in. */
const HOUR_STEPS = [1, 2, 3, 4, 6, 12];

/**
 * For hourly bars (`hours`: each bar's local hour of the day, oldest first): at most `most` labels, on the hours
 * a clock is read at (04:00, 08:00, 12:00 … rather than 05:00, 10:00, 15:00, 20:00, 01:00).
 */
export function hourLabelIndexes(hours: readonly number[], most: number): number[] {
  for (const step of HOUR_STEPS) {
    const indexes = hours.flatMap((hour, index) => (hour % step === 0 ? [index] : []));
    if (indexes.length <= most) return indexes;
  }
  return dateLabelIndexes(hours.length, most);
}
