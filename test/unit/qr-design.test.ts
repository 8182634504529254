import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { checkDesign, contrastRatio, effectiveErrorCorrection, prepareDesign } from '../../src/qr/design/design-checks.js';
import { createMatrix, finderLookAlikes, obscuredShare } from '../../src/qr/design/design-matrix.js';
import { CORNER_DOT_SHAPES, CORNER_FRAME_SHAPES, DEFAULT_DESIGN, type Design, MODULE_SHAPES, parseDesign } from '../../src/qr/design/design.js';
import { cornerDotScale, DesignRefusedError, renderDesignSvg } from '../../src/qr/design/render-svg.js';

// The smallest valid PNG header the parser checks: signature, IHDR of 1×1.
const TINY_PNG = Buffer.from('89504e470d0a1a0a0000000d494844520000000100000001080600000000', 'hex').toString('base64').padEnd(44, 'A');

const SHORT_URL = 'HTTPS://X.EXAMPLE/R/A';
const VCARD =
  'BEGIN:VCARD\nVERSION:3.0\nN:Lovelace;Ada\nFN:Ada Lovelace\nORG:Analytical Engines Ltd\nTEL;TYPE=CELL:+44 20 7946 0018\nEMAIL:ada@engines.example\nURL:https://engines.example/ada\nEND:VCARD';

function design(input: unknown): Design {
  const parsed = parseDesign(input);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.design;
}

describe('parseDesign', () => {
  it('gives the default design for an empty object and normalises colours', () => {
    expect(design({})).toEqual(DEFAULT_DESIGN);
    expect(design({ background: '#FfF', foreground: { type: 'solid', color: '#1A2B3C' } })).toMatchObject({
      background: '#ffffff',
      foreground: { color: '#1a2b3c' },
    });
    expect(design({ background: null }).background).toBeNull();
  });

  it('accepts a full design', () => {
    const full = design({
      foreground: { type: 'linear', angle: 45, stops: [{ offset: 0, color: '#112233' }, { offset: 1, color: '#334455' }] },
      moduleShape: 'classy-rounded',
      cornerFrame: { shape: 'dot', color: '#aa0000' },
      cornerDot: { shape: 'rounded' },
      logo: { png: TINY_PNG, size: 0.25, margin: 2, clearBehind: false },
      quietZone: 2,
      frame: { style: 'box', text: '  Scan me  ', color: '#000000', textColor: '#ffffff' },
    });
    expect(full.frame?.text).toBe('Scan me');
    expect(full.logo).toMatchObject({ size: 0.25, margin: 2, clearBehind: false });
  });

  it('refuses every wrong field at once, each with its JSON pointer', () => {
    const parsed = parseDesign({
      foreground: { type: 'linear', stops: [{ offset: 0.5, color: 'red' }, { offset: 0.2, color: '#000' }], color: '#000' },
      moduleShape: 'hexagon',
      quietZone: 11,
      logo: { png: Buffer.from('GIF89a not a png').toString('base64'), size: 0.31 },
      frame: { text: 'x'.repeat(31) },
      colour: '#000000',
    });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.problems.map((p) => p.path).sort()).toEqual(
      [
        '/colour',
        '/foreground/color',
        '/foreground/stops/0/color',
        '/foreground/stops/1/offset',
        '/frame/text',
        '/logo/png',
        '/logo/size',
        '/moduleShape',
        '/quietZone',
      ].sort(),
    );
    expect(parsed.problems.find((p) => p.path === '/quietZone')?.message).toBe('must be a whole number from 0 to 10');
  });

  it('refuses what is not an object', () => {
    expect(parseDesign('square')).toEqual({ ok: false, problems: [{ path: '/', message: 'must be an object' }] });
    expect(parseDesign({ foreground: { type: 'radial', stops: [] } })).toMatchObject({ ok: false, problems: [{ path: '/foreground/stops' }] });
  });
});

describe('scannability checks', () => {
  it('measures WCAG contrast', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#949494', '#ffffff')).toBeCloseTo(3.03, 2);
  });

  it('refuses a foreground below 3:1, naming the colour and the ratio', () => {
    expect(checkDesign(design({ foreground: { type: 'solid', color: '#a0a0a0' } }))).toEqual([
      { path: '/foreground/color', message: 'contrast with the background is 2.61:1; scanners need at least 3:1' },
    ]);
    expect(checkDesign(design({ foreground: { type: 'solid', color: '#949494' } }))).toEqual([]);
  });

  it('checks every gradient stop and corner colour, not only the darkest', () => {
    const gradient = design({
      foreground: { type: 'radial', stops: [{ offset: 0, color: '#000000' }, { offset: 1, color: '#cccccc' }] },
      cornerDot: { color: '#eeeeee' },
    });
    expect(checkDesign(gradient).map((p) => p.path)).toEqual(['/foreground/stops/1/color', '/cornerDot/color']);
  });

  it('checks a transparent code as printed on white', () => {
    expect(checkDesign(design({ background: null, foreground: { type: 'solid', color: '#dddddd' } })).map((p) => p.path)).toEqual(['/foreground/color']);
  });

  it('refuses an inverted code unless confirmed', () => {
    const inverted = { foreground: { type: 'solid', color: '#ffffff' }, background: '#000000' };
    expect(checkDesign(design(inverted))).toEqual([
      { path: '/confirmInverted', message: expect.stringContaining('inverted') },
    ]);
    expect(checkDesign(design({ ...inverted, confirmInverted: true }))).toEqual([]);
    expect(() => renderDesignSvg(design(inverted), 'HTTPS://X.EXAMPLE/R/A')).toThrow(DesignRefusedError);
  });

  it('refuses colours on both sides of the background, since the gradient passes through it', () => {
    const mixed = design({
      background: '#777777',
      foreground: { type: 'linear', angle: 0, stops: [{ offset: 0, color: '#000000' }, { offset: 1, color: '#ffffff' }] },
      confirmInverted: true,
    });
    expect(checkDesign(mixed).map((p) => p.path)).toContain('/foreground');
  });

  it('refuses frame text that cannot be read on its band', () => {
    expect(checkDesign(design({ frame: { text: 'Scan me', color: '#ffffff', textColor: '#eeeeee' } })).map((p) => p.path)).toEqual(['/frame/textColor']);
    expect(checkDesign(design({ quietZone: 1, frame: { text: 'Scan me' } })).map((p) => p.path)).toEqual(['/quietZone']);
  });

  it('raises error correction to Q for a logo up to 0.2 and to H above, never lowers it', () => {
    expect(effectiveErrorCorrection(design({}))).toBe('M');
    expect(effectiveErrorCorrection(design({ logo: { png: TINY_PNG, size: 0.2 } }))).toBe('Q');
    expect(effectiveErrorCorrection(design({ logo: { png: TINY_PNG, size: 0.21 } }))).toBe('H');
    expect(effectiveErrorCorrection(design({ errorCorrection: 'H', logo: { png: TINY_PNG, size: 0.1 } }))).toBe('H');
    const prepared = prepareDesign(design({ logo: { png: TINY_PNG, size: 0.3 } }), 'HTTPS://X.EXAMPLE/R/A');
    expect(prepared).toMatchObject({ ok: true, errorCorrection: 'H' });
  });

  it('refuses a logo whose margin makes it cover too much of a small code, naming the margin', () => {
    const prepared = prepareDesign(design({ logo: { png: TINY_PNG, size: 0.3, margin: 2 } }), SHORT_URL);
    expect(prepared).toMatchObject({ ok: false, problems: [{ path: '/logo/margin', message: expect.stringContaining('make the margin smaller') }] });
    expect(prepareDesign(design({ logo: { png: TINY_PNG, size: 0.3, margin: 1 } }), SHORT_URL)).toMatchObject({ ok: true, errorCorrection: 'H' });
  });

  it('draws a logo at the level it asks for when that restores it: Q up to 0.2 wide, H above', () => {
    expect(prepareDesign(design({ logo: { png: TINY_PNG, size: 0.2 } }), SHORT_URL)).toMatchObject({ ok: true, errorCorrection: 'Q' });
    expect(prepareDesign(design({ logo: { png: TINY_PNG, size: 0.25 } }), SHORT_URL)).toMatchObject({ ok: true, errorCorrection: 'H' });
  });

  it('keeps Q for a large logo on a long text when H would put more of a block under the logo', () => {
    const prepared = prepareDesign(design({ logo: { png: TINY_PNG, size: 0.3 } }), VCARD);
    expect(prepared).toMatchObject({ ok: true, errorCorrection: 'Q' });
  });

  it('refuses a logo too large for the error correction the design insists on, naming the size', () => {
    const prepared = prepareDesign(design({ errorCorrection: 'H', logo: { png: TINY_PNG, size: 0.3, margin: 0 } }), VCARD);
    expect(prepared).toMatchObject({ ok: false, problems: [{ path: '/logo/size', message: expect.stringContaining('make the logo smaller') }] });
    expect(obscuredShare(createMatrix(VCARD, 'H'), 'H', 0, 0)).toBe(0);
  });

  it('refuses a round corner dot in a square corner frame and the reverse, and with dot modules any square corner that does not match', () => {
    expect(checkDesign(design({ cornerDot: { shape: 'dot' } }))).toEqual([
      { path: '/cornerDot/shape', message: 'a round corner dot in a square corner frame is missed by some scanners; choose a square or rounded corner dot' },
    ]);
    expect(checkDesign(design({ cornerFrame: { shape: 'dot' }, cornerDot: { shape: 'square' } }))).toEqual([
      { path: '/cornerDot/shape', message: 'a square corner dot in a round corner frame is missed by some scanners; choose a round or rounded corner dot' },
    ]);
    expect(checkDesign(design({ moduleShape: 'dots', cornerFrame: { shape: 'rounded' }, cornerDot: { shape: 'square' } }))).toEqual([
      { path: '/cornerDot/shape', message: 'with dot modules, a square corner dot in a rounded corner frame is missed by some scanners; choose a rounded corner dot' },
    ]);
    // The combination other generators offer: dots, a rounded corner frame and a round corner dot (it decodes; see design-checks.ts).
    expect(checkDesign(design({ moduleShape: 'dots', cornerFrame: { shape: 'rounded' }, cornerDot: { shape: 'dot' } }))).toEqual([]);
    for (const moduleShape of MODULE_SHAPES) {
      for (const frame of CORNER_FRAME_SHAPES) {
        for (const dot of CORNER_DOT_SHAPES) {
          const mismatched =
            (frame === 'square' && dot === 'dot') || (frame === 'dot' && dot === 'square') || (moduleShape === 'dots' && frame !== dot && (frame === 'square' || dot === 'square'));
          const problems = checkDesign(design({ moduleShape, cornerFrame: { shape: frame }, cornerDot: { shape: dot } }));
          expect(problems.length, `${moduleShape} ${frame} ${dot}`).toBe(mismatched ? 1 : 0);
        }
      }
    }
  });
});

describe('the QR matrix a design draws', () => {
  it('picks the mask with the fewest finder look-alikes, keeping the standard choice when it has none', () => {
    // The standard's mask for this vCard at M leaves 8 crossings ZXing takes for a finder; one of the others leaves 5.
    const standard = QRCode.create(VCARD, { errorCorrectionLevel: 'M' });
    const chosen = createMatrix(VCARD, 'M');
    expect(finderLookAlikes(standard.modules)).toBe(8);
    expect(finderLookAlikes(chosen)).toBe(5);
    const clean = QRCode.create(SHORT_URL, { errorCorrectionLevel: 'M' });
    if (finderLookAlikes(clean.modules) === 0) expect(createMatrix(SHORT_URL, 'M').data).toEqual(clean.modules.data);
  });

  it('draws the corner dot at a size that keeps the finder 1:1:3:1:1 along the diagonals too', () => {
    for (const shape of CORNER_DOT_SHAPES) expect(cornerDotScale(shape, shape)).toBe(1);
    expect(cornerDotScale('square', 'rounded')).toBeCloseTo(1.13, 2);
    expect(cornerDotScale('rounded', 'square')).toBeCloseTo(0.88, 2);
    expect(cornerDotScale('rounded', 'rounded')).toBe(1);
  });
});

describe('renderDesignSvg', () => {
  it('escapes the frame text and refers to nothing outside the image', () => {
    const svg = renderDesignSvg(design({ frame: { text: '<script>&"\'' } }), 'HTTPS://X.EXAMPLE/R/A');
    expect(svg).toContain('&lt;script&gt;&amp;&quot;&apos;');
    expect(svg).not.toContain('<script');
    expect(svg.match(/(?:href|url)\(?="?[^#d"][^"]*/g) ?? []).toEqual([]);
    // The frame text is outlined (a path), so nothing in the image needs a font.
    expect(new Set(svg.match(/<[a-zA-Z]+/g))).toEqual(new Set(['<svg', '<rect', '<path', '<g']));
  });

  it('renders the same bytes for the same design and text', () => {
    const d = design({ moduleShape: 'dots', foreground: { type: 'radial', stops: [{ offset: 0, color: '#000000' }, { offset: 1, color: '#333333' }] } });
    expect(renderDesignSvg(d, 'HTTPS://X.EXAMPLE/R/A')).toBe(renderDesignSvg(d, 'HTTPS://X.EXAMPLE/R/A'));
  });
});
