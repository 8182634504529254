import { ACCOUNT_NAME_MAX_LENGTH } from '../../../people/signup.js';
import { CsrfField, Flash, Layout } from '../../components/layout.js';
import type { PageContext } from '../../context.js';
import { type FieldErrors, FormField, NewPasswordFields } from './form-field.js';

/** Self-service sign-up (only with SIGNUP=open): a new account, with this person as its owner. */
export function SignupPage(props: { context: PageContext; planName: string; values?: { accountName: string; email: string }; errors?: FieldErrors }) {
  const errors = props.errors ?? {};
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
