import type { CodeType } from './code-type.js';
import type { ContentProblem, Field } from './fields.js';
import { boolean, contentParser, object, oneOf, refine } from './fields.js';

export interface WifiContent {
  ssid: string;
  password?: string;
  security: 'WPA' | 'WEP' | 'none';
  hidden?: boolean;
  /**
   * The image encodes the network itself (a `WIFI:` string) instead of the short URL, so a phone's camera offers
   * "Join network". It is then fixed once printed (an edit changes only the short URL's page) and its scans
   * never reach this service, so they are not counted.
   */
  direct?: boolean;
}

/** Bounded in UTF-8 bytes, as the 802.11 limits are (SSID 32 bytes; WPA passphrase 8–63). */
function bytes(min: number, max: number): Field<string> {
  return (value, path, problems: ContentProblem[]) => {
    const length = typeof value === 'string' ? Buffer.byteLength(value) : -1;
    if (typeof value !== 'string' || length < min || length > max || /[\u0000-\u001f\u007f]/.test(value)) {
      problems.push({ path, message: `must be ${min}–${max} bytes of text without control characters` });
      return undefined;
    }
    return value; // not trimmed: spaces can be part of a network name or password
  };
}

const shape = refine(
  object({ ssid: bytes(1, 32), password: bytes(1, 63), security: oneOf(['WPA', 'WEP', 'none'] as const), hidden: boolean, direct: boolean }, ['ssid', 'security']),
  (w) => {
    if (w.security === 'none') return w.password === undefined ? undefined : { path: '/password', message: 'must be empty for an open network' };
    if (w.password === undefined) return { path: '/password', message: 'is required for a secured network' };
    if (w.security === 'WPA' && Buffer.byteLength(w.password) < 8) return { path: '/password', message: 'must be at least 8 bytes for WPA' };
    return undefined;
  },
);

export const wifiType: CodeType<WifiContent> = { type: 'WIFI', kind: 'page', parse: contentParser(shape) };
