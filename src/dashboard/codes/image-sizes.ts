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
 * A PDF is a vector page at print size (src/qr/design/render-pdf.ts); `size` is unused, and the same as the API
 * gives every PDF request, so both share one cached render.
 */
export const PDF_SIZE = 512;

export type DownloadChoice =
  | { format: 'svg'; size: typeof SVG_SIZE }
  | { format: 'pdf'; size: typeof PDF_SIZE }
  | { format: 'png'; size: (typeof PNG_SIZES)[number] };

/** The download a query names (`?format=png&size=1024`), or undefined for anything the page does not offer. */
export function parseDownload(query: Record<string, unknown>): DownloadChoice | undefined {
  if (query.format === 'svg' && query.size === undefined) return { format: 'svg', size: SVG_SIZE };
  if (query.format === 'pdf' && query.size === undefined) return { format: 'pdf', size: PDF_SIZE };
  const size = PNG_SIZES.find((candidate) => String(candidate) === query.size);
  if (query.format === 'png' && size !== undefined) return { format: 'png', size };
  return undefined;
}

export function downloadHref(codeId: string, choice: DownloadChoice): string {
  return choice.format === 'png' ? `/codes/${codeId}/download?format=png&size=${choice.size}` : `/codes/${codeId}/download?format=${choice.format}`;
}

/** Centimetres across when printed at 300 dpi, the usual print resolution. */
export function printCentimetres(pixels: number): string {
  return ((pixels / 300) * 2.54).toFixed(1);
}
