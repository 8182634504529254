/**
 * A labelled input with its error beside it: the error is tied to the input (aria-describedby, aria-invalid), so
 * a screen reader reads it with the field, and the label is visible (tests and people find the field by it).
 */
export function FormField(props: {
  id: string;
  label: string;
  name: string;
  type?: 'text' | 'email' | 'password';
  value?: string;
  error?: string | undefined;
  hint?: string;
  autocomplete?: string;
  required?: boolean;
  maxLength?: number;
}) {
  const errorId = `${props.id}-error`;
  const hintId = `${props.id}-hint`;
  const describedBy = [props.error ? errorId : undefined, props.hint ? hintId : undefined].filter(Boolean).join(' ');
  const common = {
    id: props.id,
    name: props.name,
    autocomplete: props.autocomplete,
    required: props.required ?? true,
    maxLength: props.maxLength,
    'aria-invalid': props.error ? ('true' as const) : undefined,
    'aria-describedby': describedBy || undefined,
  };
  return (
    <>
      <label for={props.id}>{props.label}</label>
      {/* A password is never sent back into the page. */}
      {props.type === 'password' ? (
        <input type="password" {...common} />
      ) : props.type === 'email' ? (
        <input type="email" value={props.value ?? ''} {...common} />
      ) : (
        <input type="text" value={props.value ?? ''} {...common} />
      )}
      {props.hint && (
        <small id={hintId} class="muted">
          {props.hint}
        </small>
      )}
      {props.error && (
        <small class="field-error" id={errorId}>
          {props.error}
        </small>
      )}
    </>
  );
}

/** Errors of a form, by field name; a field without an entry is fine. */
export type FieldErrors = Partial<Record<string, string>>;

/** A new password and its confirmation, as every form that sets one asks for them. */
export function NewPasswordFields(props: { idPrefix: string; labels: [string, string]; errors: FieldErrors }) {
  return (
    <>
      <FormField
        id={`${props.idPrefix}-password`}
        label={props.labels[0]}
        name="password"
        type="password"
        autocomplete="new-password"
        hint="At least 10 characters; a few words make a good one."
        error={props.errors.password}
      />
      <FormField
        id={`${props.idPrefix}-confirm`}
        label={props.labels[1]}
        name="confirm"
        type="password"
        autocomplete="new-password"
        error={props.errors.confirm}
      />
    </>
  );
}
