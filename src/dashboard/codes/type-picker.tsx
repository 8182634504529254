import type { CodeTypeName } from '../../codes/types/index.js';
import { PICKER_FORMS } from './type-forms/index.js';

/** The id of the chosen type's form on "New code" (its heading), the fragment the picker's links end in. */
export const NEW_CODE_FORM_ID = 'form-heading';

/**
 * The seventeen types as links (`/codes/new?type=…`), each with a line saying what its code does. Each link ends in
 * the form's fragment (NEW_CODE_FORM_ID), so a tap lands on the form rather than on the top of the page again.
 */
export function TypePicker(props: { current: CodeTypeName }) {
  return (
    <nav aria-labelledby="type-heading" class="type-picker">
      <h2 id="type-heading">Type</h2>
      <ul>
        {PICKER_FORMS.map((form) => (
          <li>
            <a href={`${form.type === 'URL' ? '/codes/new' : `/codes/new?type=${form.type}`}#${NEW_CODE_FORM_ID}`} aria-current={form.type === props.current ? 'page' : undefined}>
              {form.label}
            </a>
            <small>{form.description}</small>
          </li>
        ))}
      </ul>
    </nav>
  );
}
