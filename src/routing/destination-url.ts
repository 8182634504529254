import { type DestinationUrlResult, parseDestinationUrl } from '../destination-url.js';

/** A rule's or split variant's destination: the check codes use, so a URL a code accepts a rule accepts too. */
export function parseRoutingDestination(raw: unknown): DestinationUrlResult {
  if (typeof raw !== 'string') return { ok: false, message: 'must be a URL as a string' };
  return parseDestinationUrl(raw);
}
