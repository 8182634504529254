import { CsrfField, Layout } from '../shared/layout.js';
import type { PageContext } from '../shared/context.js';
import { numberFormat, type ShownCode } from './code-row.js';

/** The confirmation before a delete, naming the code; works without JavaScript (a page with one form). */
export function DeleteCodePage(props: { context: PageContext; code: ShownCode }) {
  const { code, context } = props;
  return (
    <Layout context={context} title={`Delete ${code.name}`}>
      <article class="narrow">
        <h1>Delete “{code.name}”?</h1>
        <p>
          Its short URL <span class="mono">{code.shortUrl}</span> will stop working: every printed copy of its QR code leads
          nowhere from then on, and the short URL is never given to another code. It has been scanned{' '}
          {numberFormat.format(code.scanCount)} {code.scanCount === 1 ? 'time' : 'times'}.
        </p>
        <p>Files it shows (a PDF, images, audio, video, a photo) are deleted with it, unless another of your codes shows them.</p>
        <p>To stop a campaign for now and keep the printed copies, pause the code instead.</p>
        <form method="post" action={`/codes/${code.id}/delete`}>
          <CsrfField token={context.csrfToken} />
          <div class="row-actions">
            <button type="submit" class="danger">
              Delete code
            </button>
            <a href={`/codes/${code.id}`}>Keep it</a>
          </div>
        </form>
      </article>
    </Layout>
  );
}
