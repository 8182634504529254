import { CODE_TYPE_NAMES, type CodeTypeName } from '../../../codes/types/index.js';
import type { TypeForm } from './form-description.js';
import { IMAGES_FORM, MP3_FORM, PDF_FORM, VIDEO_FORM } from './file-forms.js';
import {
  BUSINESS_FORM, CONTACT_FORM, COUPON_FORM, EMAIL_FORM, EVENT_FORM, SMS_FORM, SOCIAL_MEDIA_FORM, TEXT_FORM, VCARD_PLUS_FORM, WIFI_FORM,
} from './page-forms.js';
import { APP_FORM, FACEBOOK_FORM, URL_FORM } from './redirect-forms.js';

export * from './form-description.js';

/** One form per type; the schema that checks what it sends is the type's own (src/codes/types/). */
export const TYPE_FORMS: Record<CodeTypeName, TypeForm> = {
  URL: URL_FORM,
  VCARD_PLUS: VCARD_PLUS_FORM,
  CONTACT: CONTACT_FORM,
  PDF: PDF_FORM,
  IMAGES: IMAGES_FORM,
  VIDEO: VIDEO_FORM,
  MP3: MP3_FORM,
  BUSINESS: BUSINESS_FORM,
  SOCIAL_MEDIA: SOCIAL_MEDIA_FORM,
  FACEBOOK: FACEBOOK_FORM,
  COUPON: COUPON_FORM,
  APP: APP_FORM,
  EVENT: EVENT_FORM,
  TEXT: TEXT_FORM,
  EMAIL: EMAIL_FORM,
  SMS: SMS_FORM,
  WIFI: WIFI_FORM,
};

/** The picker's order: the type list as the contract has it. */
export const PICKER_FORMS: readonly TypeForm[] = CODE_TYPE_NAMES.map((type) => TYPE_FORMS[type]);

/** Plain words for a stored type (an unknown one is shown as stored). */
export function typeLabel(type: string): string {
  return Object.hasOwn(TYPE_FORMS, type) ? TYPE_FORMS[type as CodeTypeName].label : type;
}
