import type { Design, DesignProblem } from '../../qr/design/design.js';
import { formChecked, formText } from '../shared/forms.js';

/**
 * The design editor's form, flat (one field per control, as a plain HTML form sends it) and as text, so a
 * refused form is shown back exactly as sent. The logo's image is not a field: it is uploaded by its own form
 * and kept with the design being edited; these fields only size and place it.
 */
export interface DesignFormValues {
  fill: 'solid' | 'linear' | 'radial' | string;
  color: string;
  angle: string;
  stop1: string;
  stop1At: string;
  stop2: string;
  stop2At: string;
  stop3Use: boolean;
  stop3: string;
  stop3At: string;
  background: string;
  transparent: boolean;
  moduleShape: string;
  cornerFrameShape: string;
  cornerFrameOwn: boolean;
  cornerFrameColor: string;
  cornerDotShape: string;
  cornerDotOwn: boolean;
  cornerDotColor: string;
  errorCorrection: string;
  quietZone: string;
  logoSize: string;
  logoMargin: string;
  logoClear: boolean;
  removeLogo: boolean;
  frameStyle: string;
  frameText: string;
  frameColor: string;
  frameTextColor: string;
  confirmInverted: boolean;
}

const TEXT_FIELDS = [
  'fill', 'color', 'angle', 'stop1', 'stop1At', 'stop2', 'stop2At', 'stop3', 'stop3At', 'background', 'moduleShape',
  'cornerFrameShape', 'cornerFrameColor', 'cornerDotShape', 'cornerDotColor', 'errorCorrection', 'quietZone', 'logoSize',
  'logoMargin', 'frameStyle', 'frameText', 'frameColor', 'frameTextColor',
] as const;
const CHECKBOXES = ['stop3Use', 'transparent', 'cornerFrameOwn', 'cornerDotOwn', 'logoClear', 'removeLogo', 'confirmInverted'] as const;

export function readDesignForm(body: unknown): DesignFormValues {
  const values: Record<string, string | boolean> = {};
  for (const field of TEXT_FIELDS) values[field] = formText(body, field);
  for (const field of CHECKBOXES) values[field] = formChecked(body, field);
  return values as unknown as DesignFormValues;
}

/** The form showing `design` (colours the form cannot leave empty get a sensible start when unused). */
export function designFormValues(design: Design): DesignFormValues {
  const fg = design.foreground;
  const stops = fg.type === 'solid' ? [{ offset: 0, color: fg.color }, { offset: 1, color: fg.color }] : fg.stops;
  const first = stops[0]!;
  const last = stops[stops.length - 1]!;
  const middle = stops.length > 2 ? stops[1]! : undefined;
  return {
    fill: fg.type,
    color: fg.type === 'solid' ? fg.color : first.color,
    angle: fg.type === 'linear' ? String(fg.angle) : '45',
    stop1: first.color,
    stop1At: percent(first.offset),
    stop2: last.color,
    stop2At: percent(last.offset),
    stop3Use: middle !== undefined,
    stop3: middle?.color ?? first.color,
    stop3At: percent(middle?.offset ?? 0.5),
    background: design.background ?? '#ffffff',
    transparent: design.background === null,
    moduleShape: design.moduleShape,
    cornerFrameShape: design.cornerFrame.shape,
    cornerFrameOwn: design.cornerFrame.color !== null,
    cornerFrameColor: design.cornerFrame.color ?? first.color,
    cornerDotShape: design.cornerDot.shape,
    cornerDotOwn: design.cornerDot.color !== null,
    cornerDotColor: design.cornerDot.color ?? first.color,
    errorCorrection: design.errorCorrection,
    quietZone: String(design.quietZone),
    logoSize: percent(design.logo?.size ?? 0.2),
    logoMargin: String(design.logo?.margin ?? 1),
    logoClear: design.logo?.clearBehind ?? true,
    removeLogo: false,
    frameStyle: design.frame?.style ?? 'none',
    frameText: design.frame?.text ?? 'Scan me',
    frameColor: design.frame?.color ?? '#000000',
    frameTextColor: design.frame?.textColor ?? '#ffffff',
    confirmInverted: design.confirmInverted,
  };
}

/**
 * The form as parseDesign's input. Numbers that are not numbers are passed on as text, so parseDesign names the
 * field; `logoPng` is the logo kept with the design being edited (null: none).
 */
export function designInput(values: DesignFormValues, logoPng: string | null): Record<string, unknown> {
  const stops = [
    { offset: fraction(values.stop1At), color: values.stop1 },
    ...(values.stop3Use ? [{ offset: fraction(values.stop3At), color: values.stop3 }] : []),
    { offset: fraction(values.stop2At), color: values.stop2 },
  ];
  const foreground: Record<string, unknown> =
    values.fill === 'linear'
      ? { type: 'linear', angle: number(values.angle), stops }
      : values.fill === 'radial'
        ? { type: 'radial', stops }
        : { type: values.fill || 'solid', color: values.color };
  const keepLogo = logoPng !== null && !values.removeLogo;
  return {
    foreground,
    background: values.transparent ? null : values.background,
    moduleShape: values.moduleShape,
    cornerFrame: { shape: values.cornerFrameShape, color: values.cornerFrameOwn ? values.cornerFrameColor : null },
    cornerDot: { shape: values.cornerDotShape, color: values.cornerDotOwn ? values.cornerDotColor : null },
    errorCorrection: values.errorCorrection,
    quietZone: number(values.quietZone),
    logo: keepLogo ? { png: logoPng, size: fraction(values.logoSize), margin: number(values.logoMargin), clearBehind: values.logoClear } : null,
    frame:
      values.frameStyle === 'none' || values.frameStyle === ''
        ? null
        : { style: values.frameStyle, text: values.frameText, color: values.frameColor, textColor: values.frameTextColor },
    confirmInverted: values.confirmInverted,
  };
}

// Gradient stops are named by their place in the gradient: with a middle colour, stop 2 is the form's middle one.
const LABELS: [RegExp, (match: RegExpExecArray) => string][] = [
  [/^\/foreground\/stops\/(\d+)\/offset/, (m) => `Position of gradient stop ${Number(m[1]) + 1}`],
  [/^\/foreground\/stops\/(\d+)/, (m) => `Colour of gradient stop ${Number(m[1]) + 1}`],
  [/^\/foreground\/stops/, () => 'Gradient'],
  [/^\/foreground\/angle/, () => 'Gradient angle'],
  [/^\/foreground/, () => 'Foreground colour'],
  [/^\/background/, () => 'Background colour'],
  [/^\/moduleShape/, () => 'Module shape'],
  [/^\/cornerFrame\/color/, () => 'Corner frame colour'],
  [/^\/cornerFrame/, () => 'Corner frame shape'],
  [/^\/cornerDot\/color/, () => 'Corner dot colour'],
  [/^\/cornerDot/, () => 'Corner dot shape'],
  [/^\/errorCorrection/, () => 'Error correction'],
  [/^\/quietZone/, () => 'Quiet zone'],
  [/^\/logo\/size/, () => 'Logo size'],
  [/^\/logo\/margin/, () => 'Logo margin'],
  [/^\/logo/, () => 'Logo'],
  [/^\/frame\/textColor/, () => 'Frame text colour'],
  [/^\/frame\/text/, () => 'Frame text'],
  [/^\/frame\/color/, () => 'Frame colour'],
  [/^\/frame/, () => 'Frame'],
  [/^\/confirmInverted/, () => 'Inverted code'],
];

/** A problem in words, named by the control it is about: "Background colour: contrast … is 1.10:1; …". */
export function problemInWords(problem: DesignProblem): string {
  const message = PERCENT_FIELDS.test(problem.path) ? inPercent(problem.message) : problem.message;
  for (const [pattern, label] of LABELS) {
    const match = pattern.exec(problem.path);
    if (match) return `${label(match)}: ${message}.`;
  }
  return `${message}.`;
}

/** Fields the form shows in per cent while the design holds fractions: their limits are said in per cent too. */
const PERCENT_FIELDS = /^\/foreground\/stops\/\d+\/offset$|^\/logo\/size$/;

function inPercent(message: string): string {
  return message.replace(/from (\d+(?:\.\d+)?) to (\d+(?:\.\d+)?)/, (_, min: string, max: string) => `from ${Math.round(Number(min) * 1000) / 10}% to ${Math.round(Number(max) * 1000) / 10}%`);
}

function percent(fractionValue: number): string {
  return String(Math.round(fractionValue * 1000) / 10);
}

function fraction(text: string): unknown {
  const value = number(text);
  return typeof value === 'number' ? value / 100 : value;
}

function number(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === '') return trimmed;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : trimmed;
}
