import { CsrfField, Layout } from '../shared/layout.js';
import type { PageContext } from '../shared/context.js';
import { type FieldErrors, NewPasswordFields } from '../shared/form-field.js';

/** A reset link opened: the new password, which also signs the person out everywhere else. */
export function PasswordResetPage(props: { context: PageContext; token: string; errors?: FieldErrors }) {
  return (
    <Layout context={props.context} title="Choose a new password">
      <article class="narrow">
        <h1>Choose a new password</h1>
        <p>Setting it signs you out on every device, then signs you in here.</p>
        <form method="post" action={`/password-reset/${props.token}`}>
          <CsrfField token={props.context.csrfToken} />
          <NewPasswordFields idPrefix="reset" labels={['New password', 'Confirm new password']} errors={props.errors ?? {}} />
          <button type="submit">Set new password</button>
        </form>
      </article>
    </Layout>
  );
}
