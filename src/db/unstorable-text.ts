/**
 * Whether PostgreSQL refused a value because of the characters in it: 22021 character_not_in_repertoire (a NUL
 * or an invalid byte sequence in text) or 22P05 untranslatable_character (`\u0000` in jsonb). Input rules
 * (src/text-rules.ts) refuse these first; an error of this kind reaching a handler is bad input that slipped past
 * them, answered 400, never a server failure.
 */
export function isUnstorableText(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code } = error as { code?: unknown };
  return code === '22021' || code === '22P05';
}
