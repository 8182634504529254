import type { QrCode } from '../../codes/index.js';
import { compileRouting, DEVICE_CLASSES, routeScan } from '../../routing/index.js';
import { localToInstant } from './zoned-time.js';

/** What a person asked "Try it" about: the facts a scan would carry, as typed. */
export interface TryItValues {
  os: string;
  browser: string;
  device: string;
  country: string;
  language: string;
  /** datetime-local in the routing's zone; empty: now. */
  at: string;
}

/** What the short URL would answer. */
export type TryItAnswer =
  | { kind: 'paused' }
  | { kind: 'not-active'; activeFrom: Date }
  | { kind: 'expired'; because: 'date' | 'limit'; expiredUrl: string | null }
  | { kind: 'rule'; position: number; name: string | undefined; destinationUrl: string }
  | { kind: 'split'; variants: ReadonlyArray<{ destinationUrl: string; weight: number }> }
  | { kind: 'default'; destinationUrl: string; page: boolean };

export type TryItResult = { ok: true; at: Date; answer: TryItAnswer } | { ok: false; error: string };

const DEVICES: ReadonlySet<string> = new Set(DEVICE_CLASSES);

/** The query's try-it fields, cut to sizes no real value exceeds. */
export function readTryIt(query: Record<string, unknown>): TryItValues | undefined {
  const text = (name: string, max: number) => (typeof query[name] === 'string' ? (query[name] as string).trim().slice(0, max) : '');
  if (query.try === undefined) return undefined;
  return { os: text('os', 64), browser: text('browser', 64), device: text('device', 20), country: text('country', 10), language: text('language', 20), at: text('at', 40) };
}

/**
 * Which rule or variant would answer a scan with these facts at that moment, with the evaluator the redirect uses
 * (compileRouting + routeScan), after the checks the redirect makes first: paused, not active yet, expired (by date,
 * or by the scan limit, which the current count decides). A split without a visitor is not drawn: its shares are the
 * answer, since a real scanner could get any variant.
 */
export function tryIt(code: QrCode, values: TryItValues, zone: string, now: Date): TryItResult {
  let at = now;
  if (values.at !== '') {
    const instant = localToInstant(values.at, zone);
    if (!instant) return { ok: false, error: 'The date and time must be a date and time that exists, such as 2026-12-05 19:30.' };
    at = instant;
  }
  if (!code.active) return { ok: true, at, answer: { kind: 'paused' } };
  if (code.activeFrom && at < code.activeFrom) return { ok: true, at, answer: { kind: 'not-active', activeFrom: code.activeFrom } };
  if (code.expiresAt && at >= code.expiresAt) return { ok: true, at, answer: { kind: 'expired', because: 'date', expiredUrl: code.expiredUrl } };
  if (code.scanLimit !== null && code.scanCount >= code.scanLimit) return { ok: true, at, answer: { kind: 'expired', because: 'limit', expiredUrl: code.expiredUrl } };
  const fallback: TryItAnswer = { kind: 'default', destinationUrl: code.destinationUrl, page: code.type !== 'URL' };
  if (!code.routing) return { ok: true, at, answer: fallback };
  const language = values.language.toLowerCase().split(/[-_]/)[0] ?? '';
  const decision = routeScan(
    compileRouting(code.routing, code.id),
    {
      os: values.os || null,
      browser: values.browser || null,
      device: DEVICES.has(values.device) ? values.device : null,
      country: values.country ? values.country.toUpperCase() : null,
      language: language || null,
      at: at.getTime(),
      visitor: null,
    },
    // Not drawn: a split is answered with its shares below.
    () => 0,
  );
  if (decision === null) return { ok: true, at, answer: fallback };
  if (decision.ruleId === null) return { ok: true, at, answer: { kind: 'split', variants: code.routing.split ?? [] } };
  const position = code.routing.rules.findIndex((rule) => rule.id === decision.ruleId);
  return { ok: true, at, answer: { kind: 'rule', position: position + 1, name: code.routing.rules[position]?.name, destinationUrl: decision.destinationUrl } };
}
