/**
 * What a receiver sends back (its answer, and error messages that quote it) goes into PostgreSQL `text`, which
 * holds any UTF-8 except the NUL character, and pg encodes a lone UTF-16 surrogate as bytes PostgreSQL may refuse
 * in other encodings. Both become U+FFFD, the same mark `Buffer#toString('utf8')` already leaves for invalid
 * UTF-8, so one hostile byte costs a character in the log instead of the whole attempt record.
 */
export function storableText(value: string): string {
  return value.replace(/\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

export function storableOrNull(value: string | undefined | null): string | null {
  return value === undefined || value === null ? null : storableText(value);
}
