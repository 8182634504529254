import { PRINT_LIMITS } from '../../qr/design/print-page.js';
import { DEFAULT_PDF } from '../../qr/design/render-pdf.js';
import { PNG_SIZES, PRINT_FORM_DEFAULTS, printCentimetres } from '../codes/image-sizes.js';

/**
 * The ZIPs of an import's QR images: the formats and sizes a code's page offers for one image, each code in its
 * design (list items, for the result's list of downloads).
 */
export function ImageZipDownloads(props: { importId: string }) {
  const zip = `/imports/${props.importId}/qr-codes.zip`;
  return (
    <>
      <li>
        <a href={`${zip}?format=svg`} download>
          ZIP of the QR codes (SVG)
        </a>{' '}
        <span class="muted">vector, sharp at any size</span>
      </li>
      <li>
        <a href={`${zip}?format=pdf`} download>
          ZIP of the QR codes (PDF)
        </a>{' '}
        <span class="muted">vector, for print, {DEFAULT_PDF.widthCm} cm wide</span>
      </li>
      <li>
        <a href={`${zip}?format=eps`} download>
          ZIP of the QR codes (EPS)
        </a>{' '}
        <span class="muted">vector, for layout programs, {DEFAULT_PDF.widthCm} cm wide</span>
      </li>
      {PNG_SIZES.map((size) => (
        <li>
          <a href={`${zip}?format=png&size=${size}`} download>
            ZIP of the QR codes (PNG, {size} px)
          </a>{' '}
          <span class="muted">
            {size} px wide, about {printCentimetres(size)} cm at 300 dpi
          </span>
        </li>
      ))}
    </>
  );
}

/** The print shop's files (PDF or EPS) for every code, as on a code's page: a plain GET form, so it works without JavaScript. */
export function PrintZipForm(props: { importId: string }) {
  return (
    <form method="get" action={`/imports/${props.importId}/qr-codes.zip`} class="print-download">
      <fieldset>
        <legend>ZIP of files for a print shop</legend>
        <label for="zip-print-format">File type</label>
        <select id="zip-print-format" name="format">
          <option value="pdf" selected>
            PDF
          </option>
          <option value="eps">EPS</option>
        </select>
        <div class="grid">
          <div>
            <label for="zip-print-size-mm">Width of each code (mm)</label>
            <input id="zip-print-size-mm" name="size_mm" type="number" inputMode="decimal" min={PRINT_LIMITS.minSizeMm} max={PRINT_LIMITS.maxSizeMm} step="any" value={String(PRINT_FORM_DEFAULTS.sizeMm)} required />
          </div>
          <div>
            <label for="zip-print-bleed-mm">Bleed (mm)</label>
            <input id="zip-print-bleed-mm" name="bleed_mm" type="number" inputMode="decimal" min={0} max={PRINT_LIMITS.maxBleedMm} step="any" value={String(PRINT_FORM_DEFAULTS.bleedMm)} required />
          </div>
        </div>
        <label for="zip-print-crop-marks">
          <input id="zip-print-crop-marks" name="crop_marks" type="checkbox" /> Crop marks (outside the bleed)
        </label>
        <label for="zip-print-cmyk">
          <input id="zip-print-cmyk" name="cmyk" type="checkbox" /> CMYK colours (converted without a colour profile)
        </label>
        <button type="submit" class="secondary">
          Download ZIP for print
        </button>
      </fieldset>
    </form>
  );
}
