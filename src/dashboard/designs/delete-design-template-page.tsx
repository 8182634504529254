import type { DesignTemplate } from '../../designs/index.js';
import { CsrfField, Layout } from '../shared/layout.js';
import type { PageContext } from '../shared/context.js';

/** The confirmation before deleting a template, saying what happens to the codes that follow it. */
export function DeleteDesignTemplatePage(props: { context: PageContext; template: DesignTemplate }) {
  const { context, template } = props;
  const count = template.codeCount;
  return (
    <Layout context={context} title={`Delete ${template.name}`}>
      <article class="narrow">
        <h1>Delete the template “{template.name}”?</h1>
        <p>
          {count === 0
            ? 'No code follows it.'
            : `${count} ${count === 1 ? 'code follows' : 'codes follow'} it. ${count === 1 ? 'It goes' : 'They go'} back to the default look (black on white), and ${count === 1 ? 'its' : 'their'} images and downloads change with it. Codes printed already keep working: only the look changes.`}
        </p>
        <form method="post" action={`/designs/${template.id}/delete`}>
          <CsrfField token={context.csrfToken} />
          <div class="row-actions">
            <button type="submit" class="danger">
              Delete template
            </button>
            <a href={`/designs/${template.id}`}>Keep it</a>
          </div>
        </form>
      </article>
    </Layout>
  );
}
