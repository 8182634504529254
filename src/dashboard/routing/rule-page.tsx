import type { QrCode } from '../../codes/index.js';
import { DEVICE_CLASSES, WEEKDAYS } from '../../routing/index.js';
import { TimeZoneList } from '../codes/type-forms/text-input.js';
import type { PageContext } from '../shared/context.js';
import { CsrfField, Flash, Layout } from '../shared/layout.js';
import { CheckboxGroup, Field } from './fields.js';
import { COMMON_OS, type RuleFormErrors, type RuleFormValues } from './rule-form.js';
import { COUNTRY_OPTIONS, DEVICE_LABELS, WEEKDAY_LABELS } from './choices.js';

export interface RulePageProps {
  context: PageContext;
  code: QrCode;
  /** The rule's id when editing, undefined for a new rule. */
  ruleId?: string | undefined;
  /** Its place in the order (1-based), for the heading. */
  position: number;
  values: RuleFormValues;
  errors?: RuleFormErrors | undefined;
  /** Problems not about one field (a rule removed meanwhile, too many rules). */
  general?: string[] | undefined;
  /** The zone the dates and times are shown and read in: the routing's, or (no routing yet) the viewer's guess. */
  zone: string;
  /** No routing yet: the zone is a field of its own, filled with the viewer's zone (app.js: the browser's). */
  newRouting: boolean;
}

/** /codes/:id/routing/rules/new and /codes/:id/routing/rules/:ruleId — one rule's form. */
export function RulePage(props: RulePageProps) {
  const { code, values, context } = props;
  const errors = props.errors ?? {};
  const base = `/codes/${code.id}/routing`;
  const title = props.ruleId ? `Edit rule ${props.position}` : 'New rule';
  const action = props.ruleId ? `${base}/rules/${props.ruleId}` : `${base}/rules`;
  return (
    <Layout context={context} title={`${title} · ${code.name}`}>
      <p>
        <a href={base}>← Routing of {code.name}</a>
      </p>
      <h1>{title}</h1>
      {props.general?.map((message) => <Flash kind="error">{message}</Flash>)}
      <p>
        A scan goes to this rule's destination when every condition you fill in holds; conditions left empty hold for every scan. Rules are tried in order
        and the first that matches answers.
      </p>
      <form method="post" action={action} class="narrow-form routing-rule-form">
        <CsrfField token={context.csrfToken} />
        <Field id="rule-name" name="name" label="Name (optional)" type="text" value={values.name} error={errors.name} maxLength={400} hint="For you: shown in the list and in analytics." />
        <Field id="rule-destination" name="destinationUrl" label="Destination URL" type="url" value={values.destinationUrl} error={errors.destinationUrl} hint="Where matching scans go." />
        <h2>Conditions</h2>
        {/* Named as the first box's message: the error summary (app.js) reads a field's message from "<id>-error". */}
        {errors.conditions && (
          <p class="field-error" id="rule-os-0-error">
            {errors.conditions}
          </p>
        )}
        <CheckboxGroup id="rule-os" name="os" legend="Operating systems" options={COMMON_OS.map((os) => ({ value: os, label: os }))} checked={values.os} errorElsewhere={errors.conditions ? 'rule-os-0-error' : undefined} />
        <Field id="rule-os-other" name="osOther" label="Other operating systems" type="text" value={values.osOther} error={errors.osOther} hint="As scans record them, separated by commas, such as HarmonyOS." />
        <CheckboxGroup id="rule-devices" name="devices" legend="Devices" options={DEVICE_CLASSES.map((device) => ({ value: device, label: DEVICE_LABELS[device] }))} checked={values.devices} error={errors.devices} />
        <Field id="rule-browsers" name="browsers" label="Browsers" type="text" value={values.browsers} error={errors.browsers} hint="As scans record them, separated by commas, such as Mobile Safari, Chrome." />
        <Field id="rule-countries" name="countries" label="Countries" type="text" value={values.countries} error={errors.countries} list="routing-countries" hint="ISO codes separated by commas, such as DE, AT. A scan whose country is not known never matches." />
        <Field id="rule-languages" name="languages" label="Languages" type="text" value={values.languages} error={errors.languages} hint="The phone's language, as codes separated by commas, such as de, fr." />
        <p class="muted" id="rule-zone-note">
          Dates, weekdays and hours below are in {props.newRouting ? 'the time zone you choose here' : <strong>{props.zone}</strong>}
          {props.newRouting ? '.' : ", the routing's time zone (change it on the routing page)."}
        </p>
        {props.newRouting ? (
          <>
            <Field id="rule-zone" name="zone" label="Time zone" type="text" value={props.zone} list="time-zones" zoneGuess={props.zone} error={errors.zone} hint="IANA name, such as Europe/Berlin." />
            <TimeZoneList />
          </>
        ) : (
          <input type="hidden" name="zone" value={props.zone} />
        )}
        <div class="grid">
          <Field id="rule-from" name="from" label="From" type="datetime-local" value={values.from} error={errors.from} hint="The rule holds from this moment on." />
          <Field id="rule-until" name="until" label="Until" type="datetime-local" value={values.until} error={errors.until} hint="…and stops at this one." />
        </div>
        <CheckboxGroup id="rule-weekdays" name="weekdays" legend="Weekdays" options={WEEKDAYS.map((day) => ({ value: day, label: WEEKDAY_LABELS[day] }))} checked={values.weekdays} error={errors.weekdays} />
        <div class="grid">
          <Field id="rule-hours-from" name="hoursFrom" label="Hours from" type="time" value={values.hoursFrom} error={errors.hoursFrom} />
          <Field id="rule-hours-until" name="hoursUntil" label="Hours until" type="time" value={values.hoursUntil} error={errors.hoursUntil} hint="Before 'from' wraps past midnight: 18:00 to 02:00 is the evening and night." />
        </div>
        <datalist id="routing-countries">
          {COUNTRY_OPTIONS.map((country) => (
            <option value={country.value}>{country.label}</option>
          ))}
        </datalist>
        <button type="submit">{props.ruleId ? 'Save rule' : 'Add rule'}</button>
      </form>
    </Layout>
  );
}
