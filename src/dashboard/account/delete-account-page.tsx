import { CsrfField, Layout } from '../shared/layout.js';
import type { PageContext } from '../shared/context.js';
import { FormField } from '../shared/form-field.js';

/** The step before erasing an account: says what goes, and asks for the account's name, typed. */
export function DeleteAccountPage(props: { context: PageContext; accountName: string; typed?: string; error?: string }) {
  return (
    <Layout context={props.context} title="Delete account">
      <article class="narrow">
        <h1>Delete account {props.accountName}?</h1>
        <p>
          Everything of <strong>{props.accountName}</strong> is erased at once and for good: its codes and their scans, files, designs,
          imports, API keys, webhook and its deliveries, and every person of the account, you too. This cannot be undone.
        </p>
        <p>
          Every short URL of its codes stops working (printed copies lead to a “not found” page) and is never given to anyone else. Its API
          keys stop working. <a href="/account/data.zip" download>Download all data</a> first if you want to keep a copy.
        </p>
        <form method="post" action="/account/delete">
          <CsrfField token={props.context.csrfToken} />
          <FormField
            id="confirm-account-name"
            label="Type the account's name to confirm"
            name="accountName"
            value={props.typed}
            error={props.error}
            hint={`The account is called “${props.accountName}”.`}
            autocomplete="off"
          />
          <div class="row-actions">
            <button type="submit" class="danger">
              Delete account
            </button>
            <a href="/account">Cancel</a>
          </div>
        </form>
      </article>
    </Layout>
  );
}

/** After the erasure: signed out, nothing of the account left. */
export function AccountErasedPage(props: { context: PageContext; accountName: string }) {
  return (
    <Layout context={props.context} title="Account deleted">
      <article class="narrow">
        <h1>Account deleted</h1>
        <p>
          <strong>{props.accountName}</strong> and everything it held are erased, and you are signed out.
        </p>
        <p>
          <a href="/login">Sign in</a> with another account.
        </p>
      </article>
    </Layout>
  );
}
