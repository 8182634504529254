import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { type Design, parseDesign } from '../../src/qr/design/design.js';
import { naiveCmyk, type PrintPage } from '../../src/qr/design/print-page.js';
import { pathToPs } from '../../src/qr/design/render-eps.js';
import { renderQrImageBody } from '../../src/qr/render.js';

// jsqr is CommonJS with an ESM-style default in its typings; require gives the function under either view.
const jsQR = createRequire(import.meta.url)('jsqr') as typeof import('jsqr').default;

const TEXT = 'HTTPS://QR.EXAMPLE.COM/R/7K3M9QXD';
const POINTS_PER_MM = 72 / 25.4;

function design(input: unknown): Design {
  const parsed = parseDesign(input);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.design;
}

const FANCY = design({
  moduleShape: 'dots',
  foreground: { type: 'linear', angle: 45, stops: [{ offset: 0, color: '#1d4ed8' }, { offset: 1, color: '#7e22ce' }] },
  cornerFrame: { shape: 'rounded' },
  cornerDot: { shape: 'dot' },
  frame: { style: 'banner', text: 'Scan me', color: '#111827', textColor: '#fde68a' },
});

async function printFile(format: 'eps' | 'pdf' | 'svg', print: PrintPage | null, look: Design | null = FANCY): Promise<string> {
  return (await renderQrImageBody({ text: TEXT, format, size: 512, margin: 4, ecc: 'M', design: look, print })).toString('latin1');
}

/** Ghostscript, where the machine has it (Debian's `ghostscript`); CI does not need it, the structural checks stand alone. */
const ghostscript = (() => {
  try {
    execFileSync('gs', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe('print files', () => {
  it('converts sRGB to CMYK naively: black is black ink only, white no ink', () => {
    expect(naiveCmyk([0, 0, 0])).toEqual([0, 0, 0, 100]);
    expect(naiveCmyk([255, 255, 255])).toEqual([0, 0, 0, 0]);
    expect(naiveCmyk([255, 0, 0])).toEqual([0, 100, 100, 0]);
    expect(naiveCmyk([0x1d, 0x4e, 0xd8])).toEqual([86.6, 63.9, 0, 15.3]);
  });

  it('runs the background and a banner into the bleed: the SVG drawn for print starts at minus the bleed', async () => {
    const svg = await printFile('svg', null);
    expect(svg).toMatch(/viewBox="0 0 /);
    // An SVG is never drawn with a bleed (the print page applies to PDF and EPS only).
    expect(await printFile('svg', { sizeMm: 50, bleedMm: 3, cropMarks: false, cmyk: false })).toBe(svg);
  });

  it('writes an EPS whose bounding box is the code, the bleed and the crop marks area, in CMYK when asked', async () => {
    const eps = await printFile('eps', { sizeMm: 50, bleedMm: 3, cropMarks: true, cmyk: true });
    const lines = eps.split('\n');
    expect(lines[0]).toBe('%!PS-Adobe-3.0 EPSF-3.0');
    expect(lines).toContain('%%LanguageLevel: 3');
    const [, width] = /%%HiResBoundingBox: 0 0 ([\d.]+) ([\d.]+)/.exec(eps)!.map(Number);
    expect(width! / POINTS_PER_MM).toBeCloseTo(50 + 2 * 3 + 2 * 10, 2);
    expect(eps.trimEnd().endsWith('showpage\n%%EOF')).toBe(true);
    // Balanced graphics states, colours only as CMYK (shadings too), eight crop mark strokes.
    expect(eps.match(/\bgsave\b/g)?.length).toBe(eps.match(/\bgrestore\b/g)?.length);
    expect(eps).toContain('setcmykcolor');
    expect(eps).not.toContain('setrgbcolor');
    expect(eps).toContain('/ColorSpace /DeviceCMYK');
    expect(eps.match(/ L stroke/g)).toHaveLength(8);
    // EPS must not reset the placing document's state.
    expect(eps).not.toMatch(/\b(initmatrix|initgraphics|erasepage|setpagedevice)\b/);
    // The frame text is outlined: no font is asked for.
    expect(eps).not.toMatch(/findfont|selectfont/);
  });

  it('turns SVG arcs into PostScript arcs about their centre', () => {
    // A circle as renderDesignSvg writes one: two half arcs with the large-arc flag set, counter-clockwise.
    expect(pathToPs('M0 1a1 1 0 1 0 2 0a1 1 0 1 0 -2 0z')).toBe('0 1 M 1 1 1 180 0 arcn 1 1 1 0 180 arcn Z');
    // A rounded corner, clockwise; a fontkit quadratic becomes a cubic.
    expect(pathToPs('M1 0H4A1 1 0 0 1 5 1')).toBe('1 0 M 4 0 L 4 1 1 -90 0 arc');
    expect(pathToPs('M0 0Q3 3 6 0')).toBe('0 0 M 2 2 4 2 6 0 C');
  });

  it.skipIf(!ghostscript)('draws an EPS and a PDF that ghostscript renders and jsQR decodes', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'qroute-print-'));
    try {
      for (const [format, print] of [
        ['eps', { sizeMm: 40, bleedMm: 3, cropMarks: true, cmyk: false }],
        ['pdf', null],
      ] as const) {
        const file = path.join(folder, `code.${format}`);
        writeFileSync(file, await printFile(format, print), 'latin1');
        const png = path.join(folder, `${format}.png`);
        execFileSync('gs', ['-q', '-dNOPAUSE', '-dBATCH', '-dSAFER', '-dEPSCrop', '-sDEVICE=png16m', '-r150', `-sOutputFile=${png}`, file]);
        const image = PNG.sync.read(readFileSync(png));
        expect(jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data, format).toBe(TEXT);
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
