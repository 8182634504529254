import type { CodeTypeName } from '../../codes/types/index.js';
import { CsrfField, Flash, Layout } from '../shared/layout.js';
import type { PageContext } from '../shared/context.js';
import type { CodeFormErrors, CodeFormValues } from './code-form.js';
import { TYPE_FORMS } from './type-forms/index.js';
import { CodeFields } from './code-fields.js';
import { PlanUsageLine, type PlanUsage } from './plan-usage-line.js';
import { NEW_CODE_FORM_ID, TypePicker } from './type-picker.js';
import { TypedCodeForm, type TypedFormState } from './typed-code-form.js';

const EMPTY_STATE: TypedFormState = { name: '', content: {}, problems: {}, fileNames: new Map() };

/** "New code": the type picker, then the chosen type's form (a URL code unless another type is chosen). */
export function NewCodePage(props: {
  context: PageContext;
  usage: PlanUsage;
  type?: CodeTypeName;
  /** The URL form as sent, when refused. */
  values?: CodeFormValues;
  errors?: CodeFormErrors;
  /** Another type's form as sent, when refused. */
  typed?: TypedFormState;
  /** Set when the plan's limit refused the code. */
  limitMessage?: string;
  /** The viewer's time zone, for the time-zone fields of a form shown fresh (not of one sent back refused). */
  zoneGuess?: string;
}) {
  const type = props.type ?? 'URL';
  const form = TYPE_FORMS[type];
  const atLimit = props.usage.used >= props.usage.limit;
  const refused = props.errors !== undefined || (props.typed !== undefined && Object.keys(props.typed.problems).length > 0);
  return (
    <Layout context={props.context} title={type === 'URL' ? 'New code' : `New code: ${form.label}`}>
      <p>
        <a href="/codes">← Codes</a>
      </p>
      <h1>New code</h1>
      {props.limitMessage && <Flash kind="error">{props.limitMessage}</Flash>}
      {refused && <Flash kind="error">The code was not created: see the messages below.</Flash>}
      <PlanUsageLine usage={props.usage} />
      {atLimit && !props.limitMessage && (
        <p>All codes of the plan are in use: creating one more will be refused until you delete a code or the plan grows.</p>
      )}
      <div class="new-code">
        <TypePicker current={type} />
        <section aria-labelledby={NEW_CODE_FORM_ID}>
          <h2 id={NEW_CODE_FORM_ID}>{form.label}</h2>
          <p class="muted">{form.description}</p>
          {type === 'URL' ? (
            <form method="post" action="/codes" class="narrow-form">
              <CsrfField token={props.context.csrfToken} />
              <CodeFields idPrefix="new-code" values={props.values ?? { name: '', url: '' }} errors={props.errors} />
              <button type="submit">Create code</button>
            </form>
          ) : (
            <TypedCodeForm context={props.context} form={form} action={`/codes?type=${type}`} idPrefix="new-code" state={props.typed ?? EMPTY_STATE} submitLabel="Create code" zoneGuess={props.typed ? undefined : props.zoneGuess} />
          )}
        </section>
      </div>
    </Layout>
  );
}
