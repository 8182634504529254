import type { CodeKind, CodeTypeName } from '../../../codes/types/index.js';
import type { FileKind } from '../../../db/schema/files.js';

/**
 * How one type's form looks: its fields, in order, each naming a top-level key of the type's content. Field
 * names in the HTML are JSON pointers (`/content/links/0/url`), the same paths the type's schema reports
 * problems at, so a problem lands next to the field that caused it without a mapping table per type.
 */
export interface TypeForm {
  type: CodeTypeName;
  /** Plain words for the picker, the code list and the code page. */
  label: string;
  /** One line under the label in the picker. */
  description: string;
  fields: readonly FormField[];
  /** Sentences for schema messages written for the API that read badly after a field's label, by message. */
  sentences?: Readonly<Record<string, string>>;
}

interface Described {
  key: string;
  label: string;
  hint?: string;
}

export type TextInput = 'text' | 'url' | 'email' | 'tel' | 'datetime' | 'time-zone';

export interface TextField extends Described {
  kind: 'text';
  input?: TextInput;
  multiline?: boolean;
  required?: boolean;
  /** Sent as typed, blanks included (a Wi-Fi name or password may begin with a space). */
  untrimmed?: boolean;
}

export interface SelectField extends Described {
  kind: 'select';
  options: readonly { value: string; label: string }[];
  required?: boolean;
}

export interface CheckboxField extends Described {
  kind: 'checkbox';
}

/** A list of single values (phone numbers, email addresses): a row each. */
export interface ListField extends Described {
  kind: 'list';
  itemLabel: string;
  input: TextInput;
  max: number;
}

/** A list of small records (social links): a row of fields each. */
export interface RowsField extends Described {
  kind: 'rows';
  itemLabel: string;
  columns: readonly (Omit<TextField, 'hint'> | Omit<SelectField, 'hint'>)[];
  max: number;
  min?: number;
}

/** Opening hours: per weekday, up to `max` intervals of opens/closes. */
export interface HoursField extends Described {
  kind: 'hours';
  max: number;
}

export interface FileField extends Described {
  kind: 'file';
  fileKind: FileKind;
  /** For the file picker only; the server checks the content. */
  accept: string;
  required?: boolean;
}

export interface FilesField extends Described {
  kind: 'files';
  fileKind: FileKind;
  accept: string;
  max: number;
}

/**
 * A yes/no whose two answers each need their consequence said (Wi-Fi: join directly, or a page): two radio
 * buttons, each with its own hint. The first option is stored as nothing (the key left out, which is also what
 * content saved before the field existed has); the second as true.
 */
export interface EitherField extends Described {
  kind: 'either';
  options: readonly [EitherOption, EitherOption];
}

export interface EitherOption {
  label: string;
  hint: string;
}

export type FormField = TextField | SelectField | CheckboxField | ListField | RowsField | HoursField | FileField | FilesField | EitherField;

/** The pointer a field's value lives at, and its HTML name. */
export function pathOf(key: string): string {
  return `/content/${key}`;
}

/** The name of the file input that uploads into the field at `path`. */
export function uploadName(path: string): string {
  return `upload:${path}`;
}

/** The name of the checkbox that removes the file at `path`. */
export function removeName(path: string): string {
  return `remove:${path}`;
}

/** The name of the number field that gives a gallery image's place (1 first); read by readDraft. */
export function positionName(path: string): string {
  return `position:${path}`;
}

export function hasFiles(form: TypeForm): boolean {
  return form.fields.some((field) => field.kind === 'file' || field.kind === 'files');
}

/** What a code's short URL does, in a sentence for its page. */
export function shortUrlDoes(type: CodeTypeName, kind: CodeKind): string {
  if (type === 'CONTACT') return 'Downloads the contact card (.vcf) straight to the phone.';
  if (type === 'APP') return 'Redirects iPhones to the App Store, Android phones to Google Play, and everyone else to the fallback page.';
  if (kind === 'redirect') return 'Redirects to the destination below.';
  return 'Shows a small page hosted here, with the content below.';
}
