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
