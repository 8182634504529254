import type { CodeLook, DesignTemplate } from '../../designs/index.js';
import type { DesignFormValues } from './design-form.js';
import { CsrfField, Flash, Layout } from '../shared/layout.js';
import type { PageContext } from '../shared/context.js';
import type { ShownCode } from '../codes/code-row.js';
import { DesignEditor } from './design-editor.js';

export const CODE_DESIGN_DONE = {
  saved: 'Design saved. The code’s images and downloads use it now.',
  template: 'Saved as a template; this code follows it.',
  following: 'This code now follows the template.',
  default: 'This code has the default look again.',
  logo: 'Logo saved with the design.',
} as const;

export interface CodeDesignPageProps {
  context: PageContext;
  code: ShownCode;
  look: CodeLook;
  templates: DesignTemplate[];
  values: DesignFormValues;
  preview: { svg: string | null; problems: string[] };
  templateName?: string;
  done?: keyof typeof CODE_DESIGN_DONE | undefined;
  /** A refused save: what to say above the form. */
  error?: string | undefined;
}

/** /codes/<id>/design: which template the code follows, or its own design in the editor. */
export function CodeDesignPage(props: CodeDesignPageProps) {
  const { code, context, look } = props;
  const action = `/codes/${code.id}/design`;
  return (
    <Layout context={context} title={`Design of ${code.name}`}>
      <p>
        <a href={`/codes/${code.id}`}>← {code.name}</a>
      </p>
      <h1>Design of “{code.name}”</h1>
      {props.done && <Flash kind="ok">{CODE_DESIGN_DONE[props.done]}</Flash>}
      {props.error && <Flash kind="error">{props.error}</Flash>}
      <section aria-labelledby="template-heading">
        <h2 id="template-heading">Template</h2>
        <p>
          {look.source === 'template' ? (
            <>
              This code follows the template “<a href={`/designs/${look.template.id}`}>{look.template.name}</a>”: changing the template
              changes this code. Saving a design below gives the code its own design instead.
            </>
          ) : look.source === 'own' ? (
            'This code has its own design. Choosing a template replaces it.'
          ) : (
            'This code has the default look: black on white, as codes created through the API.'
          )}{' '}
          <a href="/designs">Design templates</a>
        </p>
        <form method="post" action={`${action}/template`} class="inline-form">
          <CsrfField token={context.csrfToken} />
          <label for="use-template">Use template</label>
          <select id="use-template" name="template">
            {look.source === 'own' && (
              <option value="own" selected>
                Keep its own design
              </option>
            )}
            <option value="default" selected={look.source === 'default'}>
              None: the default look
            </option>
            {props.templates.map((template) => (
              <option value={template.id} selected={look.source === 'template' && look.template.id === template.id}>
                {template.name}
              </option>
            ))}
          </select>{' '}
          <button type="submit" class="secondary">
            Use template
          </button>
        </form>
      </section>
      <section aria-labelledby="design-heading">
        <h2 id="design-heading">Design</h2>
        <DesignEditor
          csrfToken={context.csrfToken}
          action={action}
          values={props.values}
          hasLogo={look.design?.logo != null}
          preview={props.preview}
          buttons={
            <>
              <button type="submit" name="intent" value="save">
                Save design
              </button>
              <fieldset>
                <legend>Save as template…</legend>
                <label for="template-name">Template name</label>
                <input id="template-name" name="templateName" value={props.templateName ?? ''} maxLength={100} />
                <button type="submit" name="intent" value="template" class="secondary">
                  Save as template
                </button>
              </fieldset>
            </>
          }
        />
      </section>
    </Layout>
  );
}
