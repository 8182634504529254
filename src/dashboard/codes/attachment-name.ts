// Characters no file name may hold on common systems, and controls: replaced, so a code named "a/b" saves as "a-b".
const UNSAFE_IN_FILE_NAMES = /[\u0000-\u001f\u007f/\\:*?"<>|]+/g;
const MAX_BASE_LENGTH = 100;

/**
 * `Content-Disposition: attachment` with a file name made from the code's name: the full name (UTF-8, RFC 8187
 * `filename*`, which browsers prefer) and a plain-ASCII fallback in `filename` for the rest. Neither can carry a
 * quote, a path separator or a line break, so the header cannot be split or the file put elsewhere.
 */
export function attachmentDisposition(codeName: string, suffix: string): string {
  const base = [...codeName.replace(UNSAFE_IN_FILE_NAMES, '-').trim()].slice(0, MAX_BASE_LENGTH).join('') || 'qr-code';
  const ascii =
    base
      .normalize('NFKD')
      .replace(/[^\x20-\x7e]/g, '')
      .replace(/[%;]/g, '')
      .replace(/\s+/g, '-')
      .replace(/-{2,}/g, '-')
      .replace(/^[-.]+|-+$/g, '') || 'qr-code';
  return `attachment; filename="${ascii}${suffix}"; filename*=UTF-8''${encodeRfc8187(base + suffix)}`;
}

/** Percent-encoding for `filename*`: encodeURIComponent leaves a few characters RFC 8187 does not allow. */
function encodeRfc8187(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
