/**
 * What is wrong with a form's fields, by the JSON pointer of the field (`/name`, `/content/phones/1`). A schema's
 * message ("must be an email address") is shown after the field's label; an upload's refusal is a whole sentence.
 */
export type FieldProblems = Readonly<Record<string, { message: string; whole?: boolean }>>;

export function problemSentence(label: string, problem: { message: string; whole?: boolean }): string {
  return problem.whole ? problem.message : `${label} ${problem.message}.`;
}

/** An element id for the field at `path`, unique within the page when prefixed per form. */
export function fieldId(idPrefix: string, path: string): string {
  return `${idPrefix}${path.replace(/[^A-Za-z0-9]+/g, '-')}`;
}
