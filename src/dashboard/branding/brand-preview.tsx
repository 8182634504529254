import { contrastRatio, textColorOn } from '../../accounts/brand-color.js';
import { DEFAULT_ACCENT } from '../../landing/page-style.js';

export interface BrandPreviewProps {
  accountName: string;
  /** `#rrggbb`, or null for qroute's own accent. */
  color: string | null;
  logoUrl: string | null;
}

const FONT = 'system-ui, sans-serif';

/**
 * A small drawing of a landing page in the account's colour and logo. It is SVG because the dashboard's CSP
 * allows no inline style: colours given as SVG presentation attributes (fill) are not styles, so the preview
 * can follow any colour typed, swapped in by htmx as the colour changes. The real page is one link away.
 */
export function BrandPreview(props: BrandPreviewProps) {
  const accent = props.color ?? DEFAULT_ACCENT;
  const text = textColorOn(accent);
  const ratio = contrastRatio(accent, text).toFixed(1);
  return (
    <figure id="brand-preview" class="brand-preview" aria-live="polite">
      <svg viewBox="0 0 240 320" width="240" height="320" role="img" aria-labelledby="brand-preview-title" xmlns="http://www.w3.org/2000/svg">
        <title id="brand-preview-title">{`Sample landing page of ${props.accountName} in ${accent}${props.logoUrl ? ', with the logo' : ''}`}</title>
        <rect x="0.5" y="0.5" width="239" height="319" fill="#ffffff" stroke="#c8ccd4" />
        <rect x="1" y="1" width="238" height="7" fill={accent} data-accent={accent} />
        {props.logoUrl && <image href={props.logoUrl} x="16" y="20" width="160" height="48" preserveAspectRatio="xMinYMid meet" />}
        <text x="16" y="98" font-size="18" font-weight="700" fill="#1d2330" font-family={FONT}>Corner Bakery</text>
        <text x="16" y="122" font-size="12" fill="#1d2330" font-family={FONT}>Fresh bread every morning.</text>
        <rect x="16" y="142" width="208" height="40" rx="8" fill={accent} />
        <text x="120" y="167" font-size="14" text-anchor="middle" fill={text} font-family={FONT}>Call +49 30 1234567</text>
        <rect x="16" y="192" width="208" height="40" rx="8" fill={accent} />
        <text x="120" y="217" font-size="14" text-anchor="middle" fill={text} font-family={FONT}>Visit the website</text>
        <text x="16" y="300" font-size="11" fill="#5b6270" font-family={FONT}>{`Published by ${props.accountName}`}</text>
      </svg>
      <figcaption>
        Buttons: {text === '#ffffff' ? 'white' : 'black'} text on <span class="mono">{accent}</span>, contrast {ratio}:1 (at least 4.5:1 is
        readable for everyone).
      </figcaption>
    </figure>
  );
}
