import { DEFAULT_PDF } from '../../qr/design/render-pdf.js';
import { downloadHref, PDF_SIZE, PNG_SIZES, printCentimetres } from './image-sizes.js';
import type { ShownCode } from './code-row.js';
import { PrintFields } from './print-fields.js';

/**
 * The QR preview (in the code's design), the link to the design editor, and the downloads. A PNG is exactly as wide
 * as its link says (a frame makes it taller). The print form is a plain GET form: its fields become the download's
 * query, so it works without JavaScript and the browser saves the file.
 */
export function CodeDownloads(props: { code: ShownCode; directWifi?: boolean }) {
  const { code } = props;
  // What a screen reader hears is what the image holds: a direct Wi-Fi code holds the network, not the short URL.
  const alt = props.directWifi ? 'QR code that joins the Wi-Fi network directly' : `QR code for ${code.shortUrl}`;
  return (
    <article aria-labelledby="qr-heading">
      <h2 id="qr-heading">QR code</h2>
      <img class="qr-preview" src={`/codes/${code.id}/qr.svg`} alt={alt} width={256} />
      <p>
        <a href={`/codes/${code.id}/design`}>Change the design…</a>
      </p>
      <h3>Download</h3>
      <ul class="downloads">
        <li>
          <a href={downloadHref(code.id, { format: 'svg', size: 1024 })} download>
            SVG
          </a>{' '}
          <span class="muted">vector, sharp at any size</span>
        </li>
        <li>
          <a href={downloadHref(code.id, { format: 'pdf', size: PDF_SIZE })} download>
            PDF
          </a>{' '}
          <span class="muted">vector, for print, {DEFAULT_PDF.widthCm} cm wide</span>
        </li>
        <li>
          <a href={downloadHref(code.id, { format: 'eps', size: PDF_SIZE })} download>
            EPS
          </a>{' '}
          <span class="muted">vector, for layout programs, {DEFAULT_PDF.widthCm} cm wide</span>
        </li>
        {PNG_SIZES.map((size) => (
          <li>
            <a href={downloadHref(code.id, { format: 'png', size })} download>
              PNG {size} px
            </a>{' '}
            <span class="muted">{size} px wide, about {printCentimetres(size)} cm at 300 dpi</span>
          </li>
        ))}
      </ul>
      <form method="get" action={`/codes/${code.id}/download`} class="print-download">
        <fieldset>
          <legend>File for a print shop</legend>
          <PrintFields idPrefix="print" widthLabel="Width of the code (mm)">
            <p class="muted">
              Vector, with the frame text as outlines (no fonts needed). The bleed is extra background around the code that the
              print shop cuts off; ask them how much they need (3 mm is usual).
            </p>
          </PrintFields>
          <button type="submit" class="secondary">
            Download print file
          </button>
        </fieldset>
      </form>
    </article>
  );
}
