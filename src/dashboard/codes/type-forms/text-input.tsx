import type { ComponentChildren } from 'preact';
import type { TextInput as InputKind } from './index.js';
import { describedBy, FieldMessages } from './field-message.js';
import type { FieldProblems } from './field-problems.js';
import { knownZoneNames, renamedZones } from '../../../time-zone-names.js';

// datetime-local can show only a local date and time; a value written with an offset (an import) stays text.
const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/;

const INPUT_TYPES: Record<Exclude<InputKind, 'datetime' | 'time-zone'>, string> = { text: 'text', url: 'url', email: 'email', tel: 'tel' };

/** One labelled text control: an input of the right type, or a textarea for multi-line text. */
export function TextInput(props: {
  id: string;
  name: string;
  label: ComponentChildren;
  /** The label as words, for the message under the field. */
  labelText: string;
  value: string;
  input?: InputKind | undefined;
  multiline?: boolean | undefined;
  required?: boolean | undefined;
  hint?: string | undefined;
  problem?: FieldProblems[string] | undefined;
  /** A time-zone field filled with the server's guess of the viewer's zone; app.js replaces it with the browser's while untouched. */
  zoneGuess?: string | undefined;
}) {
  const { id, value } = props;
  const common = {
    id,
    name: props.name,
    required: props.required,
    'aria-invalid': props.problem ? ('true' as const) : undefined,
    'aria-describedby': describedBy(id, props.hint, props.problem),
  };
  let control;
  if (props.multiline) control = <textarea {...common} rows={4}>{value}</textarea>;
  else if (props.input === 'datetime' && (value === '' || LOCAL_DATE_TIME.test(value))) control = <input {...common} type="datetime-local" value={value} />;
  else if (props.input === 'datetime') control = <input {...common} type="text" value={value} />;
  else if (props.input === 'time-zone') control = <input {...common} type="text" list="time-zones" autocomplete="off" value={value} data-zone-guess={props.zoneGuess} />;
  else control = <input {...common} type={INPUT_TYPES[props.input ?? 'text'] as 'text'} autocomplete="off" value={value} />;
  return (
    <div class="form-field">
      <label for={id}>{props.label}</label>
      {control}
      <FieldMessages id={id} label={props.labelText} hint={props.hint} problem={props.problem} />
    </div>
  );
}

/**
 * The zones a time-zone field suggests (any the runtime knows is accepted). `data-renamed` carries the table of
 * renamed zones (src/time-zone-names.ts) to app.js, whose browser reports "Asia/Calcutta" for "Asia/Kolkata".
 */
export function TimeZoneList() {
  return (
    <datalist id="time-zones" data-renamed={JSON.stringify(renamedZones())}>
      {/* UTC is not among the runtime's zone names (only places are), yet is what an empty field means. */}
      {['UTC', ...knownZoneNames()].map((zone) => (
        <option value={zone} />
      ))}
    </datalist>
  );
}
