import { formText } from '../shared/forms.js';

/**
 * The colour a branding form asks for. Without JavaScript the colour picker and the hex field do not follow
 * each other, so the one changed from the saved colour wins, and the hex field when both changed (it is the
 * more precise of the two). Read from a POST body or a GET query alike.
 */
export function chosenColor(fields: unknown): string {
  const hex = formText(fields, 'hex').trim();
  const picker = formText(fields, 'picker').trim();
  const saved = formText(fields, 'saved').trim().toLowerCase();
  if (hex !== '' && hex.toLowerCase() !== saved) return hex;
  return picker || hex;
}

/** Fixed sentences by key, so a link cannot put words on the page. */
const NOTICES = {
  'color-saved': 'Colour saved. Your landing pages use it from the next scan.',
  'color-reset': "Colour reset: your landing pages use qroute's blue again.",
  'logo-saved': 'Logo saved. Your landing pages show it from the next scan.',
  'logo-removed': 'Logo removed.',
} as const;

export type BrandingNotice = keyof typeof NOTICES;

export function brandingNotice(done: unknown): string | undefined {
  return typeof done === 'string' && Object.hasOwn(NOTICES, done) ? NOTICES[done as BrandingNotice] : undefined;
}

export function brandingRedirect(notice: BrandingNotice): string {
  return `/account/branding?done=${notice}`;
}
