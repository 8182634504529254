import { downloadHref, PNG_SIZES, printCentimetres } from '../../actions/codes/image-sizes.js';
import type { ShownCode } from './code-row.js';

/** The QR preview and the downloads. PNGs use whole pixels per module, so they come out at most the size named. */
export function CodeDownloads(props: { code: ShownCode }) {
  const { code } = props;
  return (
    <article aria-labelledby="qr-heading">
      <h2 id="qr-heading">QR code</h2>
      <img class="qr-preview" src={`/codes/${code.id}/qr.svg`} alt={`QR code for ${code.shortUrl}`} width={256} height={256} />
      <h3>Download</h3>
      <ul class="downloads">
        <li>
          <a href={downloadHref(code.id, { format: 'svg', size: 1024 })} download>
            SVG
          </a>{' '}
          <span class="muted">vector, sharp at any size</span>
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
