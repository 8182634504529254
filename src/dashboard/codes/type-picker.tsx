import type { CodeTypeName } from '../../codes/types/index.js';
import { PICKER_FORMS } from './type-forms/index.js';

/** The seventeen types as links (`/codes/new?type=…`), each with a line saying what its code does. */
export function TypePicker(props: { current: CodeTypeName }) {
  return (
    <nav aria-labelledby="type-heading" class="type-picker">
      <h2 id="type-heading">Type</h2>
      <ul>
        {PICKER_FORMS.map((form) => (
          <li>
            <a href={form.type === 'URL' ? '/codes/new' : `/codes/new?type=${form.type}`} aria-current={form.type === props.current ? 'page' : undefined}>
              {form.label}
            </a>
            <small>{form.description}</small>
          </li>
        ))}
      </ul>
    </nav>
  );
}
