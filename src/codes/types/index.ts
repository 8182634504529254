import { appType } from './app.js';
import { businessType } from './business.js';
import { CODE_TYPE_NAMES, type CodeKind, type CodeType, type CodeTypeName } from './code-type.js';
import { contactType } from './contact.js';
import { couponType } from './coupon.js';
import { emailType } from './email.js';
import { eventType } from './event.js';
import { facebookType } from './facebook.js';
import type { ContentResult } from './fields.js';
import { imagesType } from './images.js';
import { mp3Type } from './mp3.js';
import { pdfType } from './pdf.js';
import { smsType } from './sms.js';
import { socialMediaType } from './social-media.js';
import { textType } from './text.js';
import { urlType } from './url.js';
import { vcardPlusType } from './vcard-plus.js';
import { videoType } from './video.js';
import { wifiType } from './wifi.js';

export { CODE_TYPE_NAMES, type CodeKind, type CodeType, type CodeTypeName } from './code-type.js';
export type { ContentProblem, ContentResult } from './fields.js';
export { appDestination, type AppContent } from './app.js';
export { WEEKDAYS, type BusinessContent, type Weekday } from './business.js';
export {
  ADDRESS_PARTS, contactCard, EMAIL_KINDS, PHONE_KINDS,
  type AddressPart, type ContactCard, type ContactContent, type ContactEmail, type ContactPhone, type EmailKind, type PhoneKind,
} from './contact-fields.js';
export type { CouponContent } from './coupon.js';
export type { EmailContent } from './email.js';
export type { EventContent } from './event.js';
export type { FacebookContent } from './facebook.js';
export type { ImagesContent } from './images.js';
export type { Mp3Content } from './mp3.js';
export type { PdfContent } from './pdf.js';
export type { SmsContent } from './sms.js';
export { SOCIAL_NETWORKS, type SocialMediaContent } from './social-media.js';
export type { TextContent } from './text.js';
export type { UrlContent } from './url.js';
export type { VideoContent } from './video.js';
export type { WifiContent } from './wifi.js';

/** One definition per type, reused by the dashboard's forms, the import and the landing pages. */
export const CODE_TYPES = {
  URL: urlType,
  VCARD_PLUS: vcardPlusType,
  CONTACT: contactType,
  PDF: pdfType,
  IMAGES: imagesType,
  VIDEO: videoType,
  MP3: mp3Type,
  BUSINESS: businessType,
  SOCIAL_MEDIA: socialMediaType,
  FACEBOOK: facebookType,
  COUPON: couponType,
  APP: appType,
  EVENT: eventType,
  TEXT: textType,
  EMAIL: emailType,
  SMS: smsType,
  WIFI: wifiType,
} as const satisfies Record<CodeTypeName, CodeType<unknown>>;

export function isCodeTypeName(value: string): value is CodeTypeName {
  return (CODE_TYPE_NAMES as readonly string[]).includes(value);
}

/** Unknown types (none exist: the database checks `type`) are treated as redirects, as every code was before. */
export function kindOf(type: string): CodeKind {
  return isCodeTypeName(type) ? CODE_TYPES[type].kind : 'redirect';
}

export function parseContent(type: CodeTypeName, input: unknown): ContentResult<unknown> {
  return CODE_TYPES[type].parse(input);
}
