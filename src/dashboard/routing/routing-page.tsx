import type { QrCode } from '../../codes/index.js';
import { DEVICE_CLASSES, MAX_RULES } from '../../routing/index.js';
import { TimeZoneList } from '../codes/type-forms/text-input.js';
import type { PageContext } from '../shared/context.js';
import { CsrfField, Flash, Layout } from '../shared/layout.js';
import { COUNTRY_OPTIONS, DEVICE_LABELS } from './choices.js';
import { Field } from './fields.js';
import { COMMON_OS } from './rule-form.js';
import { summariseConditions } from './rule-summary.js';
import type { ScheduleErrors, ScheduleValues, SplitErrors, SplitRow } from './routing-forms.js';
import { TryItSection } from './try-it-section.js';
import type { TryItResult, TryItValues } from './try-it.js';

/** What the last action did (after its redirect back here). */
export const ROUTING_DONE = {
  'rule-added': 'Rule added.',
  'rule-saved': 'Rule saved.',
  'rule-removed': 'Rule removed.',
  'rule-moved': 'Order saved.',
  'rule-gone': 'Nothing changed: that rule had been removed meanwhile (in another tab, or by someone else).',
  'rule-conflict': 'Nothing changed: the rules were changed meanwhile (in another tab, or by someone else). Here they are now.',
  'split-saved': 'Split saved.',
  'split-removed': 'Split removed: scans that match no rule go to the destination.',
  'schedule-saved': 'Schedule saved.',
  'zone-saved': 'Time zone saved.',
} as const;

export interface RoutingPageProps {
  context: PageContext;
  code: QrCode;
  /** The zone dates and times are shown in: the routing's, or (none yet) the viewer's. */
  zone: string;
  done?: keyof typeof ROUTING_DONE | undefined;
  split: { rows: SplitRow[]; errors: SplitErrors };
  schedule: { values: ScheduleValues; errors: ScheduleErrors };
  zoneForm: { value: string; error?: string | undefined };
  tryIt: { values: TryItValues; result?: TryItResult | undefined };
  /** A form was refused (its fields say why). */
  refused?: boolean;
}

/** /codes/:id/routing — a code's rules, split, schedule, time zone, and "Try it". */
export function RoutingPage(props: RoutingPageProps) {
  const { code, context } = props;
  return (
    <Layout context={context} title={`Routing of ${code.name}`}>
      <p>
        <a href={`/codes/${code.id}`}>← {code.name}</a>
      </p>
      <h1>Routing of {code.name}</h1>
      {props.done && !props.done.startsWith('rule-') && <Flash kind="ok">{ROUTING_DONE[props.done]}</Flash>}
      {props.refused && <Flash kind="error">Nothing was saved: see the messages below.</Flash>}
      <p>
        Each scan is answered by the first rule whose conditions all hold; when none does, by the split (if there is one), else by the code's{' '}
        {code.type === 'URL' ? 'destination' : 'page'}. <a href={`/codes/${code.id}/analytics`}>Scans per rule and variant</a> are in the analytics.
      </p>
      <nav aria-label="On this page" class="routing-contents">
        <a href="#routing-rules-heading">Rules</a> · <a href="#routing-split-heading">Split</a> · <a href="#routing-schedule-heading">Schedule</a> ·{' '}
        <a href="#routing-zone-heading">Time zone</a> · <a href="#try-it-heading">Try it</a>
      </nav>
      <RuleList code={code} zone={props.zone} csrfToken={context.csrfToken} done={props.done?.startsWith('rule-') ? ROUTING_DONE[props.done] : undefined} />
      <SplitSection code={code} csrfToken={context.csrfToken} rows={props.split.rows} errors={props.split.errors} />
      <ScheduleSection code={code} csrfToken={context.csrfToken} zone={props.zone} values={props.schedule.values} errors={props.schedule.errors} />
      <ZoneSection code={code} csrfToken={context.csrfToken} value={props.zoneForm.value} error={props.zoneForm.error} />
      <TryItSection code={code} zone={props.zone} values={props.tryIt.values} result={props.tryIt.result} osNames={COMMON_OS} devices={DEVICE_CLASSES.map((d) => ({ value: d, label: DEVICE_LABELS[d] }))} countries={COUNTRY_OPTIONS} />
    </Layout>
  );
}

/** htmx: an action swaps only the rule list (taken from the page it redirects to); without script, the whole page. */
const RULES_SWAP = { 'hx-target': '#routing-rules', 'hx-select': '#routing-rules', 'hx-swap': 'outerHTML' };

/** `done`: what the last rule action did, said inside the list so an htmx swap of the list announces it too. */
function RuleList(props: { code: QrCode; zone: string; csrfToken: string; done?: string | undefined }) {
  const { code } = props;
  const rules = code.routing?.rules ?? [];
  const base = `/codes/${code.id}/routing`;
  return (
    <section id="routing-rules" aria-labelledby="routing-rules-heading">
      <h2 id="routing-rules-heading">Rules</h2>
      {props.done && <Flash kind={props.done.startsWith('Nothing changed') ? 'error' : 'ok'}>{props.done}</Flash>}
      {rules.length === 0 ? (
        <p>No rules yet: every scan goes to the {code.routing?.split ? 'split' : code.type === 'URL' ? 'destination' : 'page'}.</p>
      ) : (
        <ol class="routing-rule-list">
          {rules.map((rule, index) => {
            const label = rule.name ?? `Rule ${index + 1}`;
            return (
              <li class="routing-rule">
                <h3>{label}</h3>
                <p class="routing-rule-when">{summariseConditions(rule.when, props.zone)}</p>
                <p class="routing-rule-to">
                  → <a href={rule.destinationUrl} rel="noopener noreferrer">{rule.destinationUrl}</a>
                </p>
                <div class="routing-rule-actions">
                  <a href={`${base}/rules/${rule.id}`} aria-label={`Edit: ${label}`}>
                    Edit
                  </a>
                  {index > 0 && <MoveRuleButton action={`${base}/rules/${rule.id}/move`} csrfToken={props.csrfToken} direction="up" label={label} />}
                  {index < rules.length - 1 && (
                    <MoveRuleButton action={`${base}/rules/${rule.id}/move`} csrfToken={props.csrfToken} direction="down" label={label} />
                  )}
                  <form method="post" action={`${base}/rules/${rule.id}/remove`} class="inline-form" hx-post={`${base}/rules/${rule.id}/remove`} {...RULES_SWAP}>
                    <CsrfField token={props.csrfToken} />
                    <button type="submit" class="secondary outline small-button" aria-label={`Remove: ${label}`}>
                      Remove
                    </button>
                  </form>
                </div>
              </li>
            );
          })}
        </ol>
      )}
      {rules.length < MAX_RULES ? (
        <p>
          <a href={`${base}/rules/new`}>Add a rule…</a>
        </p>
      ) : (
        <p class="muted">A code has at most {MAX_RULES} rules: remove one to add another.</p>
      )}
    </section>
  );
}

function SplitSection(props: { code: QrCode; csrfToken: string; rows: SplitRow[]; errors: SplitErrors }) {
  const { code, errors } = props;
  const base = `/codes/${code.id}/routing`;
  if (code.type !== 'URL') {
    return (
      <section aria-labelledby="routing-split-heading">
        <h2 id="routing-split-heading">Split</h2>
        <p>A split (an A/B test of destinations) is for URL codes only: this code shows its page to every scan no rule answers.</p>
      </section>
    );
  }
  return (
    <section aria-labelledby="routing-split-heading">
      <h2 id="routing-split-heading">Split</h2>
      <p>
        Scans that match no rule are shared among these destinations by weight (each weight is a share in percent; they add up to 100). A visitor keeps
        the same destination for the day. With a split, the code's destination is the first variant's.
      </p>
      <form method="post" action={`${base}/split`} class="narrow-form">
        <CsrfField token={props.csrfToken} />
        {errors.split && (
          <p class="field-error" id="split-error" role="alert">
            {errors.split}
          </p>
        )}
        {props.rows.map((row, index) => (
          <fieldset class="routing-variant">
            <legend>{row.isNew ? 'Another variant' : `Variant ${index + 1}`}</legend>
            <div class="grid">
              <Field id={`split-${index}-url`} name={`split-${index}-url`} label="Destination URL" type="url" value={row.url} error={errors.rows[index]?.url} />
              <Field
                id={`split-${index}-weight`}
                name={`split-${index}-weight`}
                label="Weight (%)"
                type="number"
                min={1}
                max={100}
                inputMode="numeric"
                value={row.weight}
                error={errors.rows[index]?.weight ?? (index === 0 ? errors.split : undefined)}
              />
            </div>
            {!row.isNew && (
              <label for={`split-${index}-remove`}>
                <input type="checkbox" id={`split-${index}-remove`} name={`split-${index}-remove`} value="on" checked={row.remove} /> Remove this variant
              </label>
            )}
          </fieldset>
        ))}
        <button type="submit">Save split</button>
      </form>
      {code.routing?.split && (
        <form method="post" action={`${base}/split/remove`} class="inline-form">
          <CsrfField token={props.csrfToken} />
          <button type="submit" class="secondary">
            Remove the split
          </button>
        </form>
      )}
    </section>
  );
}

function ScheduleSection(props: { code: QrCode; csrfToken: string; zone: string; values: ScheduleValues; errors: ScheduleErrors }) {
  const { code, values, errors } = props;
  return (
    <section aria-labelledby="routing-schedule-heading">
      <h2 id="routing-schedule-heading">Schedule</h2>
      <p>
        Before the start the short URL says the code is not active yet; from the expiry on, or once the scan limit is reached, it sends scans to the
        expired URL, or says the code has expired. Neither counts as a scan. Leave a field empty for none.
      </p>
      <form method="post" action={`/codes/${code.id}/routing/schedule`} class="narrow-form">
        <CsrfField token={props.csrfToken} />
        {/* Without a routing (and so a zone of its own) the page guessed the viewer's zone from a cookie; while the
            fields are empty app.js may put the browser's own zone here, as on the type forms' zone fields. */}
        <input type="hidden" name="zone" value={props.zone} data-zone-guess={!code.routing && values.activeFrom === '' && values.expiresAt === '' ? props.zone : undefined} />
        <p class="muted">Dates and times in {props.zone}.</p>
        <div class="grid">
          <Field id="schedule-active-from" name="activeFrom" label="Start" type="datetime-local" value={values.activeFrom} error={errors.activeFrom} />
          <Field id="schedule-expires-at" name="expiresAt" label="Expiry" type="datetime-local" value={values.expiresAt} error={errors.expiresAt} />
        </div>
        <Field
          id="schedule-scan-limit"
          name="scanLimit"
          label="Scan limit"
          type="number"
          min={1}
          inputMode="numeric"
          value={values.scanLimit}
          error={errors.scanLimit}
          hint={`Scans that reach a destination, at most (${code.scanCount.toLocaleString('en-GB')} so far).`}
        />
        <Field id="schedule-expired-url" name="expiredUrl" label="Expired URL" type="url" value={values.expiredUrl} error={errors.expiredUrl} hint="Where scans go once the code has expired." />
        <button type="submit">Save schedule</button>
      </form>
    </section>
  );
}

function ZoneSection(props: { code: QrCode; csrfToken: string; value: string; error?: string | undefined }) {
  const { code } = props;
  return (
    <section aria-labelledby="routing-zone-heading">
      <h2 id="routing-zone-heading">Time zone</h2>
      <p>Weekdays and hours of rules are read in this zone, and dates and times on this page are shown in it.</p>
      <form method="post" action={`/codes/${code.id}/routing/time-zone`} class="narrow-form">
        <CsrfField token={props.csrfToken} />
        <Field
          id="routing-zone"
          name="timeZone"
          label="Time zone"
          type="text"
          list="time-zones"
          value={props.value}
          zoneGuess={code.routing ? undefined : props.value}
          error={props.error}
          hint="IANA name, such as Europe/Berlin. Rules' start and end, and the schedule, stay the same moments."
        />
        <TimeZoneList />
        <button type="submit">Save time zone</button>
      </form>
    </section>
  );
}

/** Moves a rule one place up or down: a form that posts (and with htmx swaps only the rule list). */
function MoveRuleButton(props: { action: string; csrfToken: string; direction: 'up' | 'down'; label: string }) {
  const words = props.direction === 'up' ? 'Move up' : 'Move down';
  return (
    <form method="post" action={props.action} class="inline-form" hx-post={props.action} {...RULES_SWAP}>
      <CsrfField token={props.csrfToken} />
      <input type="hidden" name="direction" value={props.direction} />
      <button type="submit" class="secondary outline small-button" aria-label={`${words}: ${props.label}`}>
        {words}
      </button>
    </form>
  );
}
