import { count } from './format.js';

/** How many shades a map or heatmap uses at most: few enough to tell apart, colour-blind or not. */
export const SHADES = 5;

export interface ScanStep {
  /** The fewest scans in this step. */
  from: number;
  /** The most scans in this step (the largest value for the last one). */
  to: number;
  /** 1 (lightest on a light page) to SHADES (strongest), spread so the busiest step always gets the strongest shade. */
  shade: number;
  label: string;
}

/**
 * Steps of a colour scale for counts from 1 to `max`. Scans by country or by hour are heavy-tailed (one country or
 * one evening has most), so the steps grow geometrically, at round numbers (1, 2 or 5 times a power of ten):
 * 12,000 at most gives 1–4, 5–49, 50–199, 200–1,999 and 2,000–12,000. Up to five, every count is its own step.
 */
export function scanSteps(max: number): ScanStep[] {
  if (max < 1) return [];
  const starts: number[] = [1];
  if (max <= SHADES) for (let value = 2; value <= max; value++) starts.push(value);
  else {
    for (let k = 1; k < SHADES; k++) {
      const start = roundNumberNear(max ** (k / SHADES));
      if (start > starts.at(-1)! && start <= max) starts.push(start);
    }
  }
  return starts.map((from, index) => {
    const to = index + 1 < starts.length ? starts[index + 1]! - 1 : max;
    const shade = starts.length === 1 ? Math.ceil(SHADES / 2) : 1 + Math.round((index * (SHADES - 1)) / (starts.length - 1));
    return { from, to, shade, label: from === to ? count(from) : `${count(from)}–${count(to)}` };
  });
}

/** The shade of `scans` on the scale `steps` (0: none). */
export function shadeOf(scans: number, steps: readonly ScanStep[]): number {
  if (scans < 1) return 0;
  return steps.findLast((step) => scans >= step.from)?.shade ?? 0;
}

/** The 1, 2 or 5 times a power of ten nearest `value` on a log scale (3.3 → 5, 2.9 → 2, 42 → 50). */
function roundNumberNear(value: number): number {
  const power = 10 ** Math.floor(Math.log10(value));
  const candidates = [1, 2, 5, 10].map((factor) => factor * power);
  return candidates.reduce((best, candidate) => (Math.abs(Math.log(candidate / value)) < Math.abs(Math.log(best / value)) ? candidate : best));
}
