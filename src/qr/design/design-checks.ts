import type { Colour, Design, DesignProblem, ErrorCorrectionLevel } from './design.js';
import { createMatrix, obscuredShare, type QrMatrix } from './design-matrix.js';

export type { QrMatrix };

/**
 * The least WCAG contrast ratio between every foreground colour and the background (the lightest gradient stop
 * counts, not only the darkest). Measured with grey on white: 2.61:1 (#a0a0a0) fails both jsQR and ZXing at 512
 * and 1024 px, where a module is wider than their binarisers' blocks; 3.03:1 (#949494) decodes at 256–2048 px.
 * 3:1 is also WCAG's floor for graphical objects (SC 1.4.11). The decode test keeps a pair just above it.
 */
export const MIN_CONTRAST = 3;

/** The call to action is large bold text: WCAG's 3:1 for large text (SC 1.4.3). */
export const MIN_FRAME_TEXT_CONTRAST = 3;

/** Logos up to this width (fraction of the code) get Q (25% of codewords recoverable), larger ones H (30%). */
export const LOGO_SIZE_FOR_Q = 0.2;

/**
 * A logo may hide at most this share of what the worst-hit error-correction block can correct, counting each hidden
 * codeword as lost with the chance that any of its hidden modules reads wrong (half, module by module: a logo or a
 * cleared margin is as likely to match a module as not). Measured: a vCard's code at H (version 13) with the
 * largest logo and its margin came to 0.98 (1.08 with the margin) and jsQR read it at none of 512–1024 px, though
 * it reads that code without a logo at every width; a short URL's code with the same logo comes to 0.93 and both
 * decoders read it at every width and shape in test/integration/qr-design-decode.test.ts.
 */
export const MAX_LOGO_DAMAGE = 0.95;

const LEVEL_ORDER: readonly ErrorCorrectionLevel[] = ['L', 'M', 'Q', 'H'];

/** Why a design would not scan (reasons worded for the designer), or nothing. Text-independent. */
export function checkDesign(design: Design): DesignProblem[] {
  const problems: DesignProblem[] = [];
  // Transparent codes are printed on something; white paper is the common case and the one we can check.
  const background = design.background ?? '#ffffff';
  const foregrounds = foregroundColours(design);
  let lighter = 0;
  for (const { path, color } of foregrounds) {
    const ratio = contrastRatio(color, background);
    if (ratio < MIN_CONTRAST) {
      problems.push({
        path,
        message: `contrast with the background is ${ratio.toFixed(2)}:1; scanners need at least ${MIN_CONTRAST}:1`,
      });
    }
    if (luminance(color) > luminance(background)) lighter++;
  }
  if (lighter > 0 && lighter < foregrounds.length) {
    problems.push({
      path: '/foreground',
      message: 'some foreground colours are lighter than the background and some darker; scanners need one or the other',
    });
  } else if (lighter === foregrounds.length && !design.confirmInverted) {
    problems.push({
      path: '/confirmInverted',
      message: 'the code is inverted (light on dark), which many scanners cannot read; confirm to keep it',
    });
  }
  // A finder reads 1:1:3:1:1 across and along its diagonals only when its ring and centre agree; a round centre
  // in a square ring (or a square one in a round ring) cannot match both, however render-svg.ts's cornerDotScale
  // sizes it, and jsQR then takes look-alikes in the data for corners: with a gradient and a frame, a classy code
  // with either pair missed 2–4 of 25 widths from 256 to 1024 px where matching shapes missed none. Dot modules make
  // small look-alikes of their own where they touch: a dot in a square ring missed 18 of 25 widths, and even a
  // rounded centre in a square ring (or the reverse) a few (725, 850 and 1050 px of 300–1100). Round and rounded
  // agree closely enough along the diagonals: with dot modules a round centre in a rounded ring (a common choice on
  // other generators) and the reverse read exactly as a rounded centre in a rounded ring does, measured over 351
  // renders each (3 texts × no, cleared and drawn-over logo × solid, linear and radial fills with banner and box
  // frames × 13 widths from 256 to 1036 px): the same one jsQR miss for all three pairs (a drawn-over bull's-eye logo
  // in a box at 841 px), none for ZXing over two frames. So with dot modules only a square half that does not match
  // is refused.
  const { shape: ring } = design.cornerFrame;
  const { shape: centre } = design.cornerDot;
  const name = (shape: string) => (shape === 'dot' ? 'round' : shape);
  if ((ring === 'square' && centre === 'dot') || (ring === 'dot' && centre === 'square')) {
    problems.push({
      path: '/cornerDot/shape',
      message: `a ${name(centre)} corner dot in a ${name(ring)} corner frame is missed by some scanners; choose a ${name(ring)} or rounded corner dot`,
    });
  } else if (design.moduleShape === 'dots' && ring !== centre && (ring === 'square' || centre === 'square')) {
    problems.push({
      path: '/cornerDot/shape',
      message: `with dot modules, a ${name(centre)} corner dot in a ${name(ring)} corner frame is missed by some scanners; choose a ${name(ring)} corner dot`,
    });
  }
  if (design.frame) {
    const ratio = contrastRatio(design.frame.textColor, design.frame.color);
    if (ratio < MIN_FRAME_TEXT_CONTRAST) {
      problems.push({
        path: '/frame/textColor',
        message: `contrast with the frame colour is ${ratio.toFixed(2)}:1; text needs at least ${MIN_FRAME_TEXT_CONTRAST}:1`,
      });
    }
    // A band or border touching the code reads as part of it: with a quiet zone of 0 neither decoder found the code.
    if (design.quietZone < 2) {
      problems.push({ path: '/quietZone', message: 'a frame needs a quiet zone of at least 2 modules' });
    }
  }
  return problems;
}

/**
 * The level a design asks for before its text is known: its own, raised to Q for a logo up to LOGO_SIZE_FOR_Q wide
 * and to H for a larger one. prepareDesign has the last word for a given text, and may keep Q for a large logo.
 */
export function effectiveErrorCorrection(design: Design): ErrorCorrectionLevel {
  const wanted = !design.logo ? design.errorCorrection : design.logo.size <= LOGO_SIZE_FOR_Q ? 'Q' : 'H';
  return LEVEL_ORDER.indexOf(wanted) > LEVEL_ORDER.indexOf(design.errorCorrection) ? wanted : design.errorCorrection;
}

/** Width in modules of the square the logo obscures, its cleared margin included. */
export function obscuredModules(design: Design, moduleCount: number): number {
  if (!design.logo) return 0;
  return design.logo.size * moduleCount + (design.logo.clearBehind ? 2 * design.logo.margin : 0);
}

export type PreparedDesign =
  | { ok: true; matrix: QrMatrix; errorCorrection: ErrorCorrectionLevel }
  | { ok: false; problems: DesignProblem[] };

/**
 * The matrix a design draws for `text`, or why it must not be drawn: the checks above, and a logo that hides more
 * of this code than its error correction restores (MAX_LOGO_DAMAGE). A logo gets effectiveErrorCorrection's level
 * when that restores it; otherwise the other of Q and H is tried, since the larger version H makes can put more of
 * a block under the logo (a vCard's code with the largest logo lost more at H than at Q, and did not decode).
 */
export function prepareDesign(design: Design, text: string): PreparedDesign {
  const problems = checkDesign(design);
  const wanted = effectiveErrorCorrection(design);
  const logo = design.logo;
  if (!logo) {
    return problems.length > 0 ? { ok: false, problems } : { ok: true, matrix: createMatrix(text, wanted), errorCorrection: wanted };
  }
  const damage = (matrix: QrMatrix, at: ErrorCorrectionLevel, obscured: number) =>
    obscuredShare(matrix, at, (matrix.size - obscured) / 2, (matrix.size + obscured) / 2);
  // Never below the design's own level, nor below Q with a logo.
  const least = Math.max(LEVEL_ORDER.indexOf(design.errorCorrection), LEVEL_ORDER.indexOf('Q'));
  const levels = [wanted, ...LEVEL_ORDER.slice(least).filter((candidate) => candidate !== wanted)];
  let best: { matrix: QrMatrix; damage: number; errorCorrection: ErrorCorrectionLevel } | undefined;
  for (const candidate of levels) {
    const matrix = createMatrix(text, candidate);
    const share = damage(matrix, candidate, obscuredModules(design, matrix.size));
    if (!best || share < best.damage) best = { matrix, damage: share, errorCorrection: candidate };
    if (share <= MAX_LOGO_DAMAGE) break;
  }
  const { matrix, errorCorrection } = best!;
  if (best!.damage > MAX_LOGO_DAMAGE) {
    const marginAtFault = logo.clearBehind && logo.margin > 0 && damage(matrix, errorCorrection, logo.size * matrix.size) <= MAX_LOGO_DAMAGE;
    problems.push({
      path: marginAtFault ? '/logo/margin' : '/logo/size',
      message: `the logo${marginAtFault ? ' and its margin' : ''} would hide more of this code than its error correction can restore; make the ${marginAtFault ? 'margin' : 'logo'} smaller`,
    });
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, matrix, errorCorrection };
}

function foregroundColours(design: Design): { path: string; color: Colour }[] {
  const fill = design.foreground;
  const colours =
    fill.type === 'solid'
      ? [{ path: '/foreground/color', color: fill.color }]
      : fill.stops.map((stop, i) => ({ path: `/foreground/stops/${i}/color`, color: stop.color }));
  if (design.cornerFrame.color) colours.push({ path: '/cornerFrame/color', color: design.cornerFrame.color });
  if (design.cornerDot.color) colours.push({ path: '/cornerDot/color', color: design.cornerDot.color });
  return colours;
}

/** WCAG 2 contrast ratio, 1–21. */
export function contrastRatio(a: Colour, b: Colour): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** WCAG 2 relative luminance of `#rrggbb`. */
export function luminance(colour: Colour): number {
  const channel = (offset: number) => {
    const c = parseInt(colour.slice(offset, offset + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}
