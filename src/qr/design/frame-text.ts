import { createRequire } from 'node:module';
import path from 'node:path';

/** The slice of fontkit's API used here (the package ships no types). */
interface GlyphPath {
  scale(sx: number, sy: number): GlyphPath;
  translate(x: number, y: number): GlyphPath;
  toSVG(): string;
}
interface FontkitFont {
  unitsPerEm: number;
  layout(text: string): { glyphs: { path: GlyphPath }[]; positions: { xAdvance: number; xOffset: number; yOffset: number }[]; advanceWidth: number };
}

const require = createRequire(import.meta.url);
const fontkit = require('fontkit') as { openSync(file: string): FontkitFont };
// The package has no entry point, only its font files; its package.json locates them wherever npm put it.
const BOLD_FONT = path.join(path.dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf', 'DejaVuSans-Bold.ttf');

/**
 * DejaVu Sans Bold, read once per thread on first use (about 10 ms) rather than at import: most renders have no
 * frame. DejaVu's licence (Bitstream Vera's) allows embedding; outlines do not even embed the font.
 */
const boldFont = (() => {
  let font: FontkitFont | undefined;
  return () => (font ??= fontkit.openSync(BOLD_FONT));
})();

/** Width of `text` set in DejaVu Sans Bold at 1 unit per em, kerning included. */
export function frameTextWidthEm(text: string): number {
  const font = boldFont();
  return font.layout(text).advanceWidth / font.unitsPerEm;
}

/**
 * `text` in DejaVu Sans Bold as one SVG path (its glyph outlines), `fontSize` units high, centred on `centreX`
 * with its baseline at `baseline`. Outlines instead of `<text>`: a print shop's RIP, a PDF or an EPS needs no font
 * and cannot substitute one, and every renderer draws exactly the same shapes. A character the font lacks is
 * drawn as its missing-glyph box, as `<text>` without a fallback font drew it.
 */
export function frameTextPath(text: string, fontSize: number, centreX: number, baseline: number): string {
  const font = boldFont();
  const run = font.layout(text);
  const unit = fontSize / font.unitsPerEm;
  let x = centreX - (run.advanceWidth * unit) / 2;
  const parts: string[] = [];
  run.glyphs.forEach((glyph, i) => {
    const position = run.positions[i]!;
    // Font units are y-up; SVG is y-down.
    const outline = glyph.path.scale(unit, -unit).translate(x + position.xOffset * unit, baseline - position.yOffset * unit).toSVG();
    if (outline) parts.push(outline);
    x += position.xAdvance * unit;
  });
  return roundPath(parts.join(''));
}

/** fontkit writes full float precision; a thousandth of a module is invisible and keeps the SVG small. */
function roundPath(d: string): string {
  return d.replace(/-?\d+\.\d+(e-?\d+)?/g, (n) => String(Math.round(Number(n) * 1000) / 1000));
}
