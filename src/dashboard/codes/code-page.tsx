import type { DestinationChange } from '../../codes/index.js';
import { CsrfField, Flash, Layout } from '../shared/layout.js';
import type { PageContext } from '../shared/context.js';
import type { CodeFormErrors, CodeFormValues } from './code-form.js';
import { CodeDownloads } from './code-downloads.js';
import { CodeFields } from './code-fields.js';
import { numberFormat, type ShownCode } from './code-row.js';
import { DestinationHistory } from './destination-history.js';
import { When } from './when.js';
import type { Namesake } from '../../codes/namesakes.js';
import { NamesakesNote } from './namesakes-note.js';
import { RoutingSummary } from './routing-summary.js';
import { kindOf, isCodeTypeName } from '../../codes/types/index.js';
import { shortUrlDoes, TYPE_FORMS, typeLabel } from './type-forms/index.js';
import { TypedCodeForm, type TypedFormState } from './typed-code-form.js';

/** What the last action on this page did (after its redirect back here). */
export const DONE_MESSAGES = {
  created: 'Code created. Download its QR code, or copy the short URL.',
  saved: 'Changes saved.',
  paused: 'Paused. A scan now shows a page saying the code is paused, and is not counted.',
  resumed: 'Resumed. Scans lead to the destination again.',
} as const;

export interface CodePageProps {
  context: PageContext;
  code: ShownCode;
  history: DestinationChange[];
  historyLimit: number;
  zone: string;
  done?: keyof typeof DONE_MESSAGES | undefined;
  /** A URL code's edit form as sent, when it was refused. */
  edit?: { values: CodeFormValues; errors: CodeFormErrors } | undefined;
  /** Another type's edit form: its stored content, or what was sent when refused. */
  typedEdit?: TypedFormState | undefined;
  /** The edit was refused (the form shows what was sent). */
  refused?: boolean;
  /** A Wi-Fi code whose image holds the network itself (src/codes/image-text.ts): static, its scans uncounted. */
  directWifi?: boolean;
  /** Other codes of the account with the same name (src/codes/namesakes.ts). */
  namesakes?: { shown: Namesake[]; total: number } | undefined;
}

export function CodePage(props: CodePageProps) {
  const { code, context } = props;
  return (
    <Layout context={context} title={code.name}>
      <p>
        <a href="/codes">← Codes</a>
      </p>
      <h1>{code.name}</h1>
      {props.done && <Flash kind="ok">{DONE_MESSAGES[props.done]}</Flash>}
      {props.refused && <Flash kind="error">Nothing was saved: see the messages below.</Flash>}
      {props.namesakes && <NamesakesNote name={code.name} namesakes={props.namesakes} />}
      <div class="grid code-overview">
        <CodeDownloads code={code} directWifi={props.directWifi ?? false} />
        <CodeFacts code={code} context={context} zone={props.zone} directWifi={props.directWifi ?? false} />
      </div>
      {/* The analytics panel belongs to the analytics routes: a link without JavaScript, loaded in place with it. */}
      <section id="code-analytics" hx-get={`/codes/${code.id}/analytics?fragment=1`} hx-trigger="load" hx-swap="outerHTML"><h2>Analytics</h2><p><a href={`/codes/${code.id}/analytics`}>Scans over time, devices and recent scans</a></p></section>
      <section aria-labelledby="edit-heading">
        <h2 id="edit-heading">Edit</h2>
        {props.typedEdit && isCodeTypeName(code.type) ? (
          <TypedCodeForm context={context} form={TYPE_FORMS[code.type]} action={`/codes/${code.id}`} idPrefix="edit-code" state={props.typedEdit} submitLabel="Save changes" />
        ) : (
          <form method="post" action={`/codes/${code.id}`} class="narrow-form">
            <CsrfField token={context.csrfToken} />
            <CodeFields idPrefix="edit-code" values={props.edit?.values ?? { name: code.name, url: code.destinationUrl }} errors={props.edit?.errors} />
            <button type="submit">Save changes</button>
          </form>
        )}
      </section>
      <RoutingSummary code={code} zone={props.zone} />
      <DestinationHistory changes={props.history} zone={props.zone} limit={props.historyLimit} />
      <section aria-labelledby="delete-heading">
        <h2 id="delete-heading">Delete</h2>
        <p>
          Deleting stops every printed copy from working, for good. To stop a campaign for now, pause the code instead.{' '}
          <a href={`/codes/${code.id}/delete`}>Delete this code…</a>
        </p>
      </section>
    </Layout>
  );
}

/** A direct Wi-Fi code's image holds the network, not the short URL: said where the page says what a scan does. */
const DIRECT_WIFI_SCAN =
  'Joins the Wi-Fi network straight from the camera: the QR image holds the network name and password, not the short URL. ' +
  'The image is static: editing this code changes the page at the short URL, not printed copies; print it again after a change.';

const DIRECT_WIFI_COUNT = 'Scans of the printed Wi-Fi code are not counted (a phone joins the network without contacting this service); only visits to the short URL are.';

function CodeFacts(props: { code: ShownCode; context: PageContext; zone: string; directWifi: boolean }) {
  const { code, context } = props;
  const action = code.active ? 'pause' : 'resume';
  return (
    <article aria-labelledby="details-heading">
      <h2 id="details-heading">Details</h2>
      <dl class="code-facts">
        <dt>Short URL</dt>
        <dd>
          <span id="short-url" class="mono">
            {code.shortUrl}
          </span>{' '}
          <button type="button" class="secondary outline small-button" data-copy="#short-url">
            Copy short URL
          </button>
        </dd>
        <dt>Type</dt>
        <dd class="code-type">{typeLabel(code.type)}</dd>
        <dt>What a scan does</dt>
        <dd>
          {props.directWifi ? (
            <span class="static-wifi">{DIRECT_WIFI_SCAN}</span>
          ) : isCodeTypeName(code.type) ? (
            shortUrlDoes(code.type, kindOf(code.type))
          ) : (
            'Redirects to the destination below.'
          )}
        </dd>
        <dt>{kindOf(code.type) === 'page' ? 'Page' : 'Destination'}</dt>
        <dd class="destination">
          <a href={code.destinationUrl} rel="noopener noreferrer">
            {code.destinationUrl}
          </a>
        </dd>
        <dt>Scans by people</dt>
        <dd class="total-scans">{numberFormat.format(code.scanCount)}</dd>
        {props.directWifi && <dd class="muted">{DIRECT_WIFI_COUNT}</dd>}
        <dt>State</dt>
        <dd>
          <form method="post" action={`/codes/${code.id}/${action}`} class="inline-form">
            <CsrfField token={context.csrfToken} />
            {code.active ? 'Active' : <span class="state-paused">Paused</span>}{' '}
            <button type="submit" class="secondary small-button">
              {code.active ? 'Pause' : 'Resume'}
            </button>
          </form>
        </dd>
        <dt>Created</dt>
        <dd>
          <When at={code.createdAt} zone={props.zone} />
        </dd>
      </dl>
    </article>
  );
}
