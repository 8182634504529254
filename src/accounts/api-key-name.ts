import { singleLineTextProblem } from '../text-rules.js';

/** A key's name is for people telling keys apart in the dashboard: short, on one line. */
export const MAX_API_KEY_NAME_LENGTH = 100;

/** A refused key name (too long, control characters); the dashboard shows the message beside the field. */
export class ApiKeyNameError extends Error {
  constructor(message: string) {
    super(`The key's name ${message}.`);
    this.name = 'ApiKeyNameError';
  }
}

export type ApiKeyNameResult = { ok: true; name: string | null } | { ok: false; message: string };

/** Trimmed; blank means no name (null); at most 100 characters (code points), no control characters. */
export function parseApiKeyName(raw: string | undefined | null): ApiKeyNameResult {
  const name = raw?.trim() ?? '';
  if (name.length === 0) return { ok: true, name: null };
  if ([...name].length > MAX_API_KEY_NAME_LENGTH) {
    return { ok: false, message: `must be at most ${MAX_API_KEY_NAME_LENGTH} characters` };
  }
  const problem = singleLineTextProblem(name);
  if (problem !== undefined) return { ok: false, message: problem };
  return { ok: true, name };
}
