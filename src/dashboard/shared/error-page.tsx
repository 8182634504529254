import type { PageContext } from './context.js';
import { Layout } from './layout.js';

/** A whole page for a status the person should understand (403, 404, 503, 500). */
export function ErrorPage(props: { context: PageContext; title: string; message: string }) {
  return (
    <Layout context={props.context} title={props.title}>
      <h1>{props.title}</h1>
      <p>{props.message}</p>
      <p>
        <a href="/">Back to the dashboard</a>
      </p>
    </Layout>
  );
}
