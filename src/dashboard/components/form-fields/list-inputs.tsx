import { WEEKDAYS } from '../../../codes/types/index.js';
import type { HoursField, ListField, RowsField } from '../../actions/codes/type-forms/index.js';
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
export function ListInputs(props: { field: ListField; path: string; idPrefix: string; value: unknown; problems: FieldProblems }) {
  const { field, path } = props;
  const values = items(props.value);
  const id = fieldId(props.idPrefix, path);
  return (
    <fieldset class="form-list">
      <legend>{field.label}</legend>
      {Array.from({ length: rowCount(values.length, field.max) }, (_, i) => (
        <TextInput
          id={fieldId(props.idPrefix, `${path}/${i}`)}
          name={`${path}/${i}`}
          label={`${field.itemLabel} ${i + 1}`}
          labelText={`${field.itemLabel} ${i + 1}`}
          value={text(values[i])}
          input={field.input}
          problem={props.problems[`${path}/${i}`]}
        />
      ))}
      <FieldMessages id={id} label={field.label} hint={field.hint ?? `Up to ${field.max}; leave extra rows empty.`} problem={props.problems[path]} />
    </fieldset>
  );
}

/** Social links: a row of columns per item. */
export function RowsInputs(props: { field: RowsField; path: string; idPrefix: string; value: unknown; problems: FieldProblems }) {
  const { field, path } = props;
  const rows = items(props.value);
  const id = fieldId(props.idPrefix, path);
  return (
    <fieldset class="form-list">
      <legend>{field.label}</legend>
      {Array.from({ length: rowCount(rows.length, field.max, 3) }, (_, i) => {
        const row = (rows[i] ?? {}) as Record<string, unknown>;
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
      })}
      <FieldMessages id={id} label={field.label} hint={field.hint ?? `Up to ${field.max}; leave extra rows empty.`} problem={props.problems[path]} />
    </fieldset>
  );
}

const DAY_NAMES: Record<(typeof WEEKDAYS)[number], string> = {
  monday: 'Monday', tuesday: 'Tuesday', wednesday: 'Wednesday', thursday: 'Thursday', friday: 'Friday', saturday: 'Saturday', sunday: 'Sunday',
};

/** Opening hours: a row per weekday, each with its intervals (a second one for a lunch break). */
export function HoursInputs(props: { field: HoursField; path: string; idPrefix: string; value: unknown; problems: FieldProblems }) {
  const { field, path } = props;
  const hours = (props.value ?? {}) as Record<string, unknown>;
  const id = fieldId(props.idPrefix, path);
  return (
    <fieldset class="form-list opening-hours">
      <legend>{field.label}</legend>
      {WEEKDAYS.map((day) => {
        const intervals = items(hours[day]);
        return (
          <div class="form-row" role="group" aria-label={DAY_NAMES[day]}>
            <span class="day-name" aria-hidden="true">{DAY_NAMES[day]}</span>
            {Array.from({ length: Math.max(2, rowCount(intervals.length, field.max, 1)) }, (_, i) => {
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
      })}
      <FieldMessages id={id} label={field.label} hint={field.hint} problem={props.problems[path]} />
    </fieldset>
  );
}
