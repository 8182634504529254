import type { ComponentChildren } from 'preact';
import { CsrfField, Layout } from '../shared/layout.js';
import type { PageContext } from '../shared/context.js';

/** The step before a destructive action: names what goes, and posts the action only when confirmed. */
export function ConfirmPage(props: { context: PageContext; title: string; action: string; button: string; children: ComponentChildren }) {
  return (
    <Layout context={props.context} title={props.title}>
      <article class="narrow">
        <h1>{props.title}</h1>
        {props.children}
        <form method="post" action={props.action}>
          <CsrfField token={props.context.csrfToken} />
          <div class="row-actions">
            <button type="submit" class="danger">
              {props.button}
            </button>
            <a href="/people">Cancel</a>
          </div>
        </form>
      </article>
    </Layout>
  );
}
