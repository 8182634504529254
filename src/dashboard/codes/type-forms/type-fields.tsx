import { pathOf, type FormField, type TypeForm } from './index.js';
import { CheckboxInput, SelectInput } from './choice-inputs.js';
import { fieldId, type FieldProblems } from './field-problems.js';
import { FileInput, FilesInput, type FileNames } from './file-inputs.js';
import { HoursInputs, ListInputs, RowsInputs } from './list-inputs.js';
import { TextInput, TimeZoneList } from './text-input.js';

/**
 * A type's content fields, from its form description, filled from `content` (the stored content, or what was
 * sent when the form was refused), each with its problem next to it.
 */
export function TypeFields(props: { form: TypeForm; content: Record<string, unknown>; problems: FieldProblems; fileNames: FileNames; idPrefix: string }) {
  const { form } = props;
  return (
    <>
      {form.fields.map((field) => (
        <Field field={field} formType={form.type} {...props} />
      ))}
      {form.fields.some((field) => field.kind === 'text' && field.input === 'time-zone') && <TimeZoneList />}
    </>
  );
}

function Field(props: { field: FormField; formType: string; content: Record<string, unknown>; problems: FieldProblems; fileNames: FileNames; idPrefix: string }) {
  const { field, problems, idPrefix } = props;
  const path = pathOf(field.key);
  const value = props.content[field.key];
  const id = fieldId(idPrefix, path);
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
          hint={field.hint}
          problem={problems[path]}
        />
      );
    case 'select':
      return (
        <SelectInput id={id} name={path} label={field.label} labelText={field.label} value={typeof value === 'string' ? value : ''} options={field.options} blank={!field.required} hint={field.hint} problem={problems[path]} />
      );
    case 'checkbox':
      return <CheckboxInput id={id} name={path} label={field.label} checked={value === true} hint={field.hint} problem={problems[path]} />;
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
