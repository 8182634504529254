import QRCode from 'qrcode';
import type { Colour, Design, DesignProblem, ErrorCorrectionLevel } from './design.js';

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
 * The most of the code's width the obscured square (logo plus its cleared margin) may take: 16% of the symbol's
 * area. The largest logo (0.3) with a 1-module margin on a version-3 code (29 modules) is 37% and decodes with both
 * decoders, cleared or drawn over, for every module shape (test/integration/qr-design-decode.test.ts).
 */
export const MAX_OBSCURED_WIDTH = 0.4;

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

/** The design's own level, raised to Q for a logo up to LOGO_SIZE_FOR_Q wide and to H for a larger one. */
export function effectiveErrorCorrection(design: Design): ErrorCorrectionLevel {
  const wanted = !design.logo ? design.errorCorrection : design.logo.size <= LOGO_SIZE_FOR_Q ? 'Q' : 'H';
  return LEVEL_ORDER.indexOf(wanted) > LEVEL_ORDER.indexOf(design.errorCorrection) ? wanted : design.errorCorrection;
}

/** Width in modules of the square the logo obscures, its cleared margin included. */
export function obscuredModules(design: Design, moduleCount: number): number {
  if (!design.logo) return 0;
  return design.logo.size * moduleCount + (design.logo.clearBehind ? 2 * design.logo.margin : 0);
}

export type QrMatrix = QRCode.QRCode['modules'];

export type PreparedDesign =
  | { ok: true; matrix: QrMatrix; errorCorrection: ErrorCorrectionLevel }
  | { ok: false; problems: DesignProblem[] };

/**
 * The matrix a design draws for `text`, or why it must not be drawn: the checks above, and a logo whose
 * obscured square takes more than MAX_OBSCURED_WIDTH of this code (a small version plus a wide margin).
 */
export function prepareDesign(design: Design, text: string): PreparedDesign {
  const problems = checkDesign(design);
  const errorCorrection = effectiveErrorCorrection(design);
  const { modules } = QRCode.create(text, { errorCorrectionLevel: errorCorrection });
  const obscured = obscuredModules(design, modules.size);
  if (obscured > MAX_OBSCURED_WIDTH * modules.size) {
    problems.push({
      path: '/logo',
      message: `the logo and its margin cover ${Math.round((100 * obscured) / modules.size)}% of the code's width; at most ${MAX_OBSCURED_WIDTH * 100}% still scans`,
    });
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, matrix: modules, errorCorrection };
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
