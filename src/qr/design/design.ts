/**
 * A code's design: how its QR matrix is drawn. One definition, parsed strictly by `parseDesign`, for the
 * dashboard's forms, bulk import and the API alike; whether a valid design still scans is design-checks.ts.
 */

import { isInvisibleOnly, singleLineTextProblem } from '../../text-rules.js';

/** `#rrggbb`, lower case (parseDesign normalises `#RGB` and upper case to it). */
export type Colour = string;

export interface GradientStop {
  /** 0–1 along the gradient. */
  offset: number;
  color: Colour;
}

export type Fill =
  | { type: 'solid'; color: Colour }
  /** `angle` in degrees, clockwise from left→right (0: left to right, 90: top to bottom). */
  | { type: 'linear'; angle: number; stops: GradientStop[] }
  /** From the centre of the code outwards. */
  | { type: 'radial'; stops: GradientStop[] };

export const MODULE_SHAPES = ['square', 'dots', 'rounded', 'classy', 'classy-rounded'] as const;
export type ModuleShape = (typeof MODULE_SHAPES)[number];

export const CORNER_FRAME_SHAPES = ['square', 'rounded', 'dot'] as const;
export type CornerFrameShape = (typeof CORNER_FRAME_SHAPES)[number];

export const CORNER_DOT_SHAPES = ['square', 'rounded', 'dot'] as const;
export type CornerDotShape = (typeof CORNER_DOT_SHAPES)[number];

export const FRAME_STYLES = ['banner', 'box'] as const;
/** `banner`: a band under the code carrying the text; `box`: the same band plus a border around the code. */
export type FrameStyle = (typeof FRAME_STYLES)[number];

export const ERROR_CORRECTION_LEVELS = ['L', 'M', 'Q', 'H'] as const;
export type ErrorCorrectionLevel = (typeof ERROR_CORRECTION_LEVELS)[number];

export interface Logo {
  /** PNG bytes, base64 (standard alphabet), as a form, an import or a JSON body carries them. */
  png: string;
  /** Width of the logo as a fraction of the code's width (quiet zone excluded), 0.05–0.3. */
  size: number;
  /** Empty modules kept around the logo when `clearBehind` is on, 0–4. */
  margin: number;
  /** Remove the data modules behind the logo (and its margin) instead of drawing the logo over them. */
  clearBehind: boolean;
}

export interface Frame {
  style: FrameStyle;
  /** Call to action under the code, 1–30 characters (e.g. "Scan me"). */
  text: string;
  /** Colour of the band (and of the border for `box`). */
  color: Colour;
  textColor: Colour;
}

export interface Design {
  foreground: Fill;
  /** `null` is transparent: the code shows whatever it is printed on (checked as if on white paper). */
  background: Colour | null;
  moduleShape: ModuleShape;
  /** The three finder patterns' 7×7 ring and 3×3 centre; a colour of `null` follows the foreground fill. */
  cornerFrame: { shape: CornerFrameShape; color: Colour | null };
  cornerDot: { shape: CornerDotShape; color: Colour | null };
  /** The least error correction wanted; a logo raises it (see design-checks.ts). */
  errorCorrection: ErrorCorrectionLevel;
  logo: Logo | null;
  /** Light modules around the code, 0–10. Scanners expect 4; fewer is the designer's call. */
  quietZone: number;
  frame: Frame | null;
  /** The designer has seen that the code is inverted (light on dark), which some scanners cannot read. */
  confirmInverted: boolean;
}

/** What API-created codes look like: black squares on white, M, a quiet zone of 4 (the renderer in ../render.ts). */
export const DEFAULT_DESIGN: Design = deepFreeze({
  foreground: { type: 'solid', color: '#000000' },
  background: '#ffffff',
  moduleShape: 'square',
  cornerFrame: { shape: 'square', color: null },
  cornerDot: { shape: 'square', color: null },
  errorCorrection: 'M',
  logo: null,
  quietZone: 4,
  frame: null,
  confirmInverted: false,
});

// Parsed designs share DEFAULT_DESIGN's nested objects, so none of them may be changed in place.
function deepFreeze<T extends object>(value: T): T {
  for (const child of Object.values(value)) if (typeof child === 'object' && child !== null) deepFreeze(child);
  return Object.freeze(value);
}

export const LIMITS = {
  maxStops: 5,
  minLogoSize: 0.05,
  maxLogoSize: 0.3,
  maxLogoMargin: 4,
  /** A logo is drawn at most ~30% of a code 1024 px wide; 512 KB of PNG is far more than that needs. */
  maxLogoBytes: 512 * 1024,
  maxLogoPixels: 4096,
  maxQuietZone: 10,
  maxFrameText: 30,
} as const;

export interface DesignProblem {
  /** JSON pointer to the field at fault, e.g. `/foreground/stops/1/color`. */
  path: string;
  message: string;
}

export type DesignResult = { ok: true; design: Design } | { ok: false; problems: DesignProblem[] };

/**
 * A design from untrusted input (a JSON body, an import cell, a form turned into an object). Strict: unknown
 * fields are refused, so a misspelt field is a visible error rather than a silent default. Fields left out take
 * DEFAULT_DESIGN's values; every problem is reported at once, each with its path.
 */
export function parseDesign(input: unknown): DesignResult {
  const problems: DesignProblem[] = [];
  const reader = new Reader(problems);
  const root = reader.object(input, '', [
    'foreground', 'background', 'moduleShape', 'cornerFrame', 'cornerDot', 'errorCorrection', 'logo', 'quietZone',
    'frame', 'confirmInverted',
  ]);
  if (!root) return { ok: false, problems };
  const d = DEFAULT_DESIGN;
  const design: Design = {
    foreground: root.foreground === undefined ? d.foreground : parseFill(reader, root.foreground, '/foreground'),
    background: root.background === undefined ? d.background : root.background === null ? null : reader.colour(root.background, '/background'),
    moduleShape: root.moduleShape === undefined ? d.moduleShape : reader.oneOf(root.moduleShape, '/moduleShape', MODULE_SHAPES),
    cornerFrame: root.cornerFrame === undefined ? d.cornerFrame : parseCorner(reader, root.cornerFrame, '/cornerFrame', CORNER_FRAME_SHAPES),
    cornerDot: root.cornerDot === undefined ? d.cornerDot : parseCorner(reader, root.cornerDot, '/cornerDot', CORNER_DOT_SHAPES),
    errorCorrection: root.errorCorrection === undefined ? d.errorCorrection : reader.oneOf(root.errorCorrection, '/errorCorrection', ERROR_CORRECTION_LEVELS),
    logo: root.logo === undefined || root.logo === null ? null : parseLogo(reader, root.logo, '/logo'),
    quietZone: root.quietZone === undefined ? d.quietZone : reader.integer(root.quietZone, '/quietZone', 0, LIMITS.maxQuietZone),
    frame: root.frame === undefined || root.frame === null ? null : parseFrame(reader, root.frame, '/frame'),
    confirmInverted: root.confirmInverted === undefined ? false : reader.boolean(root.confirmInverted, '/confirmInverted'),
  };
  return problems.length > 0 ? { ok: false, problems } : { ok: true, design };
}

function parseFill(reader: Reader, input: unknown, path: string): Fill {
  const fill = reader.object(input, path, ['type', 'color', 'angle', 'stops']);
  if (!fill) return DEFAULT_DESIGN.foreground;
  const type = reader.oneOf(fill.type, `${path}/type`, ['solid', 'linear', 'radial'] as const);
  const allowed = type === 'solid' ? ['type', 'color'] : type === 'linear' ? ['type', 'angle', 'stops'] : ['type', 'stops'];
  for (const key of Object.keys(fill)) {
    if (!allowed.includes(key)) reader.problem(`${path}/${key}`, `is not a field of a ${type} fill`);
  }
  if (type === 'solid') return { type, color: reader.colour(fill.color, `${path}/color`) };
  const stops = parseStops(reader, fill.stops, `${path}/stops`);
  if (type === 'radial') return { type, stops };
  return { type, angle: reader.number(fill.angle ?? 0, `${path}/angle`, 0, 360), stops };
}

function parseStops(reader: Reader, input: unknown, path: string): GradientStop[] {
  if (!Array.isArray(input)) {
    reader.problem(path, 'must be an array of stops');
    return [];
  }
  if (input.length < 2 || input.length > LIMITS.maxStops) reader.problem(path, `must have 2–${LIMITS.maxStops} stops`);
  const stops = input.slice(0, LIMITS.maxStops).map((raw, index) => {
    const stop = reader.object(raw, `${path}/${index}`, ['offset', 'color']);
    return {
      offset: reader.number(stop?.offset, `${path}/${index}/offset`, 0, 1),
      color: reader.colour(stop?.color, `${path}/${index}/color`),
    };
  });
  for (let i = 1; i < stops.length; i++) {
    if (stops[i]!.offset < stops[i - 1]!.offset) reader.problem(`${path}/${i}/offset`, 'must not be less than the previous stop');
  }
  return stops;
}

function parseCorner<S extends string>(reader: Reader, input: unknown, path: string, shapes: readonly S[]): { shape: S; color: Colour | null } {
  const corner = reader.object(input, path, ['shape', 'color']);
  return {
    shape: corner?.shape === undefined ? shapes[0]! : reader.oneOf(corner.shape, `${path}/shape`, shapes),
    color: corner?.color === undefined || corner.color === null ? null : reader.colour(corner.color, `${path}/color`),
  };
}

function parseLogo(reader: Reader, input: unknown, path: string): Logo {
  const logo = reader.object(input, path, ['png', 'size', 'margin', 'clearBehind']);
  return {
    png: parsePng(reader, logo?.png, `${path}/png`),
    size: reader.number(logo?.size ?? 0.2, `${path}/size`, LIMITS.minLogoSize, LIMITS.maxLogoSize),
    margin: reader.integer(logo?.margin ?? 1, `${path}/margin`, 0, LIMITS.maxLogoMargin),
    clearBehind: reader.boolean(logo?.clearBehind ?? true, `${path}/clearBehind`),
  };
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Checked by content: the PNG signature and an IHDR with sane dimensions, since the rasteriser will decode it. */
function parsePng(reader: Reader, input: unknown, path: string): string {
  if (typeof input !== 'string' || input.length % 4 !== 0 || !BASE64.test(input)) {
    reader.problem(path, 'must be a PNG image in base64');
    return '';
  }
  const bytes = Buffer.from(input, 'base64');
  if (bytes.length > LIMITS.maxLogoBytes) {
    reader.problem(path, `must be at most ${LIMITS.maxLogoBytes / 1024} KB`);
    return '';
  }
  const isPng = bytes.length >= 24 && bytes.subarray(0, 8).equals(PNG_SIGNATURE) && bytes.toString('ascii', 12, 16) === 'IHDR';
  if (!isPng) {
    reader.problem(path, 'must be a PNG image');
    return '';
  }
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  if (width < 1 || height < 1 || width > LIMITS.maxLogoPixels || height > LIMITS.maxLogoPixels) {
    reader.problem(path, `must be 1–${LIMITS.maxLogoPixels} pixels wide and high`);
  }
  return input;
}

function parseFrame(reader: Reader, input: unknown, path: string): Frame {
  const frame = reader.object(input, path, ['style', 'text', 'color', 'textColor']);
  return {
    style: frame?.style === undefined ? 'banner' : reader.oneOf(frame.style, `${path}/style`, FRAME_STYLES),
    text: reader.text(frame?.text, `${path}/text`, LIMITS.maxFrameText),
    color: frame?.color === undefined ? '#000000' : reader.colour(frame.color, `${path}/color`),
    textColor: frame?.textColor === undefined ? '#ffffff' : reader.colour(frame.textColor, `${path}/textColor`),
  };
}

const HEX_COLOUR = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;

/** Reads typed values, recording a problem (and returning a harmless placeholder) for each one that is wrong. */
class Reader {
  constructor(private readonly problems: DesignProblem[]) {}

  problem(path: string, message: string): void {
    this.problems.push({ path: path || '/', message });
  }

  object(input: unknown, path: string, keys: readonly string[]): Record<string, unknown> | undefined {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      this.problem(path, 'must be an object');
      return undefined;
    }
    for (const key of Object.keys(input)) {
      if (!keys.includes(key)) this.problem(`${path}/${key}`, 'is not a known field');
    }
    return input as Record<string, unknown>;
  }

  colour(input: unknown, path: string): Colour {
    if (typeof input !== 'string' || !HEX_COLOUR.test(input)) {
      this.problem(path, 'must be a colour written #rrggbb or #rgb');
      return '#000000';
    }
    const hex = input.slice(1).toLowerCase();
    return hex.length === 3 ? `#${[...hex].map((c) => c + c).join('')}` : `#${hex}`;
  }

  oneOf<T extends string>(input: unknown, path: string, values: readonly T[]): T {
    if (typeof input === 'string' && (values as readonly string[]).includes(input)) return input as T;
    this.problem(path, `must be one of ${values.join(', ')}`);
    return values[0]!;
  }

  number(input: unknown, path: string, min: number, max: number): number {
    if (typeof input !== 'number' || !Number.isFinite(input) || input < min || input > max) {
      this.problem(path, `must be a number from ${min} to ${max}`);
      return min;
    }
    return input;
  }

  integer(input: unknown, path: string, min: number, max: number): number {
    if (typeof input !== 'number' || !Number.isInteger(input) || input < min || input > max) {
      this.problem(path, `must be a whole number from ${min} to ${max}`);
      return min;
    }
    return input;
  }

  boolean(input: unknown, path: string): boolean {
    if (typeof input !== 'boolean') this.problem(path, 'must be true or false');
    return input === true;
  }

  /** Trimmed, 1–`max` characters counted as code points, visible, nothing XML 1.0 cannot carry (it goes into SVG). */
  text(input: unknown, path: string, max: number): string {
    if (typeof input !== 'string') {
      this.problem(path, 'must be text');
      return '';
    }
    const text = input.trim();
    const problem = singleLineTextProblem(text);
    if (text.length === 0 || isInvisibleOnly(text)) this.problem(path, 'must not be blank');
    else if ([...text].length > max) this.problem(path, `must be at most ${max} characters`);
    else if (problem !== undefined) this.problem(path, problem);
    return text;
  }
}
