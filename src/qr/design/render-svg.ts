import { createHash } from 'node:crypto';
import type { CornerDotShape, CornerFrameShape, Design, DesignProblem, Fill } from './design.js';
import { prepareDesign, type QrMatrix } from './design-checks.js';
import { toXmlText } from '../../text-rules.js';
import { frameTextPath, frameTextWidthEm } from './frame-text.js';

/** The design would not scan; `problems` say why (the same as checkDesign and prepareDesign give). */
export class DesignRefusedError extends Error {
  constructor(readonly problems: DesignProblem[]) {
    super(`design refused: ${problems.map((p) => `${p.path} ${p.message}`).join('; ')}`);
  }
}

export interface SvgOptions {
  /** The `width` attribute in pixels; the height follows (a frame makes the image taller than wide). */
  width?: number;
  /**
   * Drawn for a raster image exactly `width` pixels wide: every module a whole number of pixels (crisp edges, every
   * module the same size), the pixels left over added to the quiet zone, centred, and a frame's band a whole number
   * of pixels high, so the height is whole too.
   */
  wholePixels?: boolean;
  /**
   * For print: how far the artwork runs past the image's edges, as a fraction of its width. The background (or a
   * frame's colour, where a frame meets the edge) fills it and the viewBox starts at minus the bleed (svg-box.ts).
   */
  bleed?: number;
}

/** Band under the code for the frame's text, as a fraction of the code's side (quiet zone included). */
const BAND_HEIGHT = 0.2;
/** Half DejaVu's cap height: the baseline offset that centres capitals in the band. */
const CAP_CENTRE_EM = 0.36;

/**
 * Where everything goes, in modules: the quiet zone on each side (more than the design's when pixels are padded
 * into it), the frame's border (a box's) and band, and the whole image.
 */
export interface DesignLayout {
  /** Module count of the matrix. */
  n: number;
  border: number;
  /** Quiet zone left (and top) and right (and bottom) of the matrix. */
  quietBefore: number;
  quietAfter: number;
  /** The code's square, quiet zone included. */
  codeSide: number;
  band: number;
  width: number;
  height: number;
  /** Pixels per module when drawn with `wholePixels`, else undefined. */
  pixelsPerModule?: number;
}

/** The layout of a design around a matrix of `n` modules; see SvgOptions.wholePixels for `pixelWidth`. */
export function designLayout(design: Design, n: number, pixelWidth?: number): DesignLayout {
  const border = design.frame?.style === 'box' ? 1 : 0;
  const q = design.quietZone;
  const modulesWide = n + 2 * q + 2 * border;
  const scale = pixelWidth === undefined ? 0 : Math.floor(pixelWidth / modulesWide);
  if (pixelWidth === undefined || scale < 1) {
    // Not snapped (or below a pixel a module, where nothing can be crisp): the design's own proportions.
    const codeSide = n + 2 * q;
    const band = design.frame ? codeSide * BAND_HEIGHT : 0;
    return { n, border, quietBefore: q, quietAfter: q, codeSide, band, width: codeSide + 2 * border, height: border + codeSide + band };
  }
  const spare = pixelWidth - scale * modulesWide;
  const quietBefore = q + Math.floor(spare / 2) / scale;
  const quietAfter = q + (spare - Math.floor(spare / 2)) / scale;
  const codeSide = n + quietBefore + quietAfter;
  const band = design.frame ? Math.round(codeSide * scale * BAND_HEIGHT) / scale : 0;
  return { n, border, quietBefore, quietAfter, codeSide, band, width: pixelWidth / scale, height: border + codeSide + band, pixelsPerModule: scale };
}

/**
 * A design drawn around `text`'s QR matrix as a self-contained SVG: our own elements only, no external
 * references (the logo is a data: URL), no fonts (the frame text is outlined, frame-text.ts). Coordinates are in
 * modules. Deterministic. Throws DesignRefusedError for a design that would not scan.
 */
export function renderDesignSvg(design: Design, text: string, options: SvgOptions = {}): string {
  const prepared = prepareDesign(design, text);
  if (!prepared.ok) throw new DesignRefusedError(prepared.problems);
  const matrix = prepared.matrix;
  const n = matrix.size;
  // Ids unique to this image, so several SVGs inlined in one page do not take each other's gradients.
  const id = 'qr' + createHash('sha256').update(JSON.stringify(design)).update('\0').update(text).digest('hex').slice(0, 10);

  const pixelWidth = options.width ?? 512;
  const layout = designLayout(design, n, options.wholePixels ? pixelWidth : undefined);
  const { border, codeSide, band, width, height } = layout;
  const origin = border + layout.quietBefore;

  const parts: string[] = [];
  const defs: string[] = [];
  const fgFill = paint(design.foreground, `${id}-fg`, n, defs);

  const bleed = (options.bleed ?? 0) * width;
  if (design.frame?.style === 'box') {
    // The frame colour everywhere but the code's square, so a transparent code stays transparent inside its box.
    // Running into a bleed, it is square: its rounded corners would be cut off anyway.
    const outline = bleed > 0 ? rect(-bleed, -bleed, width + 2 * bleed, height + 2 * bleed) : roundedRect(0, 0, width, height, [1, 1, 1, 1]);
    parts.push(`<path fill="${design.frame.color}" fill-rule="evenodd" d="${outline}${rect(border, border, codeSide, codeSide)}"/>`);
    if (design.background) parts.push(`<rect x="${border}" y="${border}" width="${num(codeSide)}" height="${num(codeSide)}" fill="${design.background}"/>`);
  } else {
    if (design.background) {
      parts.push(`<rect x="${precise(-bleed)}" y="${precise(-bleed)}" width="${precise(width + 2 * bleed)}" height="${precise(height + 2 * bleed)}" fill="${design.background}"/>`);
    }
    if (design.frame) {
      const bandPath = bleed > 0 ? rect(-bleed, codeSide, width + 2 * bleed, band + bleed) : roundedRect(0, codeSide, width, band, [0, 0, 1, 1]);
      parts.push(`<path fill="${design.frame.color}" d="${bandPath}"/>`);
    }
  }

  // Precise: with whole pixels, the matrix must start on a pixel boundary for its edges to stay sharp.
  parts.push(`<g transform="translate(${precise(origin)} ${precise(origin)})">`);
  parts.push(`<path fill="${fgFill}" d="${modulesPath(design, matrix)}"/>`);
  const frameFill = design.cornerFrame.color ?? fgFill;
  const dotFill = design.cornerDot.color ?? fgFill;
  const centreScale = cornerDotScale(design.cornerFrame.shape, design.cornerDot.shape);
  for (const [row, col] of [[0, 0], [0, n - 7], [n - 7, 0]] as const) {
    parts.push(`<path fill="${frameFill}" fill-rule="evenodd" d="${cornerFramePath(design.cornerFrame.shape, col, row)}"/>`);
    parts.push(`<path fill="${dotFill}" d="${cornerDotPath(design.cornerDot.shape, col + 3.5, row + 3.5, centreScale)}"/>`);
  }
  if (design.logo) {
    const side = design.logo.size * n;
    const at = num((n - side) / 2);
    parts.push(
      `<image x="${at}" y="${at}" width="${num(side)}" height="${num(side)}" preserveAspectRatio="xMidYMid meet" href="data:image/png;base64,${design.logo.png}"/>`,
    );
  }
  parts.push('</g>');

  if (design.frame) {
    // As large as fits: 55% of the band high, and at most 90% of the width wide.
    const fontSize = Math.min(band * 0.55, (0.9 * width) / Math.max(frameTextWidthEm(design.frame.text), 0.5));
    const baseline = border + codeSide + band / 2 + fontSize * CAP_CENTRE_EM;
    parts.push(`<path fill="${design.frame.textColor}" data-text="${escapeXml(design.frame.text)}" d="${frameTextPath(design.frame.text, fontSize, width / 2, baseline)}"/>`);
  }

  const pixelHeight = layout.pixelsPerModule ? Math.round(height * layout.pixelsPerModule) : num((pixelWidth * height) / width);
  return (
    (bleed > 0
      ? `<svg xmlns="http://www.w3.org/2000/svg" width="${num((pixelWidth * (width + 2 * bleed)) / width)}" height="${num((pixelWidth * (height + 2 * bleed)) / width)}" viewBox="${precise(-bleed)} ${precise(-bleed)} ${precise(width + 2 * bleed)} ${precise(height + 2 * bleed)}">`
      : `<svg xmlns="http://www.w3.org/2000/svg" width="${pixelWidth}" height="${pixelHeight}" viewBox="0 0 ${precise(width)} ${precise(height)}">`) +
    (defs.length > 0 ? `<defs>${defs.join('')}</defs>` : '') +
    parts.join('') +
    '</svg>'
  );
}

/** A fill attribute value; gradients span the matrix (in its own coordinates) so modules and corners share one. */
function paint(fill: Fill, gradientId: string, n: number, defs: string[]): string {
  if (fill.type === 'solid') return fill.color;
  const stops = fill.stops.map((s) => `<stop offset="${num(s.offset)}" stop-color="${s.color}"/>`).join('');
  if (fill.type === 'radial') {
    // Reaching the corners: half the diagonal.
    defs.push(`<radialGradient id="${gradientId}" gradientUnits="userSpaceOnUse" cx="${num(n / 2)}" cy="${num(n / 2)}" r="${num((n / 2) * Math.SQRT2)}">${stops}</radialGradient>`);
  } else {
    const radians = (fill.angle * Math.PI) / 180;
    const dx = Math.cos(radians);
    const dy = Math.sin(radians);
    // The projection of the square on the gradient's direction, so the first and last stops land on its corners.
    const half = ((Math.abs(dx) + Math.abs(dy)) * n) / 2;
    const c = n / 2;
    defs.push(
      `<linearGradient id="${gradientId}" gradientUnits="userSpaceOnUse" x1="${num(c - dx * half)}" y1="${num(c - dy * half)}" x2="${num(c + dx * half)}" y2="${num(c + dy * half)}">${stops}</linearGradient>`,
    );
  }
  return `url(#${gradientId})`;
}

/** Every dark data and timing module (finder patterns are drawn apart), minus those a logo clears. */
function modulesPath(design: Design, matrix: QrMatrix): string {
  const n = matrix.size;
  const dark = (row: number, col: number) => row >= 0 && col >= 0 && row < n && col < n && matrix.get(row, col) === 1;
  const cleared = clearedArea(design, n);
  const inFinder = (row: number, col: number) => (row < 7 && col < 7) || (row < 7 && col >= n - 7) || (row >= n - 7 && col < 7);
  const isCleared = (row: number, col: number) =>
    cleared !== null && !matrix.isReserved(row, col) && col + 1 > cleared.from && col < cleared.to && row + 1 > cleared.from && row < cleared.to;
  const drawn = (row: number, col: number) => dark(row, col) && !inFinder(row, col) && !isCleared(row, col);

  const path: string[] = [];
  for (let row = 0; row < n; row++) {
    for (let col = 0; col < n; col++) {
      if (!drawn(row, col)) continue;
      // Function patterns (timing, alignment, format) stay whole squares: jsQR locates the grid by them, and dotted
      // alignment patterns cost it codes that ZXing still read.
      if (design.moduleShape === 'dots' && !matrix.isReserved(row, col)) {
        // Full-width dots: at radius 0.45 jsQR stopped finding the code at 1024 px (the gaps break its grid).
        path.push(circle(col + 0.5, row + 0.5, 0.5));
        continue;
      }
      // A corner may be rounded only where both its neighbours are empty, so joined modules stay joined.
      const up = !drawn(row - 1, col);
      const down = !drawn(row + 1, col);
      const left = !drawn(row, col - 1);
      const right = !drawn(row, col + 1);
      const free = { tl: up && left, tr: up && right, br: down && right, bl: down && left };
      const radii = cornerRadii(design.moduleShape, free);
      path.push(radii.every((r) => r === 0) ? rect(col, row, 1, 1) : roundedRect(col, row, 1, 1, radii));
    }
  }
  return path.join('');
}

function cornerRadii(shape: Design['moduleShape'], free: { tl: boolean; tr: boolean; br: boolean; bl: boolean }): [number, number, number, number] {
  switch (shape) {
    case 'rounded':
      return [free.tl ? 0.5 : 0, free.tr ? 0.5 : 0, free.br ? 0.5 : 0, free.bl ? 0.5 : 0];
    case 'classy':
      return [free.tl ? 0.5 : 0, 0, free.br ? 0.5 : 0, 0];
    case 'classy-rounded':
      return [free.tl ? 0.5 : 0, free.tr ? 0.2 : 0, free.br ? 0.5 : 0, free.bl ? 0.2 : 0];
    default:
      return [0, 0, 0, 0];
  }
}

/** The logo's square plus its margin in module coordinates, when the modules behind it are removed. */
function clearedArea(design: Design, n: number): { from: number; to: number } | null {
  if (!design.logo?.clearBehind) return null;
  const side = design.logo.size * n + 2 * design.logo.margin;
  return { from: (n - side) / 2, to: (n + side) / 2 };
}

function cornerFramePath(shape: Design['cornerFrame']['shape'], x: number, y: number): string {
  switch (shape) {
    case 'dot':
      return circle(x + 3.5, y + 3.5, 3.5) + circle(x + 3.5, y + 3.5, 2.5);
    case 'rounded':
      return roundedRect(x, y, 7, 7, [2.5, 2.5, 2.5, 2.5]) + roundedRect(x + 1, y + 1, 5, 5, [1.5, 1.5, 1.5, 1.5]);
    default:
      return rect(x, y, 7, 7) + rect(x + 1, y + 1, 5, 5);
  }
}

/**
 * How far a finder pattern reaches from its centre along a diagonal, in modules, for each shape of its 7×7 ring
 * and of its 3×3 centre (a rounded square's corner arc is nearer the centre than a square's corner).
 */
const FRAME_DIAGONAL_REACH: Record<CornerFrameShape, number> = {
  square: 3.5 * Math.SQRT2,
  rounded: (3.5 - 2.5) * Math.SQRT2 + 2.5,
  dot: 3.5,
};
const DOT_DIAGONAL_REACH: Record<CornerDotShape, number> = {
  square: 1.5 * Math.SQRT2,
  rounded: (1.5 - 1) * Math.SQRT2 + 1,
  dot: 1.5,
};

/**
 * The factor the corner dot is drawn at so that its finder pattern still reads 1:1:3:1:1 along the diagonals as
 * well as across. jsQR ranks finder candidates by how far their runs across, down and along both diagonals stray
 * from those proportions, so a corner whose centre strays along the diagonals can lose to look-alikes in the data:
 * a classy code with a rounded dot in a square ring and a cleared logo failed jsQR at 256 px until the dot was
 * scaled. The centre is scaled to split the error evenly between the straight and the diagonal runs (a rounded dot
 * in a square ring grows to 1.13, a square one in a rounded ring shrinks to 0.88); matching shapes keep their size.
 * A round dot in a square ring (or the reverse) strays too far for any size to help; checkDesign refuses those.
 */
export function cornerDotScale(frame: CornerFrameShape, dot: CornerDotShape): number {
  // A pattern reaching R along a diagonal reads 1:1:3:1:1 there when its centre reaches 3/7 of R.
  const ideal = (3 * FRAME_DIAGONAL_REACH[frame]) / 7;
  const scale = (1.5 + ideal) / (1.5 + DOT_DIAGONAL_REACH[dot]);
  return Math.abs(scale - 1) < 0.05 ? 1 : scale;
}

/** The 3×3 centre around (cx, cy), drawn `scale` times its size. */
function cornerDotPath(shape: CornerDotShape, cx: number, cy: number, scale: number): string {
  const half = 1.5 * scale;
  switch (shape) {
    case 'dot':
      return circle(cx, cy, half);
    case 'rounded':
      return roundedRect(cx - half, cy - half, 2 * half, 2 * half, [scale, scale, scale, scale]);
    default:
      return rect(cx - half, cy - half, 2 * half, 2 * half);
  }
}

function rect(x: number, y: number, w: number, h: number): string {
  return `M${num(x)} ${num(y)}h${num(w)}v${num(h)}h${num(-w)}z`;
}

/** Radii in the order top-left, top-right, bottom-right, bottom-left; drawn clockwise like rect(). */
function roundedRect(x: number, y: number, w: number, h: number, [tl, tr, br, bl]: [number, number, number, number]): string {
  const arc = (r: number, toX: number, toY: number) => (r > 0 ? `A${num(r)} ${num(r)} 0 0 1 ${num(toX)} ${num(toY)}` : '');
  return (
    `M${num(x + tl)} ${num(y)}H${num(x + w - tr)}${arc(tr, x + w, y + tr)}` +
    `V${num(y + h - br)}${arc(br, x + w - br, y + h)}` +
    `H${num(x + bl)}${arc(bl, x, y + h - bl)}` +
    `V${num(y + tl)}${arc(tl, x + tl, y)}z`
  );
}

function circle(cx: number, cy: number, r: number): string {
  return `M${num(cx - r)} ${num(cy)}a${num(r)} ${num(r)} 0 1 0 ${num(2 * r)} 0a${num(r)} ${num(r)} 0 1 0 ${num(-2 * r)} 0z`;
}

/** Three decimals are a thousandth of a module: invisible at any size, and the SVG stays small. */
function num(value: number): string {
  return String(Math.round(value * 1000) / 1000);
}

/** Where a thousandth is not enough: the viewBox and the matrix's origin, whose error a 4096-px image magnifies. */
function precise(value: number): string {
  return String(Math.round(value * 1e6) / 1e6);
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Escaped, and with what XML 1.0 cannot carry replaced (text saved before the rules of text-rules.ts refused it). */
function escapeXml(text: string): string {
  return toXmlText(text).replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);
}
