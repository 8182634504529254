import { ACCOUNT_NAME_MAX_LENGTH } from '../../../people/signup.js';
import { CsrfField, Flash, Layout } from '../../components/layout.js';
import type { PageContext } from '../../context.js';
import { type FieldErrors, FormField, NewPasswordFields } from './form-field.js';

/**
 * Self-service sign-up (only with SIGNUP=open): a new account, with this person as its owner. With a mail server
 * `sentTo` is the answer to every well-formed form, whether or not the email already has a user.
 */
export function SignupPage(props: {
  context: PageContext;
  planName: string;
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
            We sent a message to {props.sentTo}. Open the link in it to create your account; it works once, within a day. If
            that address already has an account, the message says how to sign in. Sending the form again within 5 minutes
            sends nothing new.
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
          <NewPasswordFields idPrefix="signup" labels={['Password', 'Confirm password']} errors={errors} />
          <button type="submit">Create account</button>
        </form>
        <p>
          Already have an account? <a href="/login">Sign in</a>
        </p>
      </article>
    </Layout>
  );
}

/** A confirmation link opened: what it creates, and the button that does it (a mail scanner's GET creates nothing). */
export function SignupConfirmPage(props: { context: PageContext; token: string; accountName: string; email: string; error?: string }) {
  return (
    <Layout context={props.context} title="Create your account">
      <article class="narrow">
        <h1>Create your account</h1>
        <p>
          The account <strong>{props.accountName}</strong>, with {props.email} as its owner, signing in with the password chosen
          when signing up.
        </p>
        {props.error && <Flash kind="error">{props.error}</Flash>}
        <form method="post" action={`/signup/confirm/${props.token}`}>
          <CsrfField token={props.context.csrfToken} />
          <button type="submit">Create the account</button>
        </form>
      </article>
    </Layout>
  );
}
