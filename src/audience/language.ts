/**
 * Only the first entry is looked at; a header longer than this is cut before it is split. Browsers send a few
 * dozen characters; the first entry of a sane header is well inside the cut.
 */
const MAX_HEADER_LENGTH = 256;

/**
 * The visitor's language: the primary subtag of the FIRST Accept-Language entry, lower case (`de-DE,de;q=0.9,en;q=0.8`
 * is `de`). First by position, not by q-value: browsers write the user's preferred language first (with the
 * implied q=1) and lower the q of each later one, so the two agree for every browser, and reading the first entry
 * needs no sorting on the redirect path. A header that puts a lower q first is hand-written, and it gets what it
 * wrote first.
 *
 * Null when there is no usable answer: no header, `*`, `und` (undetermined), private-use and grandfathered tags
 * (`x-…`, `i-…`), and anything whose primary subtag is not 2 or 3 letters (BCP 47's language subtags; 4 to 8 letters
 * are reserved or registered-only and never sent). `en_US` (a POSIX locale some clients send) counts as `en`.
 */
export function firstLanguage(acceptLanguage: string | undefined): string | null {
  if (acceptLanguage === undefined) return null;
  const header = acceptLanguage.length > MAX_HEADER_LENGTH ? acceptLanguage.slice(0, MAX_HEADER_LENGTH) : acceptLanguage;
  const entryEnd = header.indexOf(',');
  const entry = entryEnd < 0 ? header : header.slice(0, entryEnd);
  const tagEnd = entry.indexOf(';');
  const tag = (tagEnd < 0 ? entry : entry.slice(0, tagEnd)).trim();
  const match = /^([A-Za-z]{2,3})(?:[-_][A-Za-z0-9]{1,8})*$/.exec(tag);
  if (!match) return null;
  const language = match[1]!.toLowerCase();
  return language === 'und' ? null : language;
}
