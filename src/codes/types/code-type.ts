import type { ContentResult } from './fields.js';

/** The seventeen types (ARCHITECTURE.md, "Types"), as the contract's `QrCodeType` enum lists them. */
export const CODE_TYPE_NAMES = [
  'URL', 'VCARD_PLUS', 'CONTACT', 'PDF', 'IMAGES', 'VIDEO', 'MP3', 'BUSINESS', 'SOCIAL_MEDIA',
  'FACEBOOK', 'COUPON', 'APP', 'EVENT', 'TEXT', 'EMAIL', 'SMS', 'WIFI',
] as const;

export type CodeTypeName = (typeof CODE_TYPE_NAMES)[number];

/**
 * What the short URL does: `redirect` answers 302 (URL, FACEBOOK, APP); `page` answers 200 with a landing page
 * served by us (src/landing/), or for CONTACT the .vcf itself.
 */
export type CodeKind = 'redirect' | 'page';

export interface CodeType<T> {
  type: CodeTypeName;
  kind: CodeKind;
  /** Strict: unknown fields are refused; the result is what gets stored in `qr_codes.content`. */
  parse: (input: unknown) => ContentResult<T>;
}
