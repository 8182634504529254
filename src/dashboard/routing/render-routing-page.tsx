import type { Request, Response } from 'express';
import { getQrCode, type QrCode } from '../../codes/index.js';
import { pageContext, sessionOf, type DashboardDependencies } from '../shared/context.js';
import { sendPage } from '../shared/render.js';
import { viewerTimeZone } from '../shared/viewer-time-zone.js';
import { ROUTING_DONE, RoutingPage, type RoutingPageProps } from './routing-page.js';
import { scheduleValues, splitRows } from './routing-forms.js';
import { readTryIt, tryIt } from './try-it.js';

/** The zone a code's dates and times are shown and read in: its routing's, or (none yet) the viewer's. */
export function routingZone(code: QrCode, req: Request): string {
  return code.routing?.timeZone ?? viewerTimeZone(req);
}

export async function loadCode(deps: DashboardDependencies, req: Request<{ id: string }>, res: Response): Promise<QrCode> {
  return getQrCode(deps.db, { accountId: sessionOf(res).user.accountId, id: req.params.id });
}

/**
 * Sends /codes/:id/routing, for GET and for a refused form (which shows what was sent, with its problems; the other
 * forms show what is stored).
 */
export function renderRoutingPage(
  req: Request<{ id: string }>,
  res: Response,
  code: QrCode,
  refused: Partial<Pick<RoutingPageProps, 'split' | 'schedule' | 'zoneForm'>> = {},
): void {
  const zone = routingZone(code, req);
  const tryValues = readTryIt(req.query as Record<string, unknown>);
  const done = typeof req.query.done === 'string' && Object.hasOwn(ROUTING_DONE, req.query.done) ? (req.query.done as keyof typeof ROUTING_DONE) : undefined;
  const wasRefused = Object.keys(refused).length > 0;
  sendPage(
    res,
    <RoutingPage
      context={pageContext(res)}
      code={code}
      zone={zone}
      done={wasRefused ? undefined : done}
      refused={wasRefused}
      split={refused.split ?? { rows: splitRows(code), errors: { rows: [] } }}
      schedule={refused.schedule ?? { values: scheduleValues(code, zone), errors: {} }}
      zoneForm={refused.zoneForm ?? { value: zone }}
      tryIt={{
        values: tryValues ?? { os: '', browser: '', device: '', country: '', language: '', at: '' },
        result: tryValues && tryIt(code, tryValues, zone, new Date()),
      }}
    />,
    wasRefused ? 400 : 200,
  );
}
