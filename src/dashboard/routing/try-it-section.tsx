import type { QrCode } from '../../codes/index.js';
import { Field } from './fields.js';
import { shownInstant } from './rule-summary.js';
import type { TryItAnswer, TryItResult, TryItValues } from './try-it.js';

/**
 * "Try it": a GET form (the answer is an address to share, and works without script); with htmx only the answer
 * is swapped in, a date that does not exist said there too.
 */
export function TryItSection(props: {
  code: QrCode;
  zone: string;
  values: TryItValues;
  result?: TryItResult | undefined;
  osNames: readonly string[];
  devices: ReadonlyArray<{ value: string; label: string }>;
  countries: ReadonlyArray<{ value: string; label: string }>;
}) {
  const { code, values, result } = props;
  const action = `/codes/${code.id}/routing`;
  return (
    <section aria-labelledby="try-it-heading">
      <h2 id="try-it-heading">Try it</h2>
      <p>Say who scans and when: the page says where the short URL would send them, with the same rules the redirect follows.</p>
      <form method="get" action={`${action}#try-it-heading`} class="narrow-form" hx-get={action} hx-target="#try-it-answer" hx-select="#try-it-answer > *" hx-swap="innerHTML">
        <input type="hidden" name="try" value="1" />
        <div class="grid">
          <Field id="try-os" name="os" label="Operating system" type="text" list="try-os-names" value={values.os} hint="Such as iOS or Android." />
          <div class="form-field">
            <label for="try-device">Device</label>
            <select id="try-device" name="device">
              <option value="">Not known</option>
              {props.devices.map((device) => (
                <option value={device.value} selected={device.value === values.device}>
                  {device.label}
                </option>
              ))}
            </select>
          </div>
        </div>
        <div class="grid">
          <Field id="try-country" name="country" label="Country" type="text" list="try-countries" value={values.country} hint="ISO code, such as DE." />
          <Field id="try-language" name="language" label="Language" type="text" value={values.language} hint="Such as de." />
        </div>
        <div class="grid">
          <Field id="try-browser" name="browser" label="Browser" type="text" value={values.browser} hint="Such as Mobile Safari; optional." />
          <Field
            id="try-at"
            name="at"
            label={`Date and time (${props.zone})`}
            type="datetime-local"
            value={values.at}
            error={result && !result.ok ? result.error : undefined}
            hint="Empty: now."
          />
        </div>
        <datalist id="try-os-names">
          {props.osNames.map((os) => (
            <option value={os} />
          ))}
        </datalist>
        <datalist id="try-countries">
          {props.countries.map((country) => (
            <option value={country.value}>{country.label}</option>
          ))}
        </datalist>
        <button type="submit">Try it</button>
      </form>
      {/* Kept in place (htmx swaps what is inside), so screen readers announce each new answer. */}
      <div id="try-it-answer" role="status">
        {result && !result.ok && <p class="field-error">{result.error}</p>}
        {result?.ok && (
          <p class="try-it-answer">
            <strong>{shownInstant(result.at, props.zone)}:</strong> <AnswerText answer={result.answer} zone={props.zone} />
          </p>
        )}
      </div>
    </section>
  );
}

const percent = new Intl.NumberFormat('en-GB');

function AnswerText(props: { answer: TryItAnswer; zone: string }) {
  const { answer } = props;
  switch (answer.kind) {
    case 'paused':
      return <>the code is paused: the short URL says so, and the scan is not counted.</>;
    case 'not-active':
      return <>not active yet (it starts {shownInstant(answer.activeFrom, props.zone)}): the short URL answers with a page saying so.</>;
    case 'expired':
      return (
        <>
          {answer.because === 'date' ? 'expired' : 'expired: the scan limit has been reached'}
          {answer.expiredUrl ? (
            <>
              {' '}— scans go to <Link url={answer.expiredUrl} />.
            </>
          ) : (
            <>; the short URL answers with a page saying the code has expired.</>
          )}
        </>
      );
    case 'rule':
      return (
        <>
          rule {answer.position}
          {answer.name ? ` (“${answer.name}”)` : ''} answers: to <Link url={answer.destinationUrl} />.
        </>
      );
    case 'split':
      return (
        <>
          no rule matches; the split answers:{' '}
          {answer.variants.map((variant, index) => (
            <>
              {index > 0 && ', '}
              {percent.format(variant.weight)} % to <Link url={variant.destinationUrl} />
            </>
          ))}
          .
        </>
      );
    case 'default':
      return answer.page ? <>no rule matches: the code's own page answers.</> : <>no rule matches: the code's destination, <Link url={answer.destinationUrl} />.</>;
  }
}

function Link(props: { url: string }) {
  return (
    <a href={props.url} rel="noopener noreferrer" class="try-it-url">
      {props.url}
    </a>
  );
}
