import { MAX_NAME_LENGTH } from '../../codes/code-input.js';
import { MAX_URL_LENGTH } from '../../destination-url.js';
import type { CodeFormErrors, CodeFormValues } from './code-form.js';

/**
 * A code's Name and Destination URL, with the message for a refused value next to its field (linked by
 * aria-describedby, so a screen reader reads it with the field). The browser's own checks are a convenience;
 * the server applies the rules either way.
 */
export function CodeFields(props: { idPrefix: string; values: CodeFormValues; errors?: CodeFormErrors | undefined }) {
  const { idPrefix, values, errors = {} } = props;
  return (
    <>
      {/* No maxlength: browsers count UTF-16 units, the rule counts characters (an emoji is one). */}
      <TextField id={`${idPrefix}-name`} name="name" label="Name" value={values.name} error={errors.name} hint={`Up to ${MAX_NAME_LENGTH} characters.`} />
      <TextField
        id={`${idPrefix}-url`}
        name="url"
        label="Destination URL"
        type="url"
        value={values.url}
        error={errors.url}
        maxLength={MAX_URL_LENGTH}
        hint="Where the short URL leads: an http:// or https:// address. You can change it later; printed codes follow."
      />
    </>
  );
}

function TextField(props: {
  id: string;
  name: string;
  label: string;
  value: string;
  error: string | undefined;
  maxLength?: number;
  type?: 'text' | 'url';
  hint?: string;
}) {
  const hintId = props.hint ? `${props.id}-hint` : undefined;
  const errorId = props.error ? `${props.id}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined;
  const attributes = {
    id: props.id,
    name: props.name,
    value: props.value,
    required: true,
    maxLength: props.maxLength,
    autocomplete: 'off',
    'aria-invalid': props.error ? ('true' as const) : undefined,
    'aria-describedby': describedBy,
  };
  return (
    <>
      <label for={props.id}>{props.label}</label>
      {props.type === 'url' ? <input type="url" {...attributes} /> : <input type="text" {...attributes} />}
      {props.error && (
        <small class="field-error" id={errorId}>
          {props.error}
        </small>
      )}
      {props.hint && <small id={hintId}>{props.hint}</small>}
    </>
  );
}
