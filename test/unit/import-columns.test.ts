import { describe, expect, it } from 'vitest';
import { CODE_TYPE_NAMES, CODE_TYPES, type CodeTypeName } from '../../src/codes/types/index.js';
import { ALL_COLUMNS, cellsFromContent, COMMON_COLUMNS, contentFromCells } from '../../src/imports/columns.js';

/**
 * Every field each type declares today, filled: when a type gains a field, add it here, and this test fails until
 * the import has a column for it (the export writes only what columns.ts knows, so the field would be lost on
 * the way back in).
 */
const EVERY_FIELD: Record<CodeTypeName, Record<string, unknown>[]> = {
  URL: [{ url: 'https://example.com/a' }],
  VCARD_PLUS: [
    {
      givenName: 'Anna',
      familyName: "Müller-O'Brien",
      name: "Dr. Anna Müller-O'Brien",
      title: 'Analyst',
      company: 'Engines Ltd',
      phones: [{ kind: 'mobile', number: '+49 170 1234567' }, { kind: 'work', number: '+49 30 1234567' }, { number: '+49 30 7654321' }],
      emails: [{ kind: 'work', address: 'anna@example.com' }, { address: 'a@example.org' }],
      website: 'https://anna.example',
      street: 'Hauptstraße 1',
      postcode: '10115',
      city: 'Berlin',
      region: 'Berlin',
      country: 'Germany',
      note: 'Line one\nline two',
      photoFileId: 'fil_photo',
    },
  ],
  // A card stored before names and addresses had parts: one name, one address text.
  CONTACT: [{ name: 'Ada Lovelace', address: '1 Main St\nLondon', phones: ['+44 20 7946 0958'], emails: ['ada@example.com'] }],
  PDF: [{ fileId: 'fil_pdf', title: 'Menu' }],
  IMAGES: [{ fileIds: ['fil_a', 'fil_b'], title: 'Gallery' }],
  VIDEO: [{ url: 'https://video.example/v/1', title: 'Trailer' }, { fileId: 'fil_video', title: 'Upload' }],
  MP3: [{ fileId: 'fil_mp3', title: 'Song' }],
  BUSINESS: [
    {
      name: 'Bakery',
      description: 'Bread',
      openingHours: { monday: [{ opens: '08:00', closes: '12:00' }, { opens: '13:00', closes: '18:00' }], sunday: [{ opens: '10:00', closes: '24:00' }] },
      address: 'Market 1',
      phone: '+49 30 1234567',
      email: 'shop@example.com',
      website: 'https://bakery.example',
    },
  ],
  SOCIAL_MEDIA: [{ title: 'Follow us', links: [{ network: 'instagram', url: 'https://instagram.com/bakery' }, { network: 'x', url: 'https://x.com/a' }, { network: 'x', url: 'https://x.com/b' }] }],
  FACEBOOK: [{ pageUrl: 'https://www.facebook.com/bakery' }],
  COUPON: [{ title: '10% off', description: 'On bread', code: 'BREAD10', expiresAt: '2099-12-31T23:59', timezone: 'Europe/Berlin', terms: 'One per person' }],
  APP: [{ appStoreUrl: 'https://apps.apple.com/app/id1', googlePlayUrl: 'https://play.google.com/store/apps/details?id=x', fallbackUrl: 'https://app.example' }],
  EVENT: [{ title: 'Launch party', start: '2026-12-01T18:30', end: '2026-12-01T22:00', timezone: 'Europe/Berlin', location: 'Hall 1', description: 'Come', url: 'https://event.example' }],
  TEXT: [{ text: 'Hello,\nworld' }],
  EMAIL: [{ to: 'info@example.com', subject: 'Hi there', body: 'Line 1\nLine 2' }],
  SMS: [{ phone: '+1 555 0100', message: 'STOP' }],
  WIFI: [{ ssid: ' Cafe ', password: 'secret123', security: 'WPA', hidden: true, direct: true }],
};

describe('the import and export columns', () => {
  it.each(CODE_TYPE_NAMES)('carry every field of %s from the export back into the same content', (type) => {
    for (const example of EVERY_FIELD[type]) {
      const stored = CODE_TYPES[type].parse(example);
      expect(stored, JSON.stringify(stored)).toMatchObject({ ok: true });
      const content = (stored as { content: unknown }).content;
      const cells = new Map(Object.entries(cellsFromContent(type, content)).filter(([, cell]) => cell !== ''));
      const read = contentFromCells(type, cells);
      expect(read.problems).toEqual([]);
      expect(CODE_TYPES[type].parse(read.content)).toEqual({ ok: true, content });
    }
  });

  it('have one header for the export, the template for all types and any mixed file: the type first, then every column once', () => {
    expect(ALL_COLUMNS.slice(0, COMMON_COLUMNS.length)).toEqual([...COMMON_COLUMNS]);
    expect(ALL_COLUMNS[0]).toBe('type');
    expect(new Set(ALL_COLUMNS).size).toBe(ALL_COLUMNS.length);
  });
});
