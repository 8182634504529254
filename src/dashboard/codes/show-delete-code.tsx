import type { RequestHandler } from 'express';
import { getQrCode } from '../../codes/index.js';
import { pageContext, sessionOf, type DashboardDependencies } from '../shared/context.js';
import { DeleteCodePage } from './delete-code-page.js';
import { withShortUrl } from './code-row.js';
import { sendPage } from '../shared/render.js';

/** GET /codes/:id/delete: the confirmation, naming the code. */
export function showDeleteCode(deps: DashboardDependencies): RequestHandler<{ id: string }> {
  return async (req, res) => {
    const code = await getQrCode(deps.db, { accountId: sessionOf(res).user.accountId, id: req.params.id });
    sendPage(res, <DeleteCodePage context={pageContext(res)} code={withShortUrl(code, deps.config.siteUrl)} />);
  };
}
