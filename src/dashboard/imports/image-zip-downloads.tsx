import { DEFAULT_PDF } from '../../qr/design/render-pdf.js';
import { PNG_SIZES, printCentimetres } from '../codes/image-sizes.js';
import { PrintFields } from '../codes/print-fields.js';

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
        <PrintFields idPrefix="zip-print" widthLabel="Width of each code (mm)" />
        <button type="submit" class="secondary">
          Download ZIP for print
        </button>
      </fieldset>
    </form>
  );
}
