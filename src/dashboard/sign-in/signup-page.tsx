import { ACCOUNT_NAME_MAX_LENGTH } from '../../accounts/account-name.js';
import { CsrfField, Flash, Layout } from '../shared/layout.js';
import type { PageContext } from '../shared/context.js';
import { type FieldErrors, FormField, NewPasswordFields } from '../shared/form-field.js';

/**
 * Self-service sign-up (only with SIGNUP=open): a new account, with this person as its owner. With a mail server
 * (`confirmByMail`) the form has no password (it is chosen on the mailed link's page) and `sentTo` is the answer to
 * every well-formed form, whether or not the email already has a user.
 */
export function SignupPage(props: {
  context: PageContext;
  planName: string;
  confirmByMail?: boolean;
  values?: { accountName: string; email: string };
  errors?: FieldErrors;
  sentTo?: string;
}) {
  const errors = props.errors ?? {};
  if (props.sentTo !== undefined) {
    return (
      <Layout context={props.context} title="Check your email">
        <article class="narrow">
          <h1>Check your email</h1>
          <Flash kind="ok">
            We sent a message to {props.sentTo}. Open the link in it to choose your password and create your account; it works
            once, within a day. If that address already has an account, the message says how to sign in. Sending the form
            again within 5 minutes sends nothing new, nor past 3 messages to one address in a day.
          </Flash>
          <p>
            <a href="/login">Back to sign in</a>
          </p>
        </article>
      </Layout>
    );
  }
  return (
    <Layout context={props.context} title="Create an account">
      <article class="narrow">
        <h1>Create an account</h1>
        <p>Your account starts on the {props.planName} plan, with you as its owner.</p>
        {errors.form && <Flash kind="error">{errors.form}</Flash>}
        <form method="post" action="/signup">
          <CsrfField token={props.context.csrfToken} />
          <FormField
            id="signup-account-name"
            label="Account name"
            name="accountName"
            autocomplete="organization"
            maxLength={ACCOUNT_NAME_MAX_LENGTH}
            value={props.values?.accountName}
            error={errors.accountName}
          />
          <FormField id="signup-email" label="Email" name="email" type="email" autocomplete="username" value={props.values?.email} error={errors.email} />
          {props.confirmByMail ? (
            <p>We will email you a link; you choose your password on the page it opens.</p>
          ) : (
            <NewPasswordFields idPrefix="signup" labels={['Password', 'Confirm password']} errors={errors} />
          )}
          <button type="submit">{props.confirmByMail ? 'Email me the link' : 'Create account'}</button>
        </form>
        <p>
          Already have an account? <a href="/login">Sign in</a>
        </p>
      </article>
    </Layout>
  );
}

/**
 * A confirmation link opened: the account to create and its password, chosen here by whoever holds the link (a mail
 * scanner's GET creates nothing). The account name is the one the sign-up form proposed, in a field: whoever filled
 * the form may not be the mailbox's owner, so nothing they chose is taken without being shown and open to change.
 */
export function SignupConfirmPage(props: {
  context: PageContext;
  token: string;
  accountName: string;
  email: string;
  errors?: FieldErrors;
  error?: string;
}) {
  const errors = props.errors ?? {};
  return (
    <Layout context={props.context} title="Create your account">
      <article class="narrow">
        <h1>Create your account</h1>
        <p>
          A new account with {props.email} as its owner. Check its name (it is what was typed on the sign-up form) and choose
          your password.
        </p>
        {props.error && <Flash kind="error">{props.error}</Flash>}
        <form method="post" action={`/signup/confirm/${props.token}`}>
          <CsrfField token={props.context.csrfToken} />
          <FormField
            id="signup-confirm-account-name"
            label="Account name"
            name="accountName"
            autocomplete="organization"
            maxLength={ACCOUNT_NAME_MAX_LENGTH}
            value={props.accountName}
            error={errors.accountName}
          />
          <label for="signup-confirm-email">Email</label>
          <input id="signup-confirm-email" type="email" value={props.email} readonly autocomplete="username" />
          <NewPasswordFields idPrefix="signup-confirm" labels={['Password', 'Confirm password']} errors={errors} />
          <button type="submit">Create the account</button>
        </form>
      </article>
    </Layout>
  );
}
