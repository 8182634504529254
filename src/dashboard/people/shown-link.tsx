import { Moment } from '../shared/moment.js';

/** A one-time link shown to the owner to hand over (no mail server, or the mail server refused the message). */
export interface ShownLink {
  kind: 'invitation' | 'reset';
  email: string;
  url: string;
  expiresAt: Date;
  /** The mail server was asked and did not take it. */
  mailFailed?: boolean;
}

export function ShownLinkBox(props: { link: ShownLink }) {
  const { link } = props;
  const what = link.kind === 'invitation' ? 'Invitation link' : 'Password reset link';
  return (
    <section class="secret-once shown-link" aria-labelledby="shown-link-heading">
      <h2 id="shown-link-heading">
        {what} for {link.email}
      </h2>
      {link.mailFailed && <p role="alert">The mail server did not take the email, so hand this link over yourself.</p>}
      <p>
        Give this link to {link.email} yourself, in a way only they can read. It works once, until <Moment at={link.expiresAt} />. It is shown only
        now: if it gets lost, make a new one.
      </p>
      <label for="shown-link">{what}</label>
      <input id="shown-link" class="mono" type="text" value={link.url} readonly />
      <button type="button" data-copy="#shown-link">
        Copy link
      </button>
    </section>
  );
}
