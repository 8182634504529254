/**
 * Reading urlencoded form bodies: every field is a string or absent (express.urlencoded with extended: false);
 * a field sent twice arrives as an array, which no form of ours does, so it counts as absent.
 */
export function formText(body: unknown, field: string): string {
  const value = (body as Record<string, unknown> | undefined)?.[field];
  return typeof value === 'string' ? value : '';
}

/** A checkbox: present (any value) means on. */
export function formChecked(body: unknown, field: string): boolean {
  return typeof (body as Record<string, unknown> | undefined)?.[field] === 'string';
}
