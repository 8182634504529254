import { CsrfField, Flash, Layout } from '../../components/layout.js';
import type { PageContext } from '../../context.js';
import type { CodeFormErrors, CodeFormValues } from '../../actions/codes/code-form.js';
import { CodeFields } from './code-fields.js';
import { PlanUsageLine, type PlanUsage } from './plan-usage.js';

/** "New code": a URL code (the other types come with their own editors). */
export function NewCodePage(props: {
  context: PageContext;
  usage: PlanUsage;
  values?: CodeFormValues;
  errors?: CodeFormErrors;
  /** Set when the plan's limit refused the code. */
  limitMessage?: string;
}) {
  const atLimit = props.usage.used >= props.usage.limit;
  return (
    <Layout context={props.context} title="New code">
      <p>
        <a href="/codes">← Codes</a>
      </p>
      <h1>New code</h1>
      {props.limitMessage && <Flash kind="error">{props.limitMessage}</Flash>}
      <PlanUsageLine usage={props.usage} />
      {atLimit && !props.limitMessage && (
        <p>All codes of the plan are in use: creating one more will be refused until you delete a code or the plan grows.</p>
      )}
      <form method="post" action="/codes" class="narrow-form">
        <CsrfField token={props.context.csrfToken} />
        <CodeFields idPrefix="new-code" values={props.values ?? { name: '', url: '' }} errors={props.errors} />
        <button type="submit">Create code</button>
      </form>
    </Layout>
  );
}
