import { WEEKDAYS } from '../../../codes/types/index.js';
import type { HoursField, ListField, RowsField } from './index.js';
import { SelectInput } from './choice-inputs.js';
import { FieldMessages } from './field-message.js';
import { fieldId, type FieldProblems } from './field-problems.js';
import { TextInput } from './text-input.js';

/** Empty rows offered after the filled ones: enough to add a few without JavaScript, up to the list's maximum. */
const EXTRA_ROWS = 2;

function rowCount(filled: number, max: number, extra = EXTRA_ROWS): number {
  return Math.min(max, filled + extra);
}

function items(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** Phones, emails: one input per row; a blank row is left out when the form is read. */
export function ListInputs(props: { field: ListField; path: string; idPrefix: string; value: unknown; problems: FieldProblems; formType: string }) {
  const { field, path } = props;
  const values = items(props.value);
  const id = fieldId(props.idPrefix, path);
  const count = rowCount(values.length, field.max);
  return (
    <fieldset class="form-list">
      <legend>{field.label}</legend>
      {Array.from({ length: count }, (_, i) => (
        <ListRow field={field} path={path} idPrefix={props.idPrefix} index={i} value={values[i]} problems={props.problems} />
      ))}
      <AddRowButton field={field} idPrefix={props.idPrefix} formType={props.formType} index={count} />
      <FieldMessages id={id} label={field.label} hint={field.hint ?? `Up to ${field.max}; leave extra rows empty.`} problem={props.problems[path]} />
    </fieldset>
  );
}

export function ListRow(props: { field: ListField; path: string; idPrefix: string; index: number; value: unknown; problems: FieldProblems }) {
  const { field, path, index: i } = props;
  return (
    <TextInput
      id={fieldId(props.idPrefix, `${path}/${i}`)}
      name={`${path}/${i}`}
      label={`${field.itemLabel} ${i + 1}`}
      labelText={`${field.itemLabel} ${i + 1}`}
      value={text(props.value)}
      input={field.input}
      problem={props.problems[`${path}/${i}`]}
    />
  );
}

/** Social links: a row of columns per item. */
export function RowsInputs(props: { field: RowsField; path: string; idPrefix: string; value: unknown; problems: FieldProblems; formType: string }) {
  const { field, path } = props;
  const rows = items(props.value);
  const id = fieldId(props.idPrefix, path);
  const count = rowCount(rows.length, field.max, 3);
  return (
    <fieldset class="form-list">
      <legend>{field.label}</legend>
      {Array.from({ length: count }, (_, i) => (
        <RowsRow field={field} path={path} idPrefix={props.idPrefix} index={i} value={rows[i]} problems={props.problems} />
      ))}
      <AddRowButton field={field} idPrefix={props.idPrefix} formType={props.formType} index={count} />
      <FieldMessages id={id} label={field.label} hint={field.hint ?? `Up to ${field.max}; leave extra rows empty.`} problem={props.problems[path]} />
    </fieldset>
  );
}

export function RowsRow(props: { field: RowsField; path: string; idPrefix: string; index: number; value: unknown; problems: FieldProblems }) {
  const { field, path, index: i } = props;
  const row = (props.value ?? {}) as Record<string, unknown>;
  return (
    <div class="form-row">
      {field.columns.map((column) => {
        const columnPath = `${path}/${i}/${column.key}`;
        const labelText = `${field.itemLabel} ${i + 1}: ${column.label.toLowerCase()}`;
        const label = (
          <>
            <span class="visually-hidden">{field.itemLabel} {i + 1}: </span>
            {column.label}
          </>
        );
        const common = { id: fieldId(props.idPrefix, columnPath), name: columnPath, label, labelText, value: text(row[column.key]), problem: props.problems[columnPath] };
        return column.kind === 'select' ? <SelectInput {...common} options={column.options} blank /> : <TextInput {...common} input={column.input} />;
      })}
    </div>
  );
}

/**
 * "Add another …": with JavaScript, htmx fetches one more empty row and puts it (with the next button) where the
 * button was. Without JavaScript the button stays hidden; the spare rows above are the way to add, and saving
 * offers more.
 */
export function AddRowButton(props: { field: ListField | RowsField; idPrefix: string; formType: string; index: number; shown?: boolean }) {
  if (props.index >= props.field.max) return null;
  const query = new URLSearchParams({ type: props.formType, field: props.field.key, index: String(props.index), prefix: props.idPrefix });
  return (
    <button
      type="button"
      class="secondary outline small-button add-row"
      hidden={!props.shown}
      data-needs-js=""
      hx-get={`/codes/form-row?${query}`}
      hx-target="this"
      hx-swap="outerHTML"
    >
      Add another {props.field.itemLabel.toLowerCase()}
    </button>
  );
}

const DAY_NAMES: Record<(typeof WEEKDAYS)[number], string> = {
  monday: 'Monday', tuesday: 'Tuesday', wednesday: 'Wednesday', thursday: 'Thursday', friday: 'Friday', saturday: 'Saturday', sunday: 'Sunday',
};

/** The name of the no-JavaScript checkbox that gives Tuesday to Friday Monday's hours when the form is read. */
export function copyMondayName(path: string): string {
  return `${path}/copy-monday`;
}

/**
 * Opening hours: a row per weekday, each with its intervals (a second one for a lunch break). Every day shows as
 * many intervals as the fullest day, so "Copy Monday to Tuesday–Friday" (app.js) finds a field for each of
 * Monday's; without JavaScript a checkbox does the same when the form is saved.
 */
export function HoursInputs(props: { field: HoursField; path: string; idPrefix: string; value: unknown; problems: FieldProblems }) {
  const { field, path } = props;
  const hours = (props.value ?? {}) as Record<string, unknown>;
  const id = fieldId(props.idPrefix, path);
  const rows = Math.max(2, ...WEEKDAYS.map((day) => rowCount(items(hours[day]).length, field.max, 1)));
  return (
    <fieldset class="form-list opening-hours">
      <legend>{field.label}</legend>
      {WEEKDAYS.map((day) => {
        const intervals = items(hours[day]);
        return (
          <div class="form-row" role="group" aria-label={DAY_NAMES[day]}>
            <span class="day-name" aria-hidden="true">{DAY_NAMES[day]}</span>
            {Array.from({ length: rows }, (_, i) => {
              const interval = (intervals[i] ?? {}) as Record<string, unknown>;
              return (['opens', 'closes'] as const).map((end) => {
                const endPath = `${path}/${day}/${i}/${end}`;
                const endId = fieldId(props.idPrefix, endPath);
                const labelText = `${DAY_NAMES[day]} ${end} (${i + 1})`;
                const problem = props.problems[endPath];
                return (
                  <div class="form-field">
                    <label for={endId}>
                      <span class="visually-hidden">{DAY_NAMES[day]} </span>
                      {end}
                      <span class="visually-hidden"> ({i + 1})</span>
                    </label>
                    <input type="time" id={endId} name={endPath} value={text(interval[end])} aria-invalid={problem ? 'true' : undefined} aria-describedby={problem ? `${endId}-error` : undefined} />
                    <FieldMessages id={endId} label={labelText} problem={problem} />
                  </div>
                );
              });
            })}
            <FieldMessages id={fieldId(props.idPrefix, `${path}/${day}`)} label={DAY_NAMES[day]} problem={props.problems[`${path}/${day}`]} />
          </div>
        );
      }).flatMap((row, index) => (index === 0 ? [row, <CopyMonday path={path} idPrefix={props.idPrefix} />] : [row]))}
      <FieldMessages id={id} label={field.label} hint={field.hint} problem={props.problems[path]} />
    </fieldset>
  );
}

/** Under Monday: a button (with JavaScript) or a checkbox read when the form is saved (without). */
function CopyMonday(props: { path: string; idPrefix: string }) {
  const checkboxId = fieldId(props.idPrefix, copyMondayName(props.path));
  return (
    <div class="copy-monday">
      <button type="button" class="secondary outline small-button" data-copy-monday="" data-needs-js="" hidden>
        Copy Monday to Tuesday–Friday
      </button>
      <noscript>
        <label for={checkboxId}>
          <input type="checkbox" id={checkboxId} name={copyMondayName(props.path)} value="on" /> Give Tuesday to Friday Monday’s hours when saving
        </label>
      </noscript>
    </div>
  );
}
