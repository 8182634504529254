import type { QrCode } from '../../codes/index.js';
import type { DesignTemplate } from '../../designs/index.js';
import type { DesignFormValues } from './design-form.js';
import { CsrfField, Flash, Layout } from '../shared/layout.js';
import type { PageContext } from '../shared/context.js';
import { DesignEditor } from './design-editor.js';

export const TEMPLATE_DONE = {
  created: 'Template created with the default look. Design it below.',
  saved: 'Template saved. Every code following it uses it now.',
  logo: 'Logo saved with the template.',
  applied: 'Template applied.',
} as const;

export interface DesignTemplatePageProps {
  context: PageContext;
  template: DesignTemplate;
  name: string;
  values: DesignFormValues;
  preview: { svg: string | null; problems: string[] };
  /** The account's newest codes (or those matching `query`), and which of them follow this template. */
  codes: { code: QrCode; following: boolean }[];
  query: string;
  done?: keyof typeof TEMPLATE_DONE | undefined;
  applied?: number | undefined;
  error?: string | undefined;
}

/** /designs/<id>: a template's name and design in the editor, the codes to apply it to, and delete. */
export function DesignTemplatePage(props: DesignTemplatePageProps) {
  const { context, template } = props;
  const action = `/designs/${template.id}`;
  const following = props.codes.filter((entry) => entry.following);
  const others = props.codes.filter((entry) => !entry.following);
  return (
    <Layout context={context} title={`Template ${template.name}`}>
      <p>
        <a href="/designs">← Design templates</a>
      </p>
      <h1>Template “{template.name}”</h1>
      {props.done && (
        <Flash kind="ok">
          {props.done === 'applied' && props.applied !== undefined
            ? `Template applied: ${props.applied} ${props.applied === 1 ? 'code follows' : 'codes follow'} it now.`
            : TEMPLATE_DONE[props.done]}
        </Flash>
      )}
      {props.error && <Flash kind="error">{props.error}</Flash>}
      <p>
        {template.codeCount} {template.codeCount === 1 ? 'code follows' : 'codes follow'} this template.
      </p>
      <DesignEditor
        csrfToken={context.csrfToken}
        action={action}
        values={props.values}
        hasLogo={template.design.logo !== null}
        preview={props.preview}
        before={
          <>
            <label for="template-name">Template name</label>
            <input id="template-name" name="name" required maxLength={100} value={props.name} />
          </>
        }
        buttons={<button type="submit">Save template</button>}
      />
      <section aria-labelledby="apply-heading">
        <h2 id="apply-heading">Apply to codes</h2>
        <form method="get" action={action} role="search" class="inline-form">
          <label for="apply-search">Find codes by name</label>
          <input id="apply-search" name="q" type="search" value={props.query} />{' '}
          <button type="submit" class="secondary">
            Find
          </button>
        </form>
        {props.codes.length === 0 ? (
          <p>No codes{props.query ? ' match' : ' yet'}.</p>
        ) : (
          <>
            {following.length > 0 && (
              <p>
                Following it already: {following.map(({ code }) => code.name).join(', ')}.
              </p>
            )}
            {others.length > 0 && (
              <form method="post" action={`${action}/apply`}>
                <CsrfField token={context.csrfToken} />
                <fieldset>
                  <legend>
                    {props.query ? 'Matching' : 'Newest'} codes that do not follow it: checked codes will (their own designs are replaced)
                  </legend>
                  {others.map(({ code }) => (
                    <label for={`apply-${code.id}`}>
                      <input id={`apply-${code.id}`} type="checkbox" name="code" value={code.id} /> {code.name}
                    </label>
                  ))}
                </fieldset>
                <button type="submit">Apply template</button>
              </form>
            )}
          </>
        )}
      </section>
      <section aria-labelledby="delete-template-heading">
        <h2 id="delete-template-heading">Delete</h2>
        <p>
          <a href={`${action}/delete`}>Delete this template…</a>
        </p>
      </section>
    </Layout>
  );
}
