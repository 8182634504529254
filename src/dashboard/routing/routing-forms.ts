import { MAX_URL_LENGTH, parseDestinationUrl, type QrCode } from '../../codes/index.js';
import { formChecked, formText } from '../shared/forms.js';
import { kept } from './form-values.js';
import { instantToLocal, localToInstant } from './zoned-time.js';

/** One row of the split's form: a variant as stored or typed; `isNew` is the empty row that adds one. */
export interface SplitRow {
  url: string;
  weight: string;
  remove: boolean;
  isNew: boolean;
}

export interface SplitErrors {
  /** About the split as a whole (weights that do not add up to 100, fewer than two variants). */
  split?: string | undefined;
  rows: Array<{ url?: string | undefined; weight?: string | undefined } | undefined>;
}

/** More rows than any form of ours shows (weights of 1 % allow 100, but nobody splits a code 30 ways). */
const MAX_SPLIT_ROWS = 30;

/** The split as stored, and an empty row to add one (two empty rows, the first holding the destination, for none). */
export function splitRows(code: QrCode): SplitRow[] {
  const split = code.routing?.split;
  if (!split) {
    return [
      { url: code.destinationUrl, weight: '50', remove: false, isNew: true },
      { url: '', weight: '50', remove: false, isNew: true },
    ];
  }
  return [...split.map((variant) => ({ url: variant.destinationUrl, weight: String(variant.weight), remove: false, isNew: false })), { url: '', weight: '', remove: false, isNew: true }];
}

/** The rows sent; rows without a URL (or ticked for removal) are not variants. */
export function readSplitForm(body: unknown): { rows: SplitRow[]; variants: Array<{ destinationUrl: string; weight: number; row: number }>; errors: SplitErrors } {
  const rows: SplitRow[] = [];
  const errors: SplitErrors = { rows: [] };
  const variants: Array<{ destinationUrl: string; weight: number; row: number }> = [];
  for (let index = 0; index < MAX_SPLIT_ROWS; index++) {
    const fields = body as Record<string, unknown> | undefined;
    if (fields?.[`split-${index}-url`] === undefined && fields?.[`split-${index}-weight`] === undefined) break;
    const row: SplitRow = {
      url: kept(body, `split-${index}-url`, MAX_URL_LENGTH * 2).trim(),
      weight: kept(body, `split-${index}-weight`, 20).trim(),
      remove: formChecked(body, `split-${index}-remove`),
      isNew: false,
    };
    rows.push(row);
    if (row.remove || row.url === '') continue;
    const rowErrors: { url?: string; weight?: string } = {};
    const weight = /^\d{1,3}$/.test(row.weight) ? Number(row.weight) : NaN;
    if (!(weight >= 1 && weight <= 100)) rowErrors.weight = 'The weight must be a whole number from 1 to 100 (the share in percent).';
    if (rowErrors.url || rowErrors.weight) errors.rows[index] = rowErrors;
    else variants.push({ destinationUrl: row.url, weight, row: index });
  }
  if (errors.rows.length === 0 && variants.length < 2) errors.split = 'A split needs at least two destinations (use “Remove the split” for none).';
  return { rows, variants, errors };
}

/** The service's split problems (`/body/routing/split/1/weight`) on the rows they are about. */
export function splitErrors(problems: ReadonlyArray<{ path: string; message: string }>, rowOf: readonly number[]): { errors: SplitErrors; general: string[] } {
  const errors: SplitErrors = { rows: [] };
  const general: string[] = [];
  for (const { path, message } of problems) {
    const match = /^\/body\/routing\/split\/(\d+)\/(destinationUrl|weight)$/.exec(path);
    const row = match ? rowOf[Number(match[1])] : undefined;
    if (match && row !== undefined) {
      const field = match[2] === 'weight' ? 'weight' : 'url';
      errors.rows[row] = { ...errors.rows[row], [field]: `${field === 'weight' ? 'The weight' : 'The destination URL'} ${message}.` };
    } else if (path.startsWith('/body/routing/split') || path === '/body/url') {
      errors.split ??= `The split: ${message}.`;
    } else general.push(message);
  }
  return { errors, general };
}

/** The schedule's fields as typed, or as stored (instants in `zone`). */
export interface ScheduleValues {
  activeFrom: string;
  expiresAt: string;
  scanLimit: string;
  expiredUrl: string;
}

export type ScheduleErrors = Partial<Record<keyof ScheduleValues, string>>;

export function scheduleValues(code: QrCode, zone: string): ScheduleValues {
  return {
    activeFrom: code.activeFrom ? instantToLocal(code.activeFrom, zone) : '',
    expiresAt: code.expiresAt ? instantToLocal(code.expiresAt, zone) : '',
    scanLimit: code.scanLimit === null ? '' : String(code.scanLimit),
    expiredUrl: code.expiredUrl ?? '',
  };
}

/** The contract's bound (ScanLimit in openapi/v1.yaml). */
const MAX_SCAN_LIMIT = 1_000_000_000_000;

export type ReadSchedule =
  | { ok: true; values: ScheduleValues; changes: { activeFrom: Date | null; expiresAt: Date | null; scanLimit: number | null; expiredUrl: string | null } }
  | { ok: false; values: ScheduleValues; errors: ScheduleErrors };

/** The schedule form read in `zone` (the one its fields were shown in); an empty field removes that part. */
export function readScheduleForm(body: unknown, zone: string): ReadSchedule {
  const values: ScheduleValues = {
    activeFrom: kept(body, 'activeFrom', 100).trim(),
    expiresAt: kept(body, 'expiresAt', 100).trim(),
    scanLimit: kept(body, 'scanLimit', 40).trim(),
    expiredUrl: formText(body, 'expiredUrl').slice(0, MAX_URL_LENGTH * 2).trim(),
  };
  const errors: ScheduleErrors = {};
  const instant = (field: 'activeFrom' | 'expiresAt', label: string): Date | null => {
    if (values[field] === '') return null;
    const at = localToInstant(values[field], zone);
    if (!at) errors[field] = `${label} must be a date and time, such as 2026-12-01 09:00.`;
    return at ?? null;
  };
  const activeFrom = instant('activeFrom', 'The start');
  const expiresAt = instant('expiresAt', 'The expiry');
  let scanLimit: number | null = null;
  if (values.scanLimit !== '') {
    scanLimit = /^\d{1,13}$/.test(values.scanLimit) ? Number(values.scanLimit) : NaN;
    if (!(scanLimit >= 1 && scanLimit <= MAX_SCAN_LIMIT)) errors.scanLimit = `The scan limit must be a whole number from 1 to ${MAX_SCAN_LIMIT.toLocaleString('en-GB')}.`;
  }
  let expiredUrl: string | null = null;
  if (values.expiredUrl !== '') {
    const parsed = parseDestinationUrl(values.expiredUrl);
    if (parsed.ok) expiredUrl = parsed.href;
    else errors.expiredUrl = `The expired URL ${parsed.message}.`;
  }
  if (activeFrom && expiresAt && expiresAt <= activeFrom) errors.expiresAt = 'The expiry must be later than the start.';
  if (Object.keys(errors).length > 0) return { ok: false, values, errors };
  return { ok: true, values, changes: { activeFrom, expiresAt, scanLimit, expiredUrl } };
}

/** The service's schedule problems (`/body/expiresAt`) on their fields. */
export function scheduleErrors(problems: ReadonlyArray<{ path: string; message: string }>): { errors: ScheduleErrors; general: string[] } {
  const errors: ScheduleErrors = {};
  const general: string[] = [];
  const labels = { activeFrom: 'The start', expiresAt: 'The expiry', scanLimit: 'The scan limit', expiredUrl: 'The expired URL' } as const;
  for (const { path, message } of problems) {
    const field = /^\/body\/(activeFrom|expiresAt|scanLimit|expiredUrl)$/.exec(path)?.[1] as keyof typeof labels | undefined;
    if (field) errors[field] ??= `${labels[field]}: ${message}.`;
    else general.push(message);
  }
  return { errors, general };
}
