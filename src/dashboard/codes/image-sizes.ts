import { printPageProblems, type PrintPage } from '../../qr/design/print-page.js';

/**
 * The downloads a code's page offers. PNG at print sizes: at 300 dpi 1024 px is about 8.7 cm, 4096 px about 35 cm
 * (a poster). 4096 is also the API's largest size, so a download costs no more than an API image read can.
 * SVG scales to any size; its width attribute is only a default.
 */
export const PNG_SIZES = [512, 1024, 2048, 4096] as const;
export const SVG_SIZE = 1024;
/** The preview on the code's page: the API's default image, so both share one cached render. */
export const PREVIEW_SIZE = 512;

/**
 * A PDF (or EPS) is a vector page at print size (src/qr/design/render-pdf.ts); `size` is unused, and the same as the API
 * gives every PDF request, so both share one cached render.
 */
export const PDF_SIZE = 512;

export type DownloadChoice =
  | { format: 'svg'; size: typeof SVG_SIZE }
  | { format: 'pdf' | 'eps'; size: typeof PDF_SIZE; print?: PrintPage }
  | { format: 'png'; size: (typeof PNG_SIZES)[number] };

/** What the "File for a print shop" form starts with: 5 cm, and the 3 mm bleed most print shops ask for. */
export const PRINT_FORM_DEFAULTS = { sizeMm: 50, bleedMm: 3 } as const;

/** The print form's fields (besides the format), as the query carries them. */
const PRINT_FIELDS = ['size_mm', 'bleed_mm', 'crop_marks', 'cmyk'] as const;

/**
 * The download a query names (`?format=png&size=1024`, `?format=pdf&size_mm=50&bleed_mm=3&crop_marks=on`), or
 * undefined for anything the page does not offer; a print page out of range is `{ problems }` to show the person.
 */
export function parseDownload(query: Record<string, unknown>): DownloadChoice | { problems: string[] } | undefined {
  if (query.format === 'svg' && query.size === undefined) return { format: 'svg', size: SVG_SIZE };
  if ((query.format === 'pdf' || query.format === 'eps') && query.size === undefined) {
    const format = query.format;
    if (!PRINT_FIELDS.some((field) => query[field] !== undefined)) return { format, size: PDF_SIZE };
    const print: PrintPage = {
      sizeMm: millimetres(query.size_mm, PRINT_FORM_DEFAULTS.sizeMm),
      bleedMm: millimetres(query.bleed_mm, 0),
      cropMarks: query.crop_marks === 'on' || query.crop_marks === 'true',
      cmyk: query.cmyk === 'on' || query.cmyk === 'true',
    };
    const problems = printPageProblems(print);
    if (problems.length > 0) return { problems: problems.map((p) => `${p.field === 'size_mm' ? 'The width' : 'The bleed'} ${p.message}.`) };
    return { format, size: PDF_SIZE, print };
  }
  const size = PNG_SIZES.find((candidate) => String(candidate) === query.size);
  if (query.format === 'png' && size !== undefined) return { format: 'png', size };
  return undefined;
}

/** A form's number field: blank is the default, anything else that is not a number is NaN (refused as out of range). */
function millimetres(value: unknown, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  return typeof value === 'string' && /^\s*\d+([.,]\d+)?\s*$/.test(value) ? Number(value.replace(',', '.')) : Number.NaN;
}

export function downloadHref(codeId: string, choice: DownloadChoice): string {
  return choice.format === 'png' ? `/codes/${codeId}/download?format=png&size=${choice.size}` : `/codes/${codeId}/download?format=${choice.format}`;
}

/** Centimetres across when printed at 300 dpi, the usual print resolution. */
export function printCentimetres(pixels: number): string {
  return ((pixels / 300) * 2.54).toFixed(1);
}
