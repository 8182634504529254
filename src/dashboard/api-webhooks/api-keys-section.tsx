import type { CreatedApiKey, ListedApiKey } from '../../accounts/api-keys.js';
import { MAX_API_KEY_NAME_LENGTH } from '../../accounts/api-key-name.js';
import { CsrfField } from '../shared/layout.js';
import { Moment } from '../shared/moment.js';
import { keyHint } from './format.js';
import { TableRegion } from '../shared/table-region.js';

export interface ApiKeysSectionProps {
  csrfToken: string;
  /** False on plans without the API: the section says why and offers no way to create a key. */
  apiAvailable: boolean;
  plan: string;
  keys: ListedApiKey[];
  /** Only in the answer to the create request: the one time the key is shown. */
  newKey?: CreatedApiKey;
  /** The name typed, with the reason it was refused. */
  nameError?: { value: string; message: string };
}

export function ApiKeysSection(props: ApiKeysSectionProps) {
  return (
    <section id="api-keys" aria-labelledby="api-keys-heading">
      <h2 id="api-keys-heading">API keys</h2>
      {props.apiAvailable ? (
        <CreateKeyForm csrfToken={props.csrfToken} nameError={props.nameError} />
      ) : (
        <p class="flash flash-error">
          The API is part of the Business plan (39 EUR per month). This account is on the {props.plan} plan, so it cannot create API keys,
          and keys made earlier are refused by the API.
        </p>
      )}
      {props.newKey && <NewKey apiKey={props.newKey} />}
      {props.keys.length === 0 ? <p class="muted">No API keys yet.</p> : <KeysTable keys={props.keys} />}
    </section>
  );
}

function CreateKeyForm(props: { csrfToken: string; nameError: ApiKeysSectionProps['nameError'] }) {
  const error = props.nameError;
  return (
    <form method="post" action="/api-and-webhooks/keys" class="inline-fields">
      <CsrfField token={props.csrfToken} />
      <label for="api-key-name">
        Name <span class="muted">(optional, to tell keys apart)</span>
      </label>
      <input
        id="api-key-name"
        name="name"
        type="text"
        maxLength={MAX_API_KEY_NAME_LENGTH}
        value={error?.value ?? ''}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={error ? 'api-key-name-error' : undefined}
      />
      {error && (
        <small class="field-error" id="api-key-name-error">
          {error.message}
        </small>
      )}
      <button type="submit">Create API key</button>
    </form>
  );
}

function NewKey(props: { apiKey: CreatedApiKey }) {
  return (
    <article class="secret-once" aria-labelledby="new-key-heading">
      <h3 id="new-key-heading">Copy your new key now</h3>
      <p role="status">
        <strong>It is shown only this once and cannot be shown again.</strong> Only a hash of it is stored. If you lose it,
        revoke it and create a new one.
      </p>
      <label for="new-api-key">New API key</label>
      <div class="row-actions">
        <input id="new-api-key" class="mono secret-value" type="text" readonly value={props.apiKey.key} />
        <button type="button" data-copy="#new-api-key">
          Copy
        </button>
      </div>
    </article>
  );
}

function KeysTable(props: { keys: ListedApiKey[] }) {
  return (
    <TableRegion label="API keys table">
      <table>
        <thead>
          <tr>
            <th scope="col">Name and key</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col">State</th>
          </tr>
        </thead>
        <tbody>
          {props.keys.map((key) => (
            <tr>
              <th scope="row">
                {key.name ?? <span class="muted">Unnamed</span>}
                <br />
                <span class="mono nowrap">{keyHint(key)}</span>
              </th>
              <td>
                <Moment at={key.createdAt} />
                <br />
                <small class="muted">by {key.createdBy?.email ?? 'the operator or a removed person'}</small>
              </td>
              <td>
                <Moment at={key.lastUsedAt} empty="Never" />
              </td>
              <td>
                {key.revokedAt ? (
                  <>
                    Revoked
                    <br />
                    <small class="muted">
                      <Moment at={key.revokedAt} />
                    </small>
                  </>
                ) : (
                  <>
                    Active
                    {/* A GET form: the button opens the confirmation page that names the key, with JavaScript or without. */}
                    <form method="get" action={`/api-and-webhooks/keys/${key.id}/revoke`} class="key-revoke">
                      <button type="submit" class="secondary outline">
                        Revoke<span class="visually-hidden"> key {keyHint(key)}</span>
                      </button>
                    </form>
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}
