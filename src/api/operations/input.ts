import { parseCodeFields } from '../../codes/code-input.js';
import type { RoutingChanges } from '../../codes/code-routing.js';
import { parseDestinationUrl } from '../../destination-url.js';
import { errors } from '../../errors.js';

/**
 * The checks on create/change bodies that JSON Schema cannot express (a URL with a host and no credentials,
 * a name that is not only whitespace); the contract has already checked types, lengths and the scheme prefix.
 * The rules live in src/codes/code-input.ts, shared with the dashboard. Every problem is reported at once, in
 * the same `invalid_body` shape as schema failures.
 */
export function parseCodeInput(body: { name: string; url: string }): { name: string; destinationUrl: string };
export function parseCodeInput(body: { name?: string; url?: string }): { name?: string; destinationUrl?: string };
export function parseCodeInput(body: { name?: string; url?: string }): { name?: string; destinationUrl?: string } {
  const parsed = parseCodeFields(body);
  if (!parsed.ok) throw errors.invalidBody(parsed.problems.map((p) => ({ path: `/body/${p.field}`, message: p.message })));
  return { name: parsed.name, destinationUrl: parsed.destinationUrl };
}

/** The routing and schedule fields of a create/change body, as the service takes them (it checks the routing). */
export function parseRoutingInput(body: {
  routing?: unknown;
  activeFrom?: string | null;
  expiresAt?: string | null;
  scanLimit?: number | null;
  expiredUrl?: string | null;
}): RoutingChanges {
  // The contract has checked the instants' format (date-time, with an offset) and the limit's range.
  const instant = (value: string | null | undefined) => (value === undefined ? undefined : value === null ? null : new Date(value));
  let expiredUrl = body.expiredUrl;
  if (typeof expiredUrl === 'string') {
    const parsed = parseDestinationUrl(expiredUrl);
    if (!parsed.ok) throw errors.invalidBody([{ path: '/body/expiredUrl', message: parsed.message }]);
    expiredUrl = parsed.href;
  }
  return { routing: body.routing, activeFrom: instant(body.activeFrom), expiresAt: instant(body.expiresAt), scanLimit: body.scanLimit, expiredUrl };
}
