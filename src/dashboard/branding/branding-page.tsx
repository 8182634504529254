import type { Branding } from '../../accounts/branding.js';
import { DEFAULT_ACCENT } from '../../landing/page-style.js';
import { CsrfField, Flash, Layout } from '../shared/layout.js';
import type { PageContext } from '../shared/context.js';
import { uploadAction } from '../shared/csrf.js';
import { BrandPreview } from './brand-preview.js';

export interface BrandingPageProps {
  context: PageContext;
  accountName: string;
  branding: Branding;
  /** Where the saved logo is served (null: none). */
  logoUrl: string | null;
  /** The largest logo upload, in words ("2 MB"). */
  logoLimit: string;
  notice?: string | undefined;
  /** The colour typed, with why it was refused. */
  colorError?: { typed: string; message: string };
  logoError?: string;
}

/** /account/branding: the colour and logo the account's landing pages show, with a preview. */
export function BrandingPage(props: BrandingPageProps) {
  const { context, branding } = props;
  const saved = branding.color ?? DEFAULT_ACCENT;
  const typed = props.colorError?.typed ?? saved;
  return (
    <Layout context={context} title="Landing pages">
      <p>
        <a href="/account">Account</a>
      </p>
      <h1>Landing pages</h1>
      <p>
        Codes that open a page on the phone (contact card, menu, coupon, event, Wi-Fi and the others) show your colour and logo. A change shows
        on the next scan.
      </p>
      {props.notice && <Flash kind="ok">{props.notice}</Flash>}
      <div class="brand-layout">
        <div>
          <section aria-labelledby="colour-heading" class="account-section">
            <h2 id="colour-heading">Colour</h2>
            <p>Used for buttons and the bar at the top. Button text is white, or black when white would be hard to read on your colour.</p>
            {props.colorError && <Flash kind="error">{props.colorError.message}</Flash>}
            {/* htmx redraws the preview as the colour changes; the form itself is a plain POST. */}
            <form
              method="post"
              action="/account/branding/color"
              class="account-form"
              hx-get="/account/branding/sample"
              hx-trigger="input delay:150ms"
              hx-target="#brand-preview"
              hx-swap="outerHTML"
              hx-params="picker,hex,saved"
            >
              <CsrfField token={context.csrfToken} />
              <input type="hidden" name="saved" value={saved} />
              <label for="brand-picker">Colour</label>
              <input type="color" id="brand-picker" name="picker" value={props.colorError ? saved : typed} />
              <label for="brand-hex">Colour as hex</label>
              <input
                type="text"
                id="brand-hex"
                name="hex"
                value={typed}
                maxLength={7}
                autocomplete="off"
                spellcheck={false}
                aria-describedby="brand-hex-hint"
                aria-invalid={props.colorError ? 'true' : undefined}
              />
              <small id="brand-hex-hint" class="muted">
                For example #1f5fbf. When you change both fields, the hex value is used.
              </small>
              <button type="submit" class="fit-button">Save colour</button>
            </form>
            {branding.color && (
              <form method="post" action="/account/branding/color">
                <CsrfField token={context.csrfToken} />
                <input type="hidden" name="reset" value="1" />
                <button type="submit" class="secondary fit-button">Use the default colour</button>
              </form>
            )}
          </section>
          <section aria-labelledby="logo-heading" class="account-section">
            <h2 id="logo-heading">Logo</h2>
            <p>Shown at the top of every landing page, with your account name as its text for screen readers.</p>
            {props.logoError && <Flash kind="error">{props.logoError}</Flash>}
            {props.logoUrl ? (
              <>
                <img class="brand-logo" src={props.logoUrl} alt={`Current logo of ${props.accountName}`} width={160} height={48} />
                <form method="post" action="/account/branding/logo/remove">
                  <CsrfField token={context.csrfToken} />
                  <button type="submit" class="secondary fit-button">Remove logo</button>
                </form>
              </>
            ) : (
              <p id="no-logo">No logo yet.</p>
            )}
            <form method="post" enctype="multipart/form-data" action={uploadAction('/account/branding/logo', context.csrfToken)} class="account-form">
              <label for="brand-logo">{props.logoUrl ? 'New logo file' : 'Logo file'}</label>
              <input type="file" id="brand-logo" name="logo" accept="image/png,image/jpeg,image/webp,image/svg+xml" required aria-describedby="brand-logo-hint" />
              <small id="brand-logo-hint" class="muted">
                PNG, JPEG, WebP or SVG, at most {props.logoLimit}. A wide logo fits best; an SVG is turned into a PNG.
              </small>
              <button type="submit" class="fit-button">Upload logo</button>
            </form>
          </section>
        </div>
        <section aria-labelledby="preview-heading" class="account-section">
          <h2 id="preview-heading">Preview</h2>
          <BrandPreview accountName={props.accountName} color={branding.color} logoUrl={props.logoUrl} />
          <p>
            <a href="/account/branding/preview">Open a sample page</a> to see it as a phone does (saved colour and logo).
          </p>
        </section>
      </div>
    </Layout>
  );
}
