import { Resvg } from '@resvg/resvg-js';

export const MIN_PNG_WIDTH = 64;
export const MAX_PNG_WIDTH = 4096;

/**
 * An SVG from renderDesignSvg as a PNG `width` pixels wide (the height follows its aspect ratio; drawn with
 * `wholePixels` for this width, the modules are crisp and the height whole). No fonts are loaded: the SVG's only
 * text is outlined already. CPU-bound (tens of milliseconds at 1024 px): run it off the event loop when serving.
 */
export function renderDesignPng(svg: string, width: number): Buffer {
  if (!Number.isInteger(width) || width < MIN_PNG_WIDTH || width > MAX_PNG_WIDTH) {
    throw new RangeError(`width must be a whole number of pixels from ${MIN_PNG_WIDTH} to ${MAX_PNG_WIDTH}`);
  }
  const resvg = new Resvg(svg, { fitTo: { mode: 'width', value: width }, font: { loadSystemFonts: false }, logLevel: 'off' });
  return resvg.render().asPng();
}
