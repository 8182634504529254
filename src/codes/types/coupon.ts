import type { CodeType } from './code-type.js';
import { contentParser, dateTime, object, text, timeZone } from './fields.js';

export interface CouponContent {
  title: string;
  description?: string;
  code?: string;
  /** Local time in `timezone` (or UTC) unless written with an offset; the page says "expired" once it has passed. */
  expiresAt?: string;
  /** The zone the expiry is in (an IANA name such as Europe/Berlin): the issuer's, not the reader's. */
  timezone?: string;
  terms?: string;
}

const shape = object(
  {
    title: text(200),
    description: text(2000, { multiline: true }),
    code: text(64),
    expiresAt: dateTime,
    timezone: timeZone,
    terms: text(2000, { multiline: true }),
  },
  ['title'],
);

export const couponType: CodeType<CouponContent> = { type: 'COUPON', kind: 'page', parse: contentParser(shape) };
