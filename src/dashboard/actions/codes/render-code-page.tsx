import type { Request, Response } from 'express';
import { getQrCode, listDestinationChanges } from '../../../codes/index.js';
import { pageContext, sessionOf, type DashboardDependencies } from '../../context.js';
import { CodePage, DONE_MESSAGES, type CodePageProps } from '../../pages/codes/code-page.js';
import { withShortUrl } from '../../pages/codes/code-row.js';
import { sendPage } from '../../render.js';
import { viewerTimeZone } from '../../viewer-time-zone.js';

/** The history a code's page shows; a code changed more often than this says so under the table. */
const HISTORY_LIMIT = 50;

/**
 * Sends the page of the signed-in account's code `:id` (another account's id is a 404 from the service), for
 * GET and for an edit that was refused.
 */
export async function renderCodePage(
  deps: DashboardDependencies,
  req: Request<{ id: string }>,
  res: Response,
  options: { status?: number; edit?: CodePageProps['edit'] } = {},
): Promise<void> {
  const { accountId } = sessionOf(res).user;
  const codeId = req.params.id;
  const [code, history] = await Promise.all([
    getQrCode(deps.db, { accountId, id: codeId }),
    listDestinationChanges(deps.db, { accountId, codeId, limit: HISTORY_LIMIT }),
  ]);
  const done = typeof req.query.done === 'string' && Object.hasOwn(DONE_MESSAGES, req.query.done) ? (req.query.done as keyof typeof DONE_MESSAGES) : undefined;
  const page = (
    <CodePage
      context={pageContext(res)}
      code={withShortUrl(code, deps.config.siteUrl)}
      history={history}
      historyLimit={HISTORY_LIMIT}
      zone={viewerTimeZone(req)}
      done={options.edit ? undefined : done}
      edit={options.edit}
    />
  );
  sendPage(res, page, options.status);
}
