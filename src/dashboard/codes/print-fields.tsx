import type { ComponentChildren } from 'preact';
import { PRINT_LIMITS } from '../../qr/design/print-page.js';
import { PRINT_FORM_DEFAULTS } from './image-sizes.js';

/**
 * The print shop's choices (file type, width in mm, bleed, crop marks, CMYK) as form fields named as the download
 * query takes them: a code's page and an import's ZIP both ask for them. `children` go under the file type.
 */
export function PrintFields(props: { idPrefix: string; widthLabel: string; children?: ComponentChildren }) {
  const id = (name: string) => `${props.idPrefix}-${name}`;
  return (
    <>
      <label for={id('format')}>File type</label>
      <select id={id('format')} name="format">
        <option value="pdf" selected>
          PDF
        </option>
        <option value="eps">EPS</option>
      </select>
      {props.children}
      <div class="grid">
        <div>
          <label for={id('size-mm')}>{props.widthLabel}</label>
          <input id={id('size-mm')} name="size_mm" type="number" inputMode="decimal" min={PRINT_LIMITS.minSizeMm} max={PRINT_LIMITS.maxSizeMm} step="any" value={String(PRINT_FORM_DEFAULTS.sizeMm)} required />
        </div>
        <div>
          <label for={id('bleed-mm')}>Bleed (mm)</label>
          <input id={id('bleed-mm')} name="bleed_mm" type="number" inputMode="decimal" min={0} max={PRINT_LIMITS.maxBleedMm} step="any" value={String(PRINT_FORM_DEFAULTS.bleedMm)} required />
        </div>
      </div>
      <label for={id('crop-marks')}>
        <input id={id('crop-marks')} name="crop_marks" type="checkbox" /> Crop marks (outside the bleed)
      </label>
      <label for={id('cmyk')}>
        <input id={id('cmyk')} name="cmyk" type="checkbox" /> CMYK colours (converted without a colour profile)
      </label>
    </>
  );
}
