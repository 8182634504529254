import type { ComponentChildren } from 'preact';

/**
 * The routing forms' fields: a visible label, the hint and the error tied to the control (aria-describedby,
 * aria-invalid) as FormField does, so app.js's error summary lists each error with a link to its field.
 */
export function Field(props: {
  id: string;
  name: string;
  label: ComponentChildren;
  type: 'text' | 'url' | 'number' | 'datetime-local' | 'time';
  value: string;
  error?: string | undefined;
  hint?: string | undefined;
  list?: string;
  min?: number;
  max?: number;
  maxLength?: number;
  inputMode?: 'numeric';
  zoneGuess?: string | undefined;
}) {
  const describedBy = [props.error ? `${props.id}-error` : undefined, props.hint ? `${props.id}-hint` : undefined].filter(Boolean).join(' ');
  return (
    <div class="form-field">
      <label for={props.id}>{props.label}</label>
      <input
        id={props.id}
        name={props.name}
        type={props.type}
        value={props.value}
        list={props.list}
        min={props.min}
        max={props.max}
        maxLength={props.maxLength}
        inputMode={props.inputMode}
        autocomplete="off"
        data-zone-guess={props.zoneGuess}
        aria-invalid={props.error ? 'true' : undefined}
        aria-describedby={describedBy || undefined}
      />
      {props.hint && (
        <small id={`${props.id}-hint`} class="muted">
          {props.hint}
        </small>
      )}
      {props.error && (
        <small class="field-error" id={`${props.id}-error`}>
          {props.error}
        </small>
      )}
    </div>
  );
}

/**
 * Checkboxes of one list condition. The error is tied to the first box (the error summary links to it); the
 * legend names the group for each box.
 */
export function CheckboxGroup(props: {
  id: string;
  name: string;
  legend: string;
  options: ReadonlyArray<{ value: string; label: string }>;
  checked: readonly string[];
  error?: string | undefined;
  /** An error said elsewhere (about the conditions as a whole): the first box is tied to it instead. */
  errorElsewhere?: string | undefined;
  hint?: string | undefined;
}) {
  const errorId = props.errorElsewhere ?? `${props.id}-${0}-error`;
  const invalid = props.error !== undefined || props.errorElsewhere !== undefined;
  return (
    <fieldset class="routing-choices">
      <legend>{props.legend}</legend>
      {props.hint && <small class="muted">{props.hint}</small>}
      <div class="routing-choice-row">
        {props.options.map((option, index) => (
          <label for={`${props.id}-${index}`}>
            <input
              type="checkbox"
              id={`${props.id}-${index}`}
              name={props.name}
              value={option.value}
              checked={props.checked.includes(option.value)}
              aria-invalid={invalid && index === 0 ? 'true' : undefined}
              aria-describedby={invalid && index === 0 ? errorId : undefined}
            />{' '}
            {option.label}
          </label>
        ))}
      </div>
      {props.error && (
        <small class="field-error" id={errorId}>
          {props.error}
        </small>
      )}
    </fieldset>
  );
}
