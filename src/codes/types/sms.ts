import type { CodeType } from './code-type.js';
import { contentParser, object, phone, text } from './fields.js';

export interface SmsContent {
  phone: string;
  message?: string;
}

// 918: six concatenated SMS parts of 153 GSM characters; longer messages are split unpredictably by phones.
export const smsType: CodeType<SmsContent> = {
  type: 'SMS',
  kind: 'page',
  parse: contentParser(object({ phone, message: text(918, { multiline: true }) }, ['phone'])),
};
