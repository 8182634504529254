import type { ComponentChildren } from 'preact';
import { describedBy, FieldMessages } from './field-message.js';
import type { FieldProblems } from './field-problems.js';
import type { EitherField } from './form-description.js';

export function SelectInput(props: {
  id: string;
  name: string;
  label: ComponentChildren;
  labelText: string;
  value: string;
  options: readonly { value: string; label: string }[];
  /** Offer an empty choice (a list row that may stay blank). */
  blank?: boolean;
  hint?: string | undefined;
  problem?: FieldProblems[string] | undefined;
}) {
  return (
    <div class="form-field">
      <label for={props.id}>{props.label}</label>
      <select
        id={props.id}
        name={props.name}
        aria-invalid={props.problem ? 'true' : undefined}
        aria-describedby={describedBy(props.id, props.hint, props.problem)}
      >
        {props.blank && <option value="">Choose…</option>}
        {props.options.map((option) => (
          <option value={option.value} selected={option.value === props.value}>
            {option.label}
          </option>
        ))}
      </select>
      <FieldMessages id={props.id} label={props.labelText} hint={props.hint} problem={props.problem} />
    </div>
  );
}

export function CheckboxInput(props: { id: string; name: string; label: string; checked: boolean; hint?: string | undefined; problem?: FieldProblems[string] | undefined }) {
  return (
    <div class="form-field">
      <label for={props.id}>
        <input type="checkbox" id={props.id} name={props.name} value="on" checked={props.checked} aria-describedby={describedBy(props.id, props.hint, props.problem)} />{' '}
        {props.label}
      </label>
      <FieldMessages id={props.id} label={props.label} hint={props.hint} problem={props.problem} />
    </div>
  );
}

/** Two radio buttons for a yes/no, each with what it means under it (see EitherField). */
export function EitherInput(props: { id: string; name: string; field: EitherField; value: boolean; problem?: FieldProblems[string] | undefined }) {
  const { field } = props;
  return (
    <fieldset class="form-list either-field" aria-describedby={props.problem ? `${props.id}-error` : undefined}>
      <legend>{field.label}</legend>
      {field.options.map((option, i) => {
        const optionId = `${props.id}-${i === 0 ? 'no' : 'yes'}`;
        return (
          <div class="form-field">
            <label for={optionId}>
              <input type="radio" id={optionId} name={props.name} value={i === 0 ? 'false' : 'true'} checked={props.value === (i === 1)} aria-describedby={`${optionId}-hint`} />{' '}
              {option.label}
            </label>
            <small id={`${optionId}-hint`}>{option.hint}</small>
          </div>
        );
      })}
      <FieldMessages id={props.id} label={field.label} problem={props.problem} />
    </fieldset>
  );
}
