/**
 * A print file's page, for a print shop: the code at a size in millimetres, a bleed around it that the design's
 * outer colours run into (so a cut a little off the line leaves no white edge), optional crop marks outside the
 * bleed, and colours as DeviceCMYK instead of sRGB. PDF and EPS take it; screen images have no use for it.
 */
export interface PrintPage {
  /** The code's trimmed width (quiet zone and frame included), in millimetres; the height follows the design. */
  sizeMm: number;
  /** How far the artwork runs past the trim on every side, in millimetres; 3 is the usual request. */
  bleedMm: number;
  /** Crop marks at the trim's corners, outside the bleed (the page grows by MARKS_AREA_MM on every side). */
  cropMarks: boolean;
  /** Colours as DeviceCMYK, converted from the design's sRGB by naiveCmyk (no ICC profile). */
  cmyk: boolean;
}

export const PRINT_LIMITS = {
  /** A code smaller than a centimetre is unreadable for most phone cameras, even with 1-module quiet zones. */
  minSizeMm: 10,
  /** A metre across: a poster or a banner. Beyond it, vectors still scale, but nothing in a page needs to. */
  maxSizeMm: 1000,
  maxBleedMm: 20,
} as const;

/** The margin crop marks are drawn in, outside the bleed: a 1 mm gap, then 6 mm marks, then room for the cut. */
export const MARKS_AREA_MM = 10;
export const MARK_GAP_MM = 1;
export const MARK_LENGTH_MM = 6;

/** Why these page settings are out of range (field names as the API and the dashboard call them), or nothing. */
export function printPageProblems(page: PrintPage): { field: 'size_mm' | 'bleed_mm'; message: string }[] {
  const problems: { field: 'size_mm' | 'bleed_mm'; message: string }[] = [];
  if (!Number.isFinite(page.sizeMm) || page.sizeMm < PRINT_LIMITS.minSizeMm || page.sizeMm > PRINT_LIMITS.maxSizeMm) {
    problems.push({ field: 'size_mm', message: `must be a number of millimetres from ${PRINT_LIMITS.minSizeMm} to ${PRINT_LIMITS.maxSizeMm}` });
  }
  if (!Number.isFinite(page.bleedMm) || page.bleedMm < 0 || page.bleedMm > PRINT_LIMITS.maxBleedMm) {
    problems.push({ field: 'bleed_mm', message: `must be a number of millimetres from 0 to ${PRINT_LIMITS.maxBleedMm}` });
  }
  return problems;
}

/**
 * sRGB 0–255 as CMYK percentages, the textbook way: black from the darkest channel, the rest from what is left. No
 * ICC profile, so no ink limit, dot gain or gamut mapping: pure black becomes K only (crisp, one plate), and a
 * brand colour prints near but not exactly as on screen. A print shop converting with its own profile does better.
 */
export function naiveCmyk([r, g, b]: readonly number[]): [number, number, number, number] {
  const [rr, gg, bb] = [r! / 255, g! / 255, b! / 255];
  const k = 1 - Math.max(rr, gg, bb);
  if (k >= 1) return [0, 0, 0, 100];
  const part = (channel: number) => round1((100 * (1 - channel - k)) / (1 - k));
  return [part(rr), part(gg), part(bb), round1(100 * k)];
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}
