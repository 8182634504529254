import { parseDestinationUrl } from '../../codes/destination-url.js';
import { errors, type FieldError } from '../../errors.js';

// C0 controls and DEL: invisible in a dashboard, and PostgreSQL cannot store NUL in text at all.
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/**
 * The checks on create/change bodies that JSON Schema cannot express (a URL with a host and no credentials,
 * a name that is not only whitespace); the contract has already checked types, lengths and the scheme prefix.
 * Every problem is reported at once, in the same `invalid_body` shape as schema failures.
 */
export function parseCodeInput(body: { name: string; url: string }): { name: string; destinationUrl: string };
export function parseCodeInput(body: { name?: string; url?: string }): { name?: string; destinationUrl?: string };
export function parseCodeInput(body: { name?: string; url?: string }): { name?: string; destinationUrl?: string } {
  const problems: FieldError[] = [];
  let name: string | undefined;
  let destinationUrl: string | undefined;
  if (body.name !== undefined) {
    name = body.name.trim();
    if (name.length === 0) problems.push({ path: '/body/name', message: 'must not be blank' });
    else if (CONTROL_CHARACTERS.test(name)) problems.push({ path: '/body/name', message: 'must not contain control characters' });
  }
  if (body.url !== undefined) {
    const parsed = parseDestinationUrl(body.url);
    if (parsed.ok) destinationUrl = parsed.href;
    else problems.push({ path: '/body/url', message: parsed.message });
  }
  if (problems.length > 0) throw errors.invalidBody(problems);
  return { name, destinationUrl };
}
