import { pathOf, type FormField, type TypeForm } from './index.js';
import { CheckboxInput, EitherInput, SelectInput } from './choice-inputs.js';
import { fieldId, type FieldProblems } from './field-problems.js';
import { FileInput, FilesInput, type FileNames } from './file-inputs.js';
import { HoursInputs, ListInputs, RowsInputs } from './list-inputs.js';
import { TextInput, TimeZoneList } from './text-input.js';
import { contactFormContent } from './contact-form-content.js';

/**
 * A type's content fields, from its form description, filled from `content` (the stored content, or what was
 * sent when the form was refused), each with its problem next to it. `zoneGuess` (a new code's form only): the
 * viewer's time zone, filled into empty time-zone fields, which app.js corrects to the browser's own zone.
 */
export function TypeFields(props: {
  form: TypeForm;
  content: Record<string, unknown>;
  problems: FieldProblems;
  fileNames: FileNames;
  idPrefix: string;
  zoneGuess?: string | undefined;
}) {
  const { form } = props;
  // Contact codes made before names and addresses had parts are shown split, with a note to check the split.
  const shown = form.type === 'CONTACT' || form.type === 'VCARD_PLUS' ? contactFormContent(props.content) : { content: props.content, notes: {} };
  return (
    <>
      {form.fields.map((field) => (
        <Field field={field} formType={form.type} {...props} content={shown.content} note={(shown.notes as Record<string, string>)[field.key]} />
      ))}
      {form.fields.some((field) => field.kind === 'text' && field.input === 'time-zone') && <TimeZoneList />}
    </>
  );
}

function Field(props: {
  field: FormField;
  formType: string;
  content: Record<string, unknown>;
  problems: FieldProblems;
  fileNames: FileNames;
  idPrefix: string;
  zoneGuess?: string | undefined;
  note?: string | undefined;
}) {
  const { field, problems, idPrefix } = props;
  const path = pathOf(field.key);
  const id = fieldId(idPrefix, path);
  const zoneGuess = field.kind === 'text' && field.input === 'time-zone' && props.content[field.key] === undefined ? props.zoneGuess : undefined;
  const value = zoneGuess ?? props.content[field.key];
  switch (field.kind) {
    case 'text':
      return (
        <TextInput
          id={id}
          name={path}
          label={field.label}
          labelText={field.label}
          value={typeof value === 'string' ? value : ''}
          input={field.input}
          multiline={field.multiline}
          required={field.required}
          hint={props.note ?? field.hint}
          problem={problems[path]}
          zoneGuess={zoneGuess}
        />
      );
    case 'select':
      return (
        <SelectInput id={id} name={path} label={field.label} labelText={field.label} value={typeof value === 'string' ? value : ''} options={field.options} blank={!field.required} hint={field.hint} problem={problems[path]} />
      );
    case 'checkbox':
      return <CheckboxInput id={id} name={path} label={field.label} checked={value === true} hint={field.hint} problem={problems[path]} />;
    case 'either':
      return <EitherInput id={id} name={path} field={field} value={value === true} problem={problems[path]} />;
    case 'list':
      return <ListInputs field={field} path={path} idPrefix={idPrefix} value={value} problems={problems} formType={props.formType} />;
    case 'rows':
      return <RowsInputs field={field} path={path} idPrefix={idPrefix} value={value} problems={problems} formType={props.formType} />;
    case 'hours':
      return <HoursInputs field={field} path={path} idPrefix={idPrefix} value={value} problems={problems} />;
    case 'file':
      return <FileInput field={field} path={path} idPrefix={idPrefix} value={value} names={props.fileNames} problems={problems} />;
    case 'files':
      return <FilesInput field={field} path={path} idPrefix={idPrefix} value={value} names={props.fileNames} problems={problems} />;
  }
}
