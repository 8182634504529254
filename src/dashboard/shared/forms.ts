import type { RequestHandler } from 'express';
import { hasNonTextCharacters } from '../../text-rules.js';
import { notText } from './errors.js';

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

/**
 * Refuses (400) a form or query holding anything that is not text (NUL and other control characters but tab and
 * line ends, U+FFFE, U+FFFF): the one check in front of every dashboard handler, so none of them can store a NUL
 * (which PostgreSQL refuses) or text an SVG image cannot carry. Fields with their own stricter rules (names: no
 * line ends either) still apply them.
 */
export const refuseNonTextFields: RequestHandler = (req, _res, next) => {
  if (holdsNonText(req.body) || holdsNonText(req.query)) throw notText();
  next();
};

function holdsNonText(fields: unknown): boolean {
  if (typeof fields !== 'object' || fields === null) return false;
  for (const [name, value] of Object.entries(fields)) {
    if (hasNonTextCharacters(name)) return true;
    const values = Array.isArray(value) ? value : [value];
    if (values.some((item) => typeof item === 'string' && hasNonTextCharacters(item))) return true;
  }
  return false;
}
