import { checkNewPassword } from '../../people/passwords.js';
import { formText } from './forms.js';
import type { FieldErrors } from './form-field.js';

/**
 * The new password of a form (fields `password` and `confirm`) and what is wrong with it, checked before any
 * service runs: the length rule is the services' own (checkNewPassword), the confirmation is the form's.
 */
export function readNewPassword(body: unknown): { password: string; errors: FieldErrors } {
  const password = formText(body, 'password');
  const problem = checkNewPassword(password);
  if (problem) return { password, errors: { password: problem } };
  if (formText(body, 'confirm') !== password) return { password, errors: { confirm: 'The two passwords are not the same. Type them again.' } };
  return { password, errors: {} };
}

export function hasErrors(errors: FieldErrors): boolean {
  return Object.values(errors).some((message) => message !== undefined);
}
