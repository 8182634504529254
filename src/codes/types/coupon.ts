import type { CodeType } from './code-type.js';
import { contentParser, dateTime, object, text } from './fields.js';

export interface CouponContent {
  title: string;
  description?: string;
  code?: string;
  /** As entered; shown as written, and the page says "expired" once it has passed. */
  expiresAt?: string;
  terms?: string;
}

const shape = object(
  {
    title: text(200),
    description: text(2000, { multiline: true }),
    code: text(64),
    expiresAt: dateTime,
    terms: text(2000, { multiline: true }),
  },
  ['title'],
);

export const couponType: CodeType<CouponContent> = { type: 'COUPON', kind: 'page', parse: contentParser(shape) };
