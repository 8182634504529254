import type { ListedApiKey } from '../../accounts/api-keys.js';
import { CsrfField, Layout } from '../shared/layout.js';
import type { PageContext } from '../shared/context.js';
import { Moment } from '../shared/moment.js';
import { keyHint } from './format.js';

/** The confirmation before a key is revoked, naming the key so the owner revokes the one they mean. */
export function RevokeKeyPage(props: { context: PageContext; apiKey: ListedApiKey }) {
  const { apiKey } = props;
  const named = apiKey.name ? `“${apiKey.name}” (${keyHint(apiKey)})` : keyHint(apiKey);
  return (
    <Layout context={props.context} title="Revoke API key">
      <article class="narrow">
        <h1>Revoke the API key {named}?</h1>
        <p>
          Created <Moment at={apiKey.createdAt} /> by {apiKey.createdBy?.email ?? 'the operator or a removed person'}; last used{' '}
          <Moment at={apiKey.lastUsedAt} empty="never" />.
        </p>
        <p>
          Programs using this key get <code>401 invalid_api_key</code> on their next call. A revoked key cannot be brought back.
        </p>
        <form method="post" action={`/api-and-webhooks/keys/${apiKey.id}/revoke`}>
          <CsrfField token={props.context.csrfToken} />
          <div class="row-actions">
            <button type="submit" class="danger">
              Revoke
            </button>
            <a href="/api-and-webhooks#api-keys">Cancel</a>
          </div>
        </form>
      </article>
    </Layout>
  );
}
