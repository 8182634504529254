import { parseCodeFields } from '../../codes/code-input.js';
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
