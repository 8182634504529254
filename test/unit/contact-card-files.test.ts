import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { render } from 'preact-render-to-string';
import { CODE_TYPES, type ContactContent, type EventContent } from '../../src/codes/types/index.js';
import { contactFormContent } from '../../src/dashboard/codes/type-forms/contact-form-content.js';
import { readDraft } from '../../src/dashboard/codes/type-forms/read-draft.js';
import { TYPE_FORMS } from '../../src/dashboard/codes/type-forms/index.js';
import { cellsFromContent, contentFromCells } from '../../src/imports/columns.js';
import { buildIcs } from '../../src/landing/icalendar.js';
import { buildVcard } from '../../src/landing/vcard.js';
import { VcardPlusPage } from '../../src/landing/vcard-plus-page.js';
import { strictComponent, typesOf } from '../support/strict-calendar.js';

/** What the form or an import stores: parsed by the type's own schema, as a save does. */
function stored(input: unknown): ContactContent {
  const result = CODE_TYPES.VCARD_PLUS.parse(input);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.content;
}

const ANNA = stored({
  givenName: 'Anna',
  familyName: "Müller-O'Brien",
  company: 'Bäckerei Müller; Söhne, GmbH',
  title: 'Head baker',
  phones: [{ kind: 'mobile', number: '+49 170 1234567' }, { kind: 'work', number: '+49 30 1234567' }, 'home: +49 30 7654321', '+49 30 999'],
  emails: [{ kind: 'work', address: 'anna@baeckerei.example' }, 'home: anna@home.example'],
  street: 'Hauptstraße 1\nHinterhaus, 2. OG',
  postcode: '10115',
  city: 'Berlin',
  region: 'Berlin',
  country: 'Deutschland',
  note: 'Back\\slash; semi, comma\nand a new line',
  website: 'https://baeckerei.example/anna',
});

describe('a contact card (.vcf) read back by a strict parser', () => {
  it('files given and family name, organisation, title, the address in its seven parts and typed numbers and emails', () => {
    const card = strictComponent(buildVcard(ANNA), 'vcard');
    expect(card.getFirstPropertyValue('version')).toBe('3.0');
    expect(card.getFirstPropertyValue('n')).toEqual(["Müller-O'Brien", 'Anna', '', '', '']);
    expect(card.getFirstPropertyValue('fn')).toBe("Anna Müller-O'Brien");
    expect(card.getFirstPropertyValue('title')).toBe('Head baker');
    expect(card.getFirstPropertyValue('org')).toBe('Bäckerei Müller; Söhne, GmbH');
    expect(card.getFirstProperty('adr')!.getValues()).toEqual([['', '', 'Hauptstraße 1\nHinterhaus, 2. OG', 'Berlin', 'Berlin', '10115', 'Deutschland']]);
    expect(card.getAllProperties('tel').map((p) => [typesOf(p), p.getFirstValue()])).toEqual([
      [['cell'], '+49 170 1234567'],
      [['voice', 'work'], '+49 30 1234567'],
      [['home', 'voice'], '+49 30 7654321'],
      [['voice'], '+49 30 999'],
    ]);
    expect(card.getAllProperties('email').map((p) => [typesOf(p), p.getFirstValue()])).toEqual([
      [['internet', 'work'], 'anna@baeckerei.example'],
      [['home', 'internet'], 'anna@home.example'],
    ]);
    expect(card.getFirstPropertyValue('url')).toBe('https://baeckerei.example/anna');
  });

  it('escapes backslash, comma, semicolon and line ends so a value cannot add a property', () => {
    const hostile = stored({ givenName: 'Evil;Name,\\x', familyName: 'X;Y', street: 'a\nEND:VCARD\nBEGIN:VCARD;b', note: ANNA.note });
    const vcf = buildVcard(hostile);
    const card = strictComponent(vcf, 'vcard');
    expect(card.getFirstPropertyValue('n')).toEqual(['X;Y', 'Evil;Name,\\x', '', '', '']);
    expect(card.getFirstProperty('adr')!.getValues()[0][2]).toBe('a\nEND:VCARD\nBEGIN:VCARD;b');
    // vCard 3.0 escapes ; in every text (RFC 2426 §4); ical.js reads text by 4.0's rule, which leaves "\;" outside
    // structured values, so the note is checked as written.
    expect(vcf).toContain('NOTE:Back\\\\slash\\; semi\\, comma\\nand a new line\r\n');
    expect(card.getAllProperties().map((p) => p.name)).toEqual(['version', 'n', 'fn', 'adr', 'note']);
  });

  it('folds lines at 75 octets without splitting a UTF-8 character, and they unfold to the value', () => {
    const long = stored({ givenName: 'é'.repeat(60), familyName: '日本'.repeat(20), street: `${'ß'.repeat(150)}` });
    const vcf = buildVcard(long);
    const card = strictComponent(vcf, 'vcard');
    expect(vcf.split('\r\n').length).toBeGreaterThan(8);
    expect(card.getFirstPropertyValue('n')).toEqual(['日本'.repeat(20), 'é'.repeat(60), '', '', '']);
    expect(card.getFirstProperty('adr')!.getValues()[0][2]).toBe('ß'.repeat(150));
  });

  it('reads a code stored before names and addresses had parts: FN as written, the name whole in N, the address as street', () => {
    const old = stored({ name: "Anna Müller-O'Brien", phones: ['+49 170 1234567'], emails: ['anna@example.com'], address: 'Hauptstraße 1\n10115 Berlin' });
    expect(old.phones).toEqual([{ number: '+49 170 1234567' }]);
    const card = strictComponent(buildVcard(old), 'vcard');
    expect(card.getFirstPropertyValue('fn')).toBe("Anna Müller-O'Brien");
    // Not split (nothing says where a name divides), and never a wrong family name.
    expect(card.getFirstPropertyValue('n')).toEqual(['', "Anna Müller-O'Brien", '', '', '']);
    expect(card.getFirstProperty('adr')!.getValues()).toEqual([['', '', 'Hauptstraße 1\n10115 Berlin', '', '', '', '']]);
    expect(card.getAllProperties('tel').map(typesOf)).toEqual([['voice']]);
    // Content stored as it was (strings, not objects) reads the same.
    const raw = buildVcard({ name: "Anna Müller-O'Brien", phones: ['+49 170 1234567'], address: 'Hauptstraße 1\n10115 Berlin' });
    expect(strictComponent(raw, 'vcard').getFirstPropertyValue('n')).toEqual(['', "Anna Müller-O'Brien", '', '', '']);
  });

  it('writes the name as shown as FN when given beside the parts', () => {
    const card = strictComponent(buildVcard(stored({ name: "Dr. Anna Müller-O'Brien", givenName: 'Anna', familyName: "Müller-O'Brien" })), 'vcard');
    expect(card.getFirstPropertyValue('fn')).toBe("Dr. Anna Müller-O'Brien");
    expect(card.getFirstPropertyValue('n')).toEqual(["Müller-O'Brien", 'Anna', '', '', '']);
  });
});

describe('contact content', () => {
  it('needs a given or family name, and refuses an address both in parts and as one text', () => {
    const nameless = CODE_TYPES.CONTACT.parse({ phones: ['+49 30 1'] });
    expect(!nameless.ok && nameless.problems).toEqual([{ path: '/givenName', message: 'give a given name or a family name' }]);
    expect(CODE_TYPES.CONTACT.parse({ familyName: 'Müller' })).toEqual({ ok: true, content: { familyName: 'Müller' } });
    const twice = CODE_TYPES.CONTACT.parse({ familyName: 'M', address: 'Somewhere', city: 'Berlin' });
    expect(!twice.ok && twice.problems.map((p) => p.path)).toEqual(['/address']);
    const badKind = CODE_TYPES.CONTACT.parse({ familyName: 'M', phones: [{ kind: 'fax', number: '+49 30 1' }], emails: ['mobile: a@b.example'] });
    expect(!badKind.ok && badKind.problems.map((p) => p.path)).toEqual(['/phones/0/kind', '/emails/0']);
  });

  it('shows an old code in the form split at the last space, with a note to check it, and saves it in parts', () => {
    const shown = contactFormContent({ name: 'Ludwig van Beethoven', address: 'Bonngasse 20\n53111 Bonn', phones: ['+49 228 1'] });
    expect(shown.content).toEqual({ givenName: 'Ludwig van', familyName: 'Beethoven', street: 'Bonngasse 20\n53111 Bonn', phones: [{ number: '+49 228 1' }] });
    expect(shown.notes.givenName).toContain('“Ludwig van Beethoven”: check where given and family name divide');
    expect(contactFormContent({ name: 'Cher' }).content).toEqual({ givenName: 'Cher' });
    const fresh = { givenName: 'Anna', street: 'x' };
    expect(contactFormContent(fresh)).toEqual({ content: fresh, notes: {} });
  });

  it('reads the form rows into typed numbers the schema accepts', () => {
    const draft = readDraft(TYPE_FORMS.VCARD_PLUS, {
      '/content/givenName': 'Anna',
      '/content/phones/0/number': '+49 170 1234567',
      '/content/phones/0/kind': 'mobile',
      '/content/phones/1/number': '+49 30 1',
      '/content/phones/1/kind': '',
      '/content/phones/2/number': '',
      '/content/emails/0/address': 'a@b.example',
      '/content/emails/0/kind': 'home',
      '/content/city': 'Berlin',
    }, new Map());
    expect(stored(draft)).toEqual({
      givenName: 'Anna',
      phones: [{ kind: 'mobile', number: '+49 170 1234567' }, { number: '+49 30 1' }],
      emails: [{ kind: 'home', address: 'a@b.example' }],
      city: 'Berlin',
    });
  });

  it('goes through an import file and back: names and address in their columns, kinds written before each number', () => {
    const cells = cellsFromContent('VCARD_PLUS', ANNA);
    expect(cells).toMatchObject({
      givenName: 'Anna',
      familyName: "Müller-O'Brien",
      fullName: '',
      phones: 'mobile: +49 170 1234567|work: +49 30 1234567|home: +49 30 7654321|+49 30 999',
      emails: 'work: anna@baeckerei.example|home: anna@home.example',
      postcode: '10115',
      address: '',
    });
    const back = contentFromCells('VCARD_PLUS', new Map(Object.entries(cells)));
    expect(back.problems).toEqual([]);
    expect(stored(back.content)).toEqual(ANNA);
  });

  it('shows the address on the page in its parts, one line each, and the kinds of numbers', () => {
    const html = render(VcardPlusPage({ content: ANNA, publisher: { accountName: 'Bakery', css: '', logoFileId: null }, vcfHref: '/r/x?download=vcf' }));
    expect(html).toContain("<h1>Anna Müller-O'Brien</h1>");
    const address = /<address\b[^>]*>([\s\S]*?)<\/address>/.exec(html)?.[1]?.replace(/<[^>]+>/g, '');
    expect(address).toBe('Hauptstraße 1\nHinterhaus, 2. OG\n10115 Berlin\nBerlin\nDeutschland');
    expect(html).toContain('Call +49 170 1234567 (mobile)');
    expect(html).toContain('Email anna@baeckerei.example (work)');
  });
});

describe('opening hours without JavaScript', () => {
  it('gives Tuesday to Friday Monday’s hours when the "copy Monday" box is ticked, and leaves them alone when not', () => {
    const fields = {
      '/content/name': 'Bakery',
      '/content/openingHours/monday/0/opens': '08:00',
      '/content/openingHours/monday/0/closes': '12:00',
      '/content/openingHours/monday/1/opens': '13:00',
      '/content/openingHours/monday/1/closes': '18:00',
      '/content/openingHours/tuesday/0/opens': '10:00',
      '/content/openingHours/tuesday/0/closes': '11:00',
      '/content/openingHours/saturday/0/opens': '09:00',
      '/content/openingHours/saturday/0/closes': '13:00',
    };
    const monday = [{ opens: '08:00', closes: '12:00' }, { opens: '13:00', closes: '18:00' }];
    const copied = readDraft(TYPE_FORMS.BUSINESS, { ...fields, '/content/openingHours/copy-monday': 'on' }, new Map());
    expect(copied.openingHours).toEqual({ monday, tuesday: monday, wednesday: monday, thursday: monday, friday: monday, saturday: [{ opens: '09:00', closes: '13:00' }] });
    expect((readDraft(TYPE_FORMS.BUSINESS, fields, new Map()).openingHours as Record<string, unknown>).wednesday).toBeUndefined();
  });
});

describe('an event file (.ics) read back by a strict parser', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  const event = (e: Partial<EventContent>) => strictComponent(buildIcs({ title: 'Launch', start: '2026-12-01T18:30', ...e }, 'qr_1@qroute', now), 'vcalendar');

  /** The instants a calendar app computes, with the file's own VTIMEZONE (never the machine's zone data). */
  function instants(calendar: ICAL.Component): { start: string; end: string | undefined; zone: string } {
    for (const tz of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(tz);
    try {
      const vevent = new ICAL.Event(calendar.getFirstSubcomponent('vevent')!);
      return { start: vevent.startDate.toJSDate().toISOString(), end: vevent.endDate?.toJSDate().toISOString(), zone: vevent.startDate.zone!.tzid };
    } finally {
      ICAL.TimezoneService.reset();
    }
  }

  it('writes a zoned event in its zone with a VTIMEZONE, summer and winter both right', () => {
    const calendar = event({ start: '2026-03-28T18:30', end: '2026-10-25T22:00', timezone: 'Europe/Berlin' });
    const vevent = calendar.getFirstSubcomponent('vevent')!;
    expect(vevent.getFirstProperty('dtstart')!.getParameter('tzid')).toBe('Europe/Berlin');
    expect(vevent.getFirstProperty('dtstart')!.toICALString()).toBe('DTSTART;TZID=Europe/Berlin:20260328T183000');
    expect(calendar.getFirstSubcomponent('vtimezone')!.getFirstPropertyValue('tzid')).toBe('Europe/Berlin');
    // 28 March is CET (+01:00), 25 October 22:00 is CET again after the change at 03:00 that morning.
    expect(instants(calendar)).toEqual({ start: '2026-03-28T17:30:00.000Z', end: '2026-10-25T21:00:00.000Z', zone: 'Europe/Berlin' });
    const summer = event({ start: '2026-07-01T10:00', end: '2026-07-01T12:00', timezone: 'Europe/Berlin' });
    expect(instants(summer)).toMatchObject({ start: '2026-07-01T08:00:00.000Z', end: '2026-07-01T10:00:00.000Z' });
  });

  it('handles zones without daylight saving, with half hours and south of the equator', () => {
    expect(instants(event({ start: '2026-12-01T09:00', timezone: 'Asia/Kolkata' })).start).toBe('2026-12-01T03:30:00.000Z');
    expect(instants(event({ start: '2026-12-01T09:00', timezone: 'Australia/Sydney' })).start).toBe('2026-11-30T22:00:00.000Z');
    expect(instants(event({ start: '2026-12-01T09:00', timezone: 'America/New_York' })).start).toBe('2026-12-01T14:00:00.000Z');
  });

  it('writes an event without a zone, or in UTC, in UTC with no VTIMEZONE', () => {
    for (const timezone of [undefined, 'UTC']) {
      const calendar = event({ start: '2026-12-01T18:30', end: '2026-12-01T20:00', ...(timezone ? { timezone } : {}) });
      expect(calendar.getAllSubcomponents('vtimezone')).toEqual([]);
      const vevent = calendar.getFirstSubcomponent('vevent')!;
      expect(vevent.getFirstProperty('dtstart')!.toICALString()).toBe('DTSTART:20261201T183000Z');
      expect(instants(calendar)).toMatchObject({ start: '2026-12-01T18:30:00.000Z', end: '2026-12-01T20:00:00.000Z' });
    }
  });

  it('keeps a time written with an offset at its instant, shown in the event zone', () => {
    expect(instants(event({ start: '2026-12-01T18:30+05:00', timezone: 'Europe/Berlin' })).start).toBe('2026-12-01T13:30:00.000Z');
  });

  it('escapes the text and reads back title, place and description', () => {
    const calendar = event({ title: 'Evil;Name,\\x\nEND:VEVENT', location: 'Hall 1, Berlin', description: 'Line 1\nLine 2; more' });
    const vevent = calendar.getFirstSubcomponent('vevent')!;
    expect(vevent.getFirstPropertyValue('summary')).toBe('Evil;Name,\\x\nEND:VEVENT');
    expect(vevent.getFirstPropertyValue('location')).toBe('Hall 1, Berlin');
    expect(vevent.getFirstPropertyValue('description')).toBe('Line 1\nLine 2; more');
    expect(calendar.getAllSubcomponents('vevent')).toHaveLength(1);
  });
});
