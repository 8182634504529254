import { DEFAULT_PDF } from '../../qr/design/render-pdf.js';
import { downloadHref, PDF_SIZE, PNG_SIZES, printCentimetres } from './image-sizes.js';
import type { ShownCode } from './code-row.js';

/**
 * The QR preview (in the code's design), the link to the design editor, and the downloads. Undesigned PNGs use
 * whole pixels per module, so they come out at most the size named.
 */
export function CodeDownloads(props: { code: ShownCode }) {
  const { code } = props;
  return (
    <article aria-labelledby="qr-heading">
      <h2 id="qr-heading">QR code</h2>
      <img class="qr-preview" src={`/codes/${code.id}/qr.svg`} alt={`QR code for ${code.shortUrl}`} width={256} />
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
        {PNG_SIZES.map((size) => (
          <li>
            <a href={downloadHref(code.id, { format: 'png', size })} download>
              PNG {size} px
            </a>{' '}
            <span class="muted">about {printCentimetres(size)} cm at 300 dpi</span>
          </li>
        ))}
      </ul>
    </article>
  );
}
