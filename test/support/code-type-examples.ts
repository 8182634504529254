import type { CodeTypeName } from '../../src/codes/types/index.js';
import type { FileKind } from '../../src/db/schema/files.js';
import type { Db } from '../../src/db/schema/index.js';
import { mp3, pdf, png, storeSampleFile } from './sample-files.js';

/** One valid example per type; the unit and integration tests both use it. */
export const VALID: Record<CodeTypeName, unknown> = {
  URL: { url: 'https://example.com/a' },
  VCARD_PLUS: { name: 'Ada Lovelace', title: 'Analyst', company: 'Engines Ltd', phones: ['+44 20 7946 0958'], emails: ['ada@example.com'], website: 'https://ada.example', address: '1 Main St\nLondon', note: 'Hi', photoFileId: 'fil_1' },
  CONTACT: { name: 'Ada Lovelace', phones: ['+44 20 7946 0958'] },
  PDF: { fileId: 'fil_pdf', title: 'Menu' },
  IMAGES: { fileIds: ['fil_a', 'fil_b'], title: 'Gallery' },
  VIDEO: { url: 'https://video.example/v/1', title: 'Trailer' },
  MP3: { fileId: 'fil_mp3', title: 'Song' },
  BUSINESS: { name: 'Bakery', description: 'Bread', openingHours: { monday: [{ opens: '08:00', closes: '12:00' }, { opens: '13:00', closes: '18:00' }] }, address: 'Market 1', phone: '+49 30 1234567', email: 'shop@example.com', website: 'https://bakery.example' },
  SOCIAL_MEDIA: { title: 'Follow us', links: [{ network: 'instagram', url: 'https://instagram.com/bakery' }] },
  FACEBOOK: { pageUrl: 'https://www.facebook.com/bakery' },
  COUPON: { title: '10% off', description: 'On bread', code: 'BREAD10', expiresAt: '2099-12-31T23:59', terms: 'One per person' },
  APP: { appStoreUrl: 'https://apps.apple.com/app/id1', googlePlayUrl: 'https://play.google.com/store/apps/details?id=x', fallbackUrl: 'https://app.example' },
  EVENT: { title: 'Launch party', start: '2026-12-01T18:30', end: '2026-12-01T22:00', timezone: 'Europe/Berlin', location: 'Hall 1', description: 'Come', url: 'https://event.example' },
  TEXT: { text: 'Hello,\nworld' },
  EMAIL: { to: 'info@example.com', subject: 'Hi there', body: 'Line 1\nLine 2' },
  SMS: { phone: '+1 555 0100', message: 'STOP' },
  WIFI: { ssid: 'Cafe', password: 'secret123', security: 'WPA', hidden: false },
};


/**
 * VALID[type] with its file ids replaced by real files stored for the account, since a code may only name live
 * files of its own account (src/codes/file-references.ts).
 */
export async function storedExample(db: Db, accountId: string, type: CodeTypeName): Promise<unknown> {
  const content = structuredClone(VALID[type]) as Record<string, unknown>;
  const store = async (kind: FileKind, name: string, bytes: Buffer) => (await storeSampleFile(db, accountId, kind, name, bytes)).id;
  switch (type) {
    case 'PDF':
      content.fileId = await store('pdf', 'menu.pdf', pdf());
      break;
    case 'MP3':
      content.fileId = await store('audio', 'song.mp3', mp3());
      break;
    case 'IMAGES':
      content.fileIds = [await store('image', 'a.png', png()), await store('image', 'b.png', png())];
      break;
    case 'VCARD_PLUS':
      content.photoFileId = await store('image', 'ada.png', png());
      break;
    default:
      break;
  }
  return content;
}
