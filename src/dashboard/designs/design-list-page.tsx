import type { DesignTemplate } from '../../designs/index.js';
import { CsrfField, Flash, Layout } from '../shared/layout.js';
import type { PageContext } from '../shared/context.js';
import { TableRegion } from '../shared/table-region.js';

export const DESIGN_LIST_DONE = { deleted: 'Template deleted. The codes that followed it have the default look now.' } as const;

/** /designs: the account's saved designs, each with a small preview, and a form to start a new one. */
export function DesignListPage(props: {
  context: PageContext;
  templates: DesignTemplate[];
  done?: keyof typeof DESIGN_LIST_DONE | undefined;
  error?: string | undefined;
  name?: string;
}) {
  const { context, templates } = props;
  return (
    <Layout context={context} title="Design templates">
      <h1>Design templates</h1>
      {props.done && <Flash kind="ok">{DESIGN_LIST_DONE[props.done]}</Flash>}
      {props.error && <Flash kind="error">{props.error}</Flash>}
      <p>
        A template is a saved design. Codes that follow a template change when it changes; a code can also have its own design (on the
        code’s page, “Change the design…”).
      </p>
      {templates.length === 0 ? (
        <p>No templates yet.</p>
      ) : (
        <TableRegion label="Design templates">
          <table class="design-templates">
            <thead>
              <tr>
                <th scope="col">Preview</th>
                <th scope="col">Name</th>
                <th scope="col">Codes following it</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {templates.map((template) => (
                <tr>
                  <td>
                    <img class="design-thumbnail" src={`/designs/${template.id}/preview.svg?v=${template.updatedAt.getTime()}`} alt="" width={64} />
                  </td>
                  <td>
                    <a href={`/designs/${template.id}`}>{template.name}</a>
                  </td>
                  <td>{template.codeCount}</td>
                  <td>
                    <a href={`/designs/${template.id}`}>Edit</a> · <a href={`/designs/${template.id}/delete`}>Delete…</a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
      <section aria-labelledby="new-template-heading">
        <h2 id="new-template-heading">New template</h2>
        <form method="post" action="/designs" class="narrow-form">
          <CsrfField token={context.csrfToken} />
          <label for="new-template-name">Template name</label>
          <input id="new-template-name" name="name" required maxLength={100} value={props.name ?? ''} />
          <button type="submit">Create template</button>
        </form>
      </section>
    </Layout>
  );
}
