import { CODE_TYPE_NAMES, type CodeTypeName, SOCIAL_NETWORKS, WEEKDAYS } from '../codes/types/index.js';
import type { FileKind } from '../db/schema/files.js';

/**
 * The flat CSV form of each type's content: one definition per type, used by the import (cells → content), the
 * export (content → cells) and the per-type templates. Every type has the common columns `type`, `name`,
 * `externalId` and `design`; its content columns follow. A file may mix types: its header is the union.
 *
 * - Lists (phones, emails, IMAGES' fileIds) are one cell with the values separated by `|` (none of those values
 *   can contain one); a contact's number or email may start with its kind: `mobile: +49 170 1234567|work: …`.
 * - BUSINESS opening hours: one column per weekday, `08:00-12:00, 13:00-18:00`; an empty cell is closed.
 * - SOCIAL_MEDIA: one column per network (`socialInstagram`, ...); several profiles of one network are `|`-separated.
 * - File fields take the id (`fil_...`) of a file already uploaded to the account, or, when the CSV comes in a ZIP
 *   with its files, a file's name in the ZIP (FILE_COLUMNS; check-import.ts stores it and puts its id there).
 * - WIFI `hidden` and `direct` are `true` or `false` (also `yes`/`no`, `1`/`0`).
 */

export const LIST_SEPARATOR = '|';
export const COMMON_COLUMNS = ['type', 'name', 'externalId', 'design'] as const;

/** Where a content problem's JSON pointer came from: the longest matching prefix names the column. */
export type Origins = [pointer: string, column: string][];

interface Column {
  name: string;
  /** The top-level content field it fills, naming the column when that field is required and missing. */
  field: string;
  /** Writes the cell (never blank: blank cells are absent) into the content; may report a problem directly. */
  read(cell: string, content: Record<string, unknown>, origins: Origins, problems: CellProblem[]): void;
  /** The cell for this column from stored content ('' when the content has nothing for it). */
  write(content: Record<string, unknown>): string;
}

export interface CellProblem {
  /** The column at fault (or `row` for the row as a whole). */
  field: string;
  message: string;
  /** The cell as the file gave it (cut to a short length: problem-values.ts); absent when no one cell is at fault. */
  value?: string;
  /** A stable code for a refusal that has one (a file from the ZIP refused by the file store: `unsupported_type`). */
  code?: string;
}

/** A text field stored as written (the type's schema trims and checks it). */
function text(field: string, column = field): Column {
  return {
    name: column,
    field,
    read: (cell, content, origins) => {
      content[field] = cell;
      origins.push([`/${field}`, column]);
    },
    write: (content) => (typeof content[field] === 'string' ? (content[field] as string) : ''),
  };
}

function list(field: string, column = field): Column {
  return {
    name: column,
    field,
    read: (cell, content, origins) => {
      content[field] = cell.split(LIST_SEPARATOR).map((v) => v.trim()).filter((v) => v !== '');
      origins.push([`/${field}`, column]);
    },
    write: (content) => (Array.isArray(content[field]) ? (content[field] as unknown[]).map(listItemCell).join(LIST_SEPARATOR) : ''),
  };
}

/** A contact's number or address with its kind is written `mobile: +49 170 1234567`, as the import reads it. */
function listItemCell(item: unknown): string {
  if (typeof item === 'string') return item;
  const { kind, number, address } = item as { kind?: string; number?: string; address?: string };
  const value = number ?? address ?? '';
  return kind ? `${kind}: ${value}` : value;
}

const TRUE = ['true', 'yes', '1'];
const FALSE = ['false', 'no', '0'];

function flag(field: string, column = field): Column {
  return {
    name: column,
    field,
    read: (cell, content, origins, problems) => {
      const value = cell.trim().toLowerCase();
      if (TRUE.includes(value)) content[field] = true;
      else if (FALSE.includes(value)) content[field] = false;
      else problems.push({ field: column, message: 'must be true or false' });
      origins.push([`/${field}`, column]);
    },
    write: (content) => (typeof content[field] === 'boolean' ? String(content[field]) : ''),
  };
}

const INTERVAL = /^(\S+?)\s*-\s*(\S+)$/;

function openingDay(day: string): Column {
  return {
    name: day,
    field: 'openingHours',
    read: (cell, content, origins, problems) => {
      const intervals = cell.split(',').map((part) => part.trim()).filter((part) => part !== '');
      const parsed = intervals.map((part) => INTERVAL.exec(part));
      if (parsed.some((match) => match === null)) {
        problems.push({ field: day, message: 'must be opening times like 08:00-12:00, 13:00-18:00' });
        return;
      }
      const hours = (content.openingHours ??= {}) as Record<string, unknown>;
      hours[day] = parsed.map((match) => ({ opens: match![1], closes: match![2] }));
      origins.push([`/openingHours/${day}`, day]);
    },
    write: (content) => {
      const hours = content.openingHours as Record<string, { opens: string; closes: string }[]> | undefined;
      return (hours?.[day] ?? []).map((i) => `${i.opens}-${i.closes}`).join(', ');
    },
  };
}

export function socialColumn(network: string): string {
  return `social${network[0]!.toUpperCase()}${network.slice(1)}`;
}

/** Links are read in the networks' order; the export writes them back grouped the same way. */
function socialNetwork(network: string): Column {
  const column = socialColumn(network);
  return {
    name: column,
    field: 'links',
    read: (cell, content, origins) => {
      const links = (content.links ??= []) as unknown[];
      for (const url of cell.split(LIST_SEPARATOR).map((v) => v.trim()).filter((v) => v !== '')) {
        origins.push([`/links/${links.length}`, column]);
        links.push({ network, url });
      }
    },
    write: (content) => {
      const links = (content.links as { network: string; url: string }[] | undefined) ?? [];
      return links.filter((l) => l.network === network).map((l) => l.url).join(LIST_SEPARATOR);
    },
  };
}

// Names and addresses in parts (src/codes/types/contact-fields.ts); `fullName` and `address` are the one-text
// forms older files use, still read (not together with the address's parts).
const contactColumns = [
  text('givenName'),
  text('familyName'),
  text('name', 'fullName'),
  text('title'),
  text('company'),
  list('phones'),
  list('emails'),
  text('website'),
  text('street'),
  text('postcode'),
  text('city'),
  text('region'),
  text('country'),
  text('address'),
  text('note'),
  text('photoFileId'),
];

/** Each type's content columns, in the order a template lists them. */
export const TYPE_COLUMNS: Record<CodeTypeName, readonly Column[]> = {
  URL: [text('url')],
  VCARD_PLUS: contactColumns,
  CONTACT: contactColumns,
  PDF: [text('fileId'), text('title')],
  IMAGES: [list('fileIds'), text('title')],
  VIDEO: [text('fileId'), text('url'), text('title')],
  MP3: [text('fileId'), text('title')],
  BUSINESS: [
    text('name', 'businessName'),
    text('description'),
    ...WEEKDAYS.map(openingDay),
    text('address'),
    text('phone'),
    text('email'),
    text('website'),
  ],
  SOCIAL_MEDIA: [text('title'), ...SOCIAL_NETWORKS.map(socialNetwork)],
  FACEBOOK: [text('pageUrl')],
  COUPON: [text('title'), text('description'), text('code', 'couponCode'), text('expiresAt'), text('timezone'), text('terms')],
  APP: [text('appStoreUrl'), text('googlePlayUrl'), text('fallbackUrl')],
  EVENT: [text('title'), text('start'), text('end'), text('timezone'), text('location'), text('description'), text('url')],
  TEXT: [text('text')],
  EMAIL: [text('to'), text('subject'), text('body')],
  SMS: [text('phone'), text('message')],
  // `direct`: the network itself in the image (src/codes/image-text.ts), which cannot change after printing.
  WIFI: [text('ssid'), text('password'), text('security'), flag('hidden'), flag('direct')],
};

/** Every column any type has, in a stable order: the header of an export and of a mixed file. */
export const ALL_COLUMNS: readonly string[] = [
  ...COMMON_COLUMNS,
  ...new Set(CODE_TYPE_NAMES.flatMap((type) => TYPE_COLUMNS[type].map((c) => c.name))),
];

export function columnsOf(type: CodeTypeName): string[] {
  return [...COMMON_COLUMNS, ...TYPE_COLUMNS[type].map((c) => c.name)];
}

/** Cells of one row (by column name) → the content to parse; cells of columns the type does not have must be empty. */
export function contentFromCells(
  type: CodeTypeName,
  cells: ReadonlyMap<string, string>,
): { content: Record<string, unknown>; origins: Origins; problems: CellProblem[] } {
  const content: Record<string, unknown> = {};
  const origins: Origins = [];
  const problems: CellProblem[] = [];
  const own = TYPE_COLUMNS[type];
  for (const column of own) {
    const cell = cells.get(column.name);
    // WIFI names and passwords may begin or end with spaces, so cells are kept as written; blank is absent.
    if (cell !== undefined && cell.trim() !== '') column.read(cell, content, origins, problems);
  }
  const ownNames = new Set<string>([...COMMON_COLUMNS, ...own.map((c) => c.name)]);
  for (const [name, cell] of cells) {
    if (!ownNames.has(name) && cell.trim() !== '') problems.push({ field: name, message: `is not a column of type ${type}; leave it empty in this row` });
  }
  return { content, origins, problems };
}

/** Stored content → the cells of its type's columns. */
export function cellsFromContent(type: CodeTypeName, content: unknown): Record<string, string> {
  const c = (content ?? {}) as Record<string, unknown>;
  return Object.fromEntries(TYPE_COLUMNS[type].map((column) => [column.name, column.write(c)]));
}

/** The column a problem's pointer (`/name`, `/content/links/2/url`) points into. */
export function columnOfProblem(type: CodeTypeName, path: string, origins: Origins): string {
  if (!path.startsWith('/content')) return path.slice(1) || 'row';
  const pointer = path.slice('/content'.length);
  let best: [string, string] | undefined;
  for (const origin of origins) {
    const [prefix] = origin;
    if ((pointer === prefix || pointer.startsWith(`${prefix}/`)) && (!best || prefix.length > best[0].length)) best = origin;
  }
  if (best) return best[1];
  // A required field left empty wrote nothing: name the column(s) that fill it.
  const field = pointer.split('/')[1] ?? '';
  const columns = TYPE_COLUMNS[type].filter((c) => c.field === field).map((c) => c.name);
  if (columns.length === 1) return columns[0]!;
  if (columns.length > 1) return `${columns[0]}…${columns[columns.length - 1]}`;
  return field || 'row';
}

/**
 * The columns that name stored files, and the kind a file from the ZIP is stored as when a cell names it there
 * (src/codes/file-references.ts checks the kinds each field accepts: a contact's photo may also be a logo).
 */
export const FILE_COLUMNS: Partial<Record<CodeTypeName, Readonly<Record<string, FileKind>>>> = {
  PDF: { fileId: 'pdf' },
  MP3: { fileId: 'audio' },
  VIDEO: { fileId: 'video' },
  IMAGES: { fileIds: 'image' },
  VCARD_PLUS: { photoFileId: 'image' },
  CONTACT: { photoFileId: 'image' },
};
