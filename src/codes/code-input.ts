import { isInvisibleOnly, singleLineTextProblem } from '../text-rules.js';
import { parseDestinationUrl } from '../destination-url.js';

/** ARCHITECTURE: a code's name is 1–200 characters after trimming (the contract's `Name` schema says the same). */
export const MAX_NAME_LENGTH = 200;

export type CodeNameResult = { ok: true; name: string } | { ok: false; message: string };

/**
 * A code's name as it is stored: trimmed, not blank (nor only invisible characters such as U+200B), at most 200
 * characters, no control characters nor anything else XML cannot carry (a name can be printed in an image).
 * Length counts code points, as JSON Schema's `maxLength` does in the contract, so an emoji is one character.
 */
export function parseCodeName(raw: string): CodeNameResult {
  const name = raw.trim();
  if (name.length === 0 || isInvisibleOnly(name)) return { ok: false, message: 'must not be blank' };
  if ([...name].length > MAX_NAME_LENGTH) return { ok: false, message: `must be at most ${MAX_NAME_LENGTH} characters` };
  const problem = singleLineTextProblem(name);
  if (problem !== undefined) return { ok: false, message: problem };
  return { ok: true, name };
}

export interface CodeFieldProblem {
  /** The input field at fault, named as in the API's request bodies (`url` is the destination). */
  field: 'name' | 'url';
  message: string;
}

export type CodeFieldsResult =
  | { ok: true; name?: string; destinationUrl?: string }
  | { ok: false; problems: CodeFieldProblem[] };

/**
 * The rules for a code's editable text fields, shared by the API (after its contract check) and the dashboard's
 * forms, so both store the same values and refuse the same ones. Absent fields are left out; every problem is
 * reported at once so a form can mark each field.
 */
export function parseCodeFields(input: { name?: string; url?: string }): CodeFieldsResult {
  const problems: CodeFieldProblem[] = [];
  let name: string | undefined;
  let destinationUrl: string | undefined;
  if (input.name !== undefined) {
    const parsed = parseCodeName(input.name);
    if (parsed.ok) name = parsed.name;
    else problems.push({ field: 'name', message: parsed.message });
  }
  if (input.url !== undefined) {
    const parsed = parseDestinationUrl(input.url);
    if (parsed.ok) destinationUrl = parsed.href;
    else problems.push({ field: 'url', message: parsed.message });
  }
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, ...(name !== undefined && { name }), ...(destinationUrl !== undefined && { destinationUrl }) };
}
