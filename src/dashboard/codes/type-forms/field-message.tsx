import { problemSentence, type FieldProblems } from './field-problems.js';

/**
 * The hint and the problem under a field; `describedBy` is what the field's aria-describedby names, so a screen
 * reader reads both with the field.
 */
export function describedBy(id: string, hint: string | undefined, problem: FieldProblems[string] | undefined): string | undefined {
  return [problem ? `${id}-error` : undefined, hint ? `${id}-hint` : undefined].filter(Boolean).join(' ') || undefined;
}

export function FieldMessages(props: { id: string; label: string; hint?: string | undefined; problem?: FieldProblems[string] | undefined }) {
  return (
    <>
      {props.problem && (
        <small class="field-error" id={`${props.id}-error`}>
          {problemSentence(props.label, props.problem)}
        </small>
      )}
      {props.hint && <small id={`${props.id}-hint`}>{props.hint}</small>}
    </>
  );
}
