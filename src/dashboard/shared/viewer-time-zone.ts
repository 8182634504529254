import type { Request } from 'express';
import { resolveTimeZone } from '../../analytics/index.js';
import { readCookies } from './cookies.js';

/** The zone a viewer asked for in the address (`?tz=`), if any: links keep it so a shared URL shows the same. */
export function requestedTimeZone(req: Request): string | undefined {
  return typeof req.query.tz === 'string' && req.query.tz.trim() !== '' ? req.query.tz : undefined;
}

/**
 * The viewer's time zone for buckets and times: `?tz=`, else the `qroute_tz` cookie that assets/app.js sets from
 * the browser, else UTC. Validated here (anyone can send anything): a zone we do not accept is UTC.
 */
export function viewerTimeZone(req: Request): string {
  return resolveTimeZone(requestedTimeZone(req) ?? readCookies(req).get('qroute_tz'));
}
