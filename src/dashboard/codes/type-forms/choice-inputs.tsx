import type { ComponentChildren } from 'preact';
import { describedBy, FieldMessages } from './field-message.js';
import type { FieldProblems } from './field-problems.js';

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
