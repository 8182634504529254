import { MAX_NAME_LENGTH, MAX_URL_LENGTH, parseCodeFields, type CodeFieldProblem } from '../../codes/index.js';
import { formText } from '../shared/forms.js';

/** What was typed into a code's Name and Destination URL fields, kept to show the form again. */
export interface CodeFormValues {
  name: string;
  url: string;
}

/** A sentence per field at fault, shown next to it. */
export type CodeFormErrors = Partial<Record<CodeFieldProblem['field'], string>>;

export type CodeFormResult =
  | { ok: true; values: CodeFormValues; name: string; destinationUrl: string }
  | { ok: false; values: CodeFormValues; errors: CodeFormErrors };

const LABELS: Record<CodeFieldProblem['field'], string> = { name: 'The name', url: 'The destination URL' };

/**
 * Reads the form through the same rules the API applies (src/codes/code-input.ts), so the dashboard stores and
 * refuses exactly what the API does. What was typed is kept as typed (within reason) for the form's second showing.
 */
export function readCodeForm(body: unknown): CodeFormResult {
  const values = {
    name: formText(body, 'name').slice(0, MAX_NAME_LENGTH * 4),
    url: formText(body, 'url').slice(0, MAX_URL_LENGTH * 2),
  };
  const parsed = parseCodeFields({ name: formText(body, 'name'), url: formText(body, 'url') });
  if (!parsed.ok) {
    const errors: CodeFormErrors = {};
    for (const problem of parsed.problems) errors[problem.field] ??= `${LABELS[problem.field]} ${problem.message}.`;
    return { ok: false, values, errors };
  }
  return { ok: true, values, name: parsed.name!, destinationUrl: parsed.destinationUrl! };
}
