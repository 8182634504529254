import { describe, expect, it } from 'vitest';
import { render } from 'preact-render-to-string';
import { appDestination, CODE_TYPE_NAMES, CODE_TYPES, type CodeTypeName, type CouponContent } from '../../src/codes/types/index.js';
import { CouponPage } from '../../src/landing/coupon-page.js';
import { buildIcs } from '../../src/landing/icalendar.js';
import { mailtoHref, smsHref } from '../../src/landing/message-pages.js';
import { buildVcard } from '../../src/landing/vcard.js';
import { wifiString } from '../../src/codes/types/wifi-string.js';
import { VALID } from '../support/code-type-examples.js';

const INVALID: [CodeTypeName, unknown, string][] = [
  ['URL', { url: 'javascript:alert(1)' }, '/url'],
  ['URL', { url: 'https://example.com', extra: 1 }, '/extra'],
  ['VCARD_PLUS', { name: 'A', emails: ['not-an-email'] }, '/emails/0'],
  ['CONTACT', { phones: ['+1 555'] }, '/givenName'],
  ['CONTACT', { name: 'A', phones: ['call me'] }, '/phones/0'],
  ['PDF', { fileId: '../../etc/passwd' }, '/fileId'],
  ['IMAGES', { fileIds: [] }, '/fileIds'],
  ['VIDEO', { fileId: 'fil_1', url: 'https://v.example' }, '/fileId'],
  ['MP3', {}, '/fileId'],
  ['BUSINESS', { name: 'B', openingHours: { monday: [{ opens: '18:00', closes: '08:00' }] } }, '/openingHours/monday/0/closes'],
  ['BUSINESS', { name: 'B', openingHours: { funday: [] } }, '/openingHours/funday'],
  ['SOCIAL_MEDIA', { links: [{ network: 'myspace', url: 'https://myspace.com' }] }, '/links/0/network'],
  ['FACEBOOK', { pageUrl: 'https://evil.example/facebook.com' }, '/pageUrl'],
  ['COUPON', { title: 'X', expiresAt: 'tomorrow' }, '/expiresAt'],
  ['APP', { appStoreUrl: 'https://apps.apple.com/x' }, '/fallbackUrl'],
  ['EVENT', { title: 'E', start: '2026-12-01T18:00', end: '2026-12-01T17:00' }, '/end'],
  ['EVENT', { title: 'E', start: '2026-12-01T18:00', timezone: 'Mars/Olympus' }, '/timezone'],
  ['TEXT', { text: 'x'.repeat(5001) }, '/text'],
  ['TEXT', { text: 'bell\u0007' }, '/text'],
  ['EMAIL', { to: 'a@b.c', subject: 'x'.repeat(201) }, '/subject'],
  ['SMS', { phone: '12' }, '/phone'],
  ['WIFI', { ssid: 'Cafe', security: 'WPA' }, '/password'],
  ['WIFI', { ssid: 'x'.repeat(33), security: 'none' }, '/ssid'],
  ['WIFI', { ssid: 'Cafe', security: 'WPA3', password: 'secret123' }, '/security'],
];

describe('code type schemas', () => {
  it('has one schema per type, seventeen in all', () => {
    expect(Object.keys(CODE_TYPES).sort()).toEqual([...CODE_TYPE_NAMES].sort());
    expect(CODE_TYPE_NAMES).toHaveLength(17);
    const redirects = CODE_TYPE_NAMES.filter((t) => CODE_TYPES[t].kind === 'redirect');
    expect(redirects).toEqual(['URL', 'FACEBOOK', 'APP']);
  });

  it.each(CODE_TYPE_NAMES)('accepts a valid %s', (type) => {
    const result = CODE_TYPES[type].parse(VALID[type]);
    expect(result).toMatchObject({ ok: true });
  });

  it.each(INVALID)('refuses an invalid %s at the field at fault (%#)', (type, input, path) => {
    const result = CODE_TYPES[type].parse(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems.map((p) => p.path)).toContain(path);
  });

  it('refuses a non-object and reports every problem at once', () => {
    expect(CODE_TYPES.TEXT.parse('hello')).toEqual({ ok: false, problems: [{ path: '/', message: 'must be an object' }] });
    const result = CODE_TYPES.EMAIL.parse({ to: 'nope', subject: 7, cc: 'x' });
    expect(!result.ok && result.problems.map((p) => p.path).sort()).toEqual(['/cc', '/subject', '/to']);
  });

  it('stores trimmed values, normalized URLs and drops blank optional fields', () => {
    const result = CODE_TYPES.COUPON.parse({ title: '  Sale ', code: '', terms: null });
    expect(result).toEqual({ ok: true, content: { title: 'Sale' } });
    expect(CODE_TYPES.URL.parse({ url: 'HTTPS://Example.com' })).toEqual({ ok: true, content: { url: 'https://example.com/' } });
  });

  it('sends APP scans to the store of the phone, else to the fallback', () => {
    const app = CODE_TYPES.APP.parse(VALID.APP);
    if (!app.ok) throw new Error('APP example must parse');
    expect(appDestination(app.content, 'iOS')).toBe('https://apps.apple.com/app/id1');
    expect(appDestination(app.content, 'Android')).toBe('https://play.google.com/store/apps/details?id=x');
    expect(appDestination(app.content, 'Windows')).toBe('https://app.example/');
    expect(appDestination({ fallbackUrl: 'https://f.example/' }, 'iOS')).toBe('https://f.example/');
  });
});

describe('files and links made from content', () => {
  const hostile = 'Evil;Name,\\x\nEND:VCARD\nBEGIN:VCARD';

  it('escapes vCard text so a value cannot add properties (RFC 6350)', () => {
    const card = buildVcard({ name: hostile, note: 'a\nb' });
    expect(card).toContain('FN:Evil\\;Name\\,\\\\x\\nEND:VCARD\\nBEGIN:VCARD\r\n');
    expect(card.match(/^BEGIN:VCARD/gm)).toHaveLength(1);
    expect(card.match(/^END:VCARD/gm)).toHaveLength(1);
    expect(card.endsWith('END:VCARD\r\n')).toBe(true);
  });

  it('folds long lines at 75 octets without splitting a character', () => {
    const card = buildVcard({ name: 'é'.repeat(100) });
    for (const line of card.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    expect(card.replace(/\r\n /g, '')).toContain(`FN:${'é'.repeat(100)}`);
  });

  it('escapes iCalendar text and writes times in the event zone, or UTC without one (RFC 5545)', () => {
    const ics = buildIcs({ title: hostile, start: '2026-12-01T18:30', end: '2026-07-01T10:00', timezone: 'Europe/Berlin' }, 'qr_1@qroute', new Date('2026-01-01T00:00:00Z'));
    expect(ics).toContain('SUMMARY:Evil\\;Name\\,\\\\x\\nEND:VCARD\\nBEGIN:VCARD\r\n');
    expect(ics).toContain('DTSTART;TZID=Europe/Berlin:20261201T183000\r\n');
    expect(ics).toContain('DTEND;TZID=Europe/Berlin:20260701T100000\r\n');
    expect(buildIcs({ title: 'UTC', start: '2026-12-01T18:30' }, 'qr_1@qroute', new Date())).toContain('DTSTART:20261201T183000Z\r\n');
    expect(ics.match(/^BEGIN:VEVENT/gm)).toHaveLength(1);
  });

  it('escapes WIFI fields so a hostile name cannot change the password or type', () => {
    expect(wifiString({ ssid: 'My;Net:"x"', password: 'p\\a,ss;', security: 'WPA', hidden: true })).toBe(
      'WIFI:T:WPA;S:My\\;Net\\:\\"x\\";P:p\\\\a\\,ss\\;;H:true;;',
    );
    expect(wifiString({ ssid: 'Open', security: 'none' })).toBe('WIFI:T:nopass;S:Open;;');
  });

  it('percent-encodes mailto: and sms: values', () => {
    expect(mailtoHref({ to: 'a@example.com', subject: 'A&B?', body: 'x\ny' })).toBe('mailto:a@example.com?subject=A%26B%3F&body=x%0D%0Ay');
    expect(smsHref({ phone: '+1 (555) 0100', message: 'Hi & bye' })).toBe('sms:+15550100?body=Hi%20%26%20bye');
  });
});

describe("a coupon's expiry", () => {
  const publisher = { accountName: 'Bakery', css: '', logoFileId: null };
  const page = (content: CouponContent, now: string) => render(CouponPage({ content, publisher, now: new Date(now) }));

  it('is read in the zone the issuer gave, so an offer in Berlin ends at midnight Berlin time, not UTC', () => {
    const coupon = { title: 'Sale', expiresAt: '2026-12-31T23:59', timezone: 'Europe/Berlin' };
    expect(page(coupon, '2026-12-31T22:58:00Z')).toContain('Valid until 31 December 2026 at 23:59 (Europe/Berlin).');
    expect(page(coupon, '2026-12-31T23:00:00Z')).toContain('This offer expired on 31 December 2026 at 23:59 (Europe/Berlin).');
  });

  it('is read as UTC without a zone, and the page says so', () => {
    expect(page({ title: 'Sale', expiresAt: '2026-12-31T23:59' }, '2026-12-31T23:00:00Z')).toContain('Valid until 31 December 2026 at 23:59 (UTC).');
  });

  it('refuses a zone that does not exist', () => {
    expect(CODE_TYPES.COUPON.parse({ title: 'Sale', expiresAt: '2026-12-31T23:59', timezone: 'Mars/Olympus' }).ok).toBe(false);
  });
});
