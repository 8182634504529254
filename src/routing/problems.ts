import type { RoutingProblem } from './model.js';

/** A JSON pointer (RFC 6901) from path segments: `~` and `/` in a key are escaped, so unknown keys point right. */
export function pointer(...segments: (string | number)[]): string {
  return segments.map((segment) => `/${String(segment).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/** Where parsing collects what it refuses: every problem at once, so an integrator fixes a request in one go. */
export type Problems = RoutingProblem[];

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Adds a problem for each key of `object` not in `known` (`what` names one: "a condition"): a misspelt key left
 * unread would change what a rule means without a word.
 */
export function refuseUnknownKeys(
  object: Record<string, unknown>,
  known: readonly string[],
  at: string,
  what: string,
  problems: Problems,
): void {
  for (const key of Object.keys(object)) {
    if (!known.includes(key)) {
      problems.push({ pointer: `${at}${pointer(key)}`, message: `is not ${what}; expected one of ${known.join(', ')}` });
    }
  }
}
