import { WEEKDAYS } from '../../../codes/types/index.js';
import { pathOf, positionName, removeName, type FormField, type TypeForm } from './form-description.js';
import { copyMondayName } from './list-inputs.js';

/** The text fields of a submitted form, by name. */
export type FormFields = Readonly<Record<string, string>>;

/** Files this request stored, by the path of the field they were uploaded into. */
export type UploadedIds = ReadonlyMap<string, readonly string[]>;

// Rows past this are never read, whatever a hand-made request sends (every list's own maximum is lower).
const MAX_ROWS = 40;

/**
 * Turns a submitted form into the content the type's schema checks: blank fields and blank rows are left out
 * (the schemas treat absent and blank alike), lists are packed so their indexes are the schema's, and files are
 * the ones uploaded now, else the ones already there. The result is also what the form shows again when refused.
 */
export function readDraft(form: TypeForm, fields: FormFields, uploaded: UploadedIds): Record<string, unknown> {
  const draft: Record<string, unknown> = {};
  for (const field of form.fields) {
    const value = readField(field, pathOf(field.key), fields, uploaded);
    if (value !== undefined) draft[field.key] = value;
  }
  return draft;
}

function readField(field: FormField, path: string, fields: FormFields, uploaded: UploadedIds): unknown {
  switch (field.kind) {
    case 'text':
      return field.untrimmed ? nonEmpty(fields[path]) : nonBlank(fields[path]);
    case 'select':
      return nonBlank(fields[path]);
    case 'checkbox':
      return fields[path] !== undefined;
    case 'either':
      // The first answer is left out, as content saved before the field existed has it.
      return fields[path] === 'true' ? true : undefined;
    case 'list':
      return nonEmptyList(rowIndexes(fields, path).map((i) => nonBlank(fields[`${path}/${i}`])).filter((v) => v !== undefined));
    case 'rows':
      return nonEmptyList(
        rowIndexes(fields, path)
          .map((i) => record(field.columns.map((column) => [column.key, nonBlank(fields[`${path}/${i}/${column.key}`])])))
          .filter((row) => row !== undefined),
      );
    case 'hours': {
      const days = WEEKDAYS.map((day) => {
        const intervals = rowIndexes(fields, `${path}/${day}`)
          .map((i) => record([['opens', nonBlank(fields[`${path}/${day}/${i}/opens`])], ['closes', nonBlank(fields[`${path}/${day}/${i}/closes`])]]))
          .filter((interval) => interval !== undefined);
        return [day, nonEmptyList(intervals)] as const;
      });
      // The no-JavaScript "Copy Monday to Tuesday–Friday" (list-inputs.tsx): Monday's intervals, closed included.
      if (fields[copyMondayName(path)] !== undefined) {
        const monday = days[0]![1];
        for (let i = 1; i <= 4; i++) days[i] = [WEEKDAYS[i]!, monday] as const;
      }
      return record(days);
    }
    case 'file': {
      const fresh = uploaded.get(path)?.[0];
      if (fresh !== undefined) return fresh;
      return fields[removeName(path)] !== undefined ? undefined : nonBlank(fields[path]);
    }
    case 'files': {
      const kept = inGivenOrder(
        fields,
        path,
        rowIndexes(fields, path).filter((i) => fields[removeName(`${path}/${i}`)] === undefined),
      )
        .map((i) => nonBlank(fields[`${path}/${i}`]))
        .filter((id) => id !== undefined);
      // New uploads go after the images already there, in the order they were chosen.
      return nonEmptyList([...kept, ...(uploaded.get(path) ?? [])]);
    }
  }
}

/**
 * A gallery's rows in the order the owner gave them: by the position typed beside each (1 first; the page's
 * Up/Down buttons renumber them), a row without a readable position keeping its place. Where two rows ask for one
 * place, the one that was moved there comes first, so typing 1 beside the third image makes it the first.
 */
function inGivenOrder(fields: FormFields, path: string, indexes: number[]): number[] {
  const rows = indexes.map((index) => {
    // The form shows row `index` at place index + 1; a position left as shown means "not moved".
    const written = fields[positionName(`${path}/${index}`)]?.trim() ?? '';
    const typed = Number(written);
    const position = written !== '' && Number.isFinite(typed) ? typed : index + 1;
    return { index, position, moved: position !== index + 1 };
  });
  return rows
    .sort((a, b) => a.position - b.position || Number(b.moved) - Number(a.moved) || a.index - b.index)
    .map((row) => row.index);
}

/** The row numbers sent under `path` (`path/0`, `path/1/url`, ...), in order. */
function rowIndexes(fields: FormFields, path: string): number[] {
  const prefix = `${path}/`;
  const indexes = new Set<number>();
  for (const name of Object.keys(fields)) {
    if (!name.startsWith(prefix)) continue;
    const index = Number(name.slice(prefix.length).split('/')[0]);
    if (Number.isInteger(index) && index >= 0 && index < MAX_ROWS) indexes.add(index);
  }
  return [...indexes].sort((a, b) => a - b);
}

function nonBlank(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

function nonEmptyList<T>(items: T[]): T[] | undefined {
  return items.length === 0 ? undefined : items;
}

/** An object of the given entries that have a value; undefined when none has. */
function record(entries: readonly (readonly [string, unknown])[]): Record<string, unknown> | undefined {
  const present = entries.filter(([, value]) => value !== undefined);
  return present.length === 0 ? undefined : Object.fromEntries(present);
}
