/**
 * The rules every piece of text people give us shares, whatever form or field it comes through: what PostgreSQL
 * can store (no NUL) and what XML 1.0 can carry (codes' names and designs' texts end up in SVG images).
 */

/**
 * C0 controls but tab, line feed and carriage return; DEL; U+FFFE and U+FFFF; UTF-16 surrogates without their
 * pair. XML 1.0 allows none of them but DEL (invisible on a page, so refused with the rest); NUL cannot be stored.
 */
const NOT_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const NOT_TEXT_ANYWHERE = new RegExp(NOT_TEXT.source, 'g');

/** Line ends and tabs: allowed in multi-line text only. */
const LINE_CONTROLS = /[\t\n\r]/;

/**
 * Characters that show nothing: whitespace, format characters (zero-width space and joiners, bidi marks, the
 * soft hyphen) and the fillers that render blank (Hangul fillers, the braille blank).
 */
const INVISIBLE_ONLY = /^[\s\p{Cf}\p{Zs}\u115f\u1160\u2800\u3164\uffa0]*$/u;

/** Whether `text` holds a character that is not text at all (see NOT_TEXT); tabs and line ends are allowed. */
export function hasNonTextCharacters(text: string): boolean {
  return NOT_TEXT.test(text);
}

/**
 * The problem with one line of text (a name, a title, a label), or undefined: no control characters at all (CR and
 * LF included: a name travels into mail headers, CSV cells and single-line places), nothing that is not text.
 */
export function singleLineTextProblem(text: string): string | undefined {
  if (NOT_TEXT.test(text) || LINE_CONTROLS.test(text)) return 'must not contain control characters';
  return undefined;
}

/** The same for multi-line text (descriptions, addresses): tabs and line ends are allowed. */
export function multiLineTextProblem(text: string): string | undefined {
  return NOT_TEXT.test(text) ? 'must not contain control characters' : undefined;
}

/** Whether a non-empty `text` would look blank: only spaces, zero-width and other invisible characters. */
export function isInvisibleOnly(text: string): boolean {
  return INVISIBLE_ONLY.test(text);
}

/**
 * For text already stored before these rules (or from anywhere else) on its way into XML: each character XML 1.0
 * cannot carry becomes U+FFFD, so an image still renders and its SVG stays well-formed.
 */
export function toXmlText(text: string): string {
  return text.replace(NOT_TEXT_ANYWHERE, '\ufffd');
}
