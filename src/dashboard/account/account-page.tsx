import type { Account } from '../../accounts/account-service.js';
import { CsrfField, Flash, Layout } from '../shared/layout.js';
import type { PageContext } from '../shared/context.js';
import { type FieldErrors, FormField, NewPasswordFields } from '../shared/form-field.js';
import { PlanUsage } from './plan-usage.js';

export interface AccountPageProps {
  context: PageContext;
  account: Account;
  notice?: string | undefined;
  errors?: FieldErrors;
  /** Above the password form, e.g. too many wrong current passwords. */
  passwordError?: string;
}

/** The signed-in person: who they are here, the plan and its usage, their password and their sessions. */
export function AccountPage(props: AccountPageProps) {
  const user = props.context.session!.user;
  const errors = props.errors ?? {};
  return (
    <Layout context={props.context} title="Account">
      <h1>Account</h1>
      {props.notice && <Flash kind="ok">{props.notice}</Flash>}
      <table>
        <tbody>
          <tr>
            <th scope="row">Account</th>
            <td>{props.account.name}</td>
          </tr>
          <tr>
            <th scope="row">Email</th>
            <td>{user.email}</td>
          </tr>
          <tr>
            <th scope="row">Role</th>
            <td>{user.role === 'owner' ? 'Owner' : 'Member'}</td>
          </tr>
        </tbody>
      </table>
      <PlanUsage account={props.account} isOwner={user.role === 'owner'} />
      {user.role === 'owner' && <p><a href="/account/branding">Landing pages: colour and logo</a></p>}
      <section aria-labelledby="password-heading" class="account-section">
        <h2 id="password-heading">Change password</h2>
        <p>Changing it signs you out on every other device; you stay signed in here.</p>
        {props.passwordError && <Flash kind="error">{props.passwordError}</Flash>}
        <form method="post" action="/account/password" class="account-form">
          <CsrfField token={props.context.csrfToken} />
          <input type="text" name="username" value={user.email} autocomplete="username" hidden readonly />
          <FormField id="current-password" label="Current password" name="currentPassword" type="password" autocomplete="current-password" error={errors.currentPassword} />
          <NewPasswordFields idPrefix="new" labels={['New password', 'Confirm new password']} errors={errors} />
          <button type="submit">Change password</button>
        </form>
      </section>
      <section aria-labelledby="everywhere-heading" class="account-section">
        <h2 id="everywhere-heading">Sign out everywhere</h2>
        <p>Ends every session of yours, this one too: on a lost phone, a shared computer, or a browser you no longer trust.</p>
        <form method="post" action="/account/sign-out-everywhere">
          <CsrfField token={props.context.csrfToken} />
          <button type="submit" class="secondary fit-button">Sign out everywhere</button>
        </form>
      </section>
      {user.role === 'owner' && (
        <section aria-labelledby="data-heading" class="account-section">
          <h2 id="data-heading">Your data</h2>
          <p>
            Everything the account holds, as one ZIP: codes with their content and designs, every scan, files, webhook deliveries, API keys
            and people (never passwords or keys).
          </p>
          <p>
            <a href="/account/data.zip" download role="button" class="secondary fit-button">
              Download all data
            </a>
          </p>
          <p>Deleting the account erases all of it for good, and every person of it loses access. Its short URLs stop working.</p>
          <p>
            <a href="/account/delete" role="button" class="danger fit-button">
              Delete account
            </a>
          </p>
        </section>
      )}
    </Layout>
  );
}
