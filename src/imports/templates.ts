import { stringify } from 'csv-stringify/sync';
import { sql } from 'kysely';
import type { CodeTypeName } from '../codes/types/index.js';
import { isLiveCodeOf } from '../db/live-codes.js';
import { liveFilesOf } from '../db/live-files.js';
import type { Db } from '../db/schema/index.js';
import type { FileKind } from '../db/schema/files.js';
import { ALL_COLUMNS, cellsFromContent, columnsOf } from './columns.js';

/** One example per type, written as content so the template's row goes through the same columns as an export. */
const EXAMPLES: Record<CodeTypeName, Record<string, unknown>> = {
  URL: { url: 'https://example.com/spring-menu' },
  VCARD_PLUS: {
    givenName: 'Ada',
    familyName: 'Lovelace',
    title: 'Analyst',
    company: 'Engines Ltd',
    phones: [{ kind: 'work', number: '+44 20 7946 0958' }, { kind: 'mobile', number: '+44 7700 900123' }],
    emails: [{ kind: 'work', address: 'ada@example.com' }],
    website: 'https://example.com',
    street: '1 Main Street',
    postcode: 'SW1A 1AA',
    city: 'London',
    country: 'United Kingdom',
  },
  CONTACT: { givenName: 'Ada', familyName: 'Lovelace', phones: [{ kind: 'mobile', number: '+44 7700 900123' }], emails: [{ address: 'ada@example.com' }] },
  PDF: { fileId: '', title: 'Menu' },
  IMAGES: { fileIds: [], title: 'Gallery' },
  VIDEO: { url: 'https://video.example.com/watch/1', title: 'Trailer' },
  MP3: { fileId: '', title: 'Song' },
  BUSINESS: {
    name: 'Corner Bakery',
    description: 'Bread and cakes',
    openingHours: { monday: [{ opens: '08:00', closes: '12:00' }, { opens: '13:00', closes: '18:00' }], saturday: [{ opens: '09:00', closes: '13:00' }] },
    address: 'Market Square 1',
    phone: '+49 30 1234567',
    email: 'shop@example.com',
    website: 'https://example.com',
  },
  SOCIAL_MEDIA: { title: 'Follow us', links: [{ network: 'instagram', url: 'https://instagram.com/example' }, { network: 'youtube', url: 'https://youtube.com/@example' }] },
  FACEBOOK: { pageUrl: 'https://www.facebook.com/example' },
  COUPON: { title: '10% off', description: 'On all bread', code: 'BREAD10', expiresAt: '2027-12-31T23:59', terms: 'One per person' },
  APP: { appStoreUrl: 'https://apps.apple.com/app/id000000000', googlePlayUrl: 'https://play.google.com/store/apps/details?id=com.example', fallbackUrl: 'https://example.com/app' },
  EVENT: { title: 'Launch party', start: '2027-06-01T18:30', end: '2027-06-01T22:00', timezone: 'Europe/Berlin', location: 'Hall 1', url: 'https://example.com/launch' },
  TEXT: { text: 'Welcome!\nThe code for the door is 1234.' },
  EMAIL: { to: 'info@example.com', subject: 'Question', body: 'Hello,' },
  SMS: { phone: '+1 555 0100', message: 'JOIN' },
  WIFI: { ssid: 'Cafe Guest', password: 'coffee-2027', security: 'WPA', hidden: false },
};

/** Which stored files a file type's example names (the account's newest of that kind a live code shows), since an id must be the account's. */
const FILE_FIELDS: Partial<Record<CodeTypeName, { field: string; kinds: FileKind[]; many?: boolean }>> = {
  PDF: { field: 'fileId', kinds: ['pdf'] },
  MP3: { field: 'fileId', kinds: ['audio'] },
  IMAGES: { field: 'fileIds', kinds: ['image'], many: true },
};

export const PLACEHOLDER_FILE_ID = 'fil_PUT_AN_UPLOADED_FILE_ID_HERE';

/**
 * The template for `type`: its header and one example row that imports cleanly into this account. File types
 * name the account's newest file of the right kind that a live code shows; an account without one gets a placeholder.
 */
export async function templateCsv(db: Db, accountId: string, type: CodeTypeName): Promise<string> {
  const content = structuredClone(EXAMPLES[type]);
  const files = FILE_FIELDS[type];
  if (files) {
    // Only a file a live code shows: the newest upload is often the orphan of a refused form, which the
    // unreferenced-upload prune deletes after a day, and an import of the template would then fail on it.
    const newest = await liveFilesOf(db, accountId)
      .select('id')
      .where('kind', 'in', files.kinds)
      .where('sha256', '!=', '')
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom('qr_codes')
            .select(sql`1`.as('one'))
            .where(isLiveCodeOf(accountId))
            // The id as a JSON string of the content (file ids hold no LIKE wildcard but _, which can only match more).
            .where(sql<string>`qr_codes.content::text`, 'like', sql<string>`'%"' || files.id || '"%'`),
        ),
      )
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    const id = newest?.id ?? PLACEHOLDER_FILE_ID;
    content[files.field] = files.many ? [id] : id;
  }
  const cells: Record<string, string> = { ...exampleCells(type), ...cellsFromContent(type, content) };
  const columns = columnsOf(type);
  return `\uFEFF${stringify([columns, columns.map((c) => cells[c] ?? '')], { record_delimiter: 'windows' })}`;
}

/** The mixed template's file name: lower case, so no type's template (`URL.csv`) can be called the same. */
export const MIXED_TEMPLATE_FILE = 'all-types.csv';

/** Types whose examples need no uploaded file, so the mixed template imports cleanly into any account. */
const MIXED_EXAMPLES: readonly CodeTypeName[] = ['URL', 'VCARD_PLUS', 'BUSINESS', 'EVENT', 'WIFI'];

/**
 * One template for all types: the export's header (every column of every type, the type first), so a file made
 * from it, an export and a file mixing types all read the same way, and example rows of several types, each
 * leaving empty the columns its type does not have.
 */
export function mixedTemplateCsv(): string {
  const rows = MIXED_EXAMPLES.map((type) => {
    const cells: Record<string, string> = { ...exampleCells(type), ...cellsFromContent(type, EXAMPLES[type]) };
    return ALL_COLUMNS.map((column) => cells[column] ?? '');
  });
  return `\uFEFF${stringify([ALL_COLUMNS as string[], ...rows], { record_delimiter: 'windows' })}`;
}

function exampleCells(type: CodeTypeName): Record<string, string> {
  return { type, name: `Example ${type.toLowerCase().replace('_', ' ')}`, externalId: `example-${type.toLowerCase()}`, design: '' };
}
