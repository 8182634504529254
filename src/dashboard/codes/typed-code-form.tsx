import { MAX_NAME_LENGTH } from '../../codes/code-input.js';
import { hasFiles, type TypeForm } from './type-forms/index.js';
import type { FieldProblems } from './type-forms/field-problems.js';
import type { FileNames } from './type-forms/file-inputs.js';
import { TextInput } from './type-forms/text-input.js';
import { TypeFields } from './type-forms/type-fields.js';
import { CsrfField } from '../shared/layout.js';
import type { PageContext } from '../shared/context.js';
import { uploadAction } from '../shared/csrf.js';

/** What a type form shows: the stored code, or what was sent when it was refused. */
export interface TypedFormState {
  name: string;
  content: Record<string, unknown>;
  problems: FieldProblems;
  fileNames: FileNames;
}

/**
 * A type's create or edit form. With file fields it is a multipart upload (the CSRF token in its action, as the
 * body is read after the check); otherwise a plain form.
 */
export function TypedCodeForm(props: {
  context: PageContext;
  form: TypeForm;
  action: string;
  idPrefix: string;
  state: TypedFormState;
  submitLabel: string;
  /** A new code's form: the viewer's time zone, the default of its time-zone fields. */
  zoneGuess?: string | undefined;
}) {
  const { form, state, idPrefix } = props;
  const upload = hasFiles(form);
  return (
    <form
      method="post"
      action={upload ? uploadAction(props.action, props.context.csrfToken) : props.action}
      enctype={upload ? 'multipart/form-data' : undefined}
      class="narrow-form type-form"
    >
      {!upload && <CsrfField token={props.context.csrfToken} />}
      <TextInput
        id={`${idPrefix}-name`}
        name="name"
        label="Name"
        labelText="The name"
        value={state.name}
        required
        hint={`For you, in the code list; up to ${MAX_NAME_LENGTH} characters.`}
        problem={state.problems['/name']}
      />
      <TypeFields form={form} content={state.content} problems={state.problems} fileNames={state.fileNames} idPrefix={idPrefix} zoneGuess={props.zoneGuess} />
      <button type="submit">{props.submitLabel}</button>
    </form>
  );
}
