import { createRequire } from 'node:module';
import path from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import { FRAME_FONT_FAMILY } from './render-svg.js';

// The package has no entry point, only its font files; its package.json locates them wherever npm put it.
const FONT_DIR = path.join(path.dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');

/** Only the shipped fonts: the frame text renders the same on every machine, and no system font scan is paid. */
const FONT_FILES = ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf'].map((file) => path.join(FONT_DIR, file));

export const MIN_PNG_WIDTH = 64;
export const MAX_PNG_WIDTH = 4096;

/**
 * An SVG from renderDesignSvg as a PNG `width` pixels wide (the height follows its aspect ratio), with DejaVu for
 * every font family. CPU-bound (tens of milliseconds at 1024 px): run it off the event loop when serving.
 */
export function renderDesignPng(svg: string, width: number): Buffer {
  if (!Number.isInteger(width) || width < MIN_PNG_WIDTH || width > MAX_PNG_WIDTH) {
    throw new RangeError(`width must be a whole number of pixels from ${MIN_PNG_WIDTH} to ${MAX_PNG_WIDTH}`);
  }
  const resvg = new Resvg(svg, {
    fitTo: { mode: 'width', value: width },
    font: {
      loadSystemFonts: false,
      fontFiles: FONT_FILES,
      defaultFontFamily: FRAME_FONT_FAMILY,
      sansSerifFamily: FRAME_FONT_FAMILY,
    },
    logLevel: 'off',
  });
  return resvg.render().asPng();
}
