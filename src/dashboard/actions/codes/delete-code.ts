import type { RequestHandler } from 'express';
import { deleteQrCode, getQrCode } from '../../../codes/index.js';
import { currentContent, releaseFilesOfDeletedCode } from '../../../codes/update-typed-code.js';
import { sessionOf, type DashboardDependencies } from '../../context.js';

/**
 * POST /codes/:id/delete (from the confirmation page): the code and its short URL are gone for good, and so are
 * the files it showed that no other code shows (the confirmation says so).
 */
export function deleteCode(deps: DashboardDependencies): RequestHandler<{ id: string }> {
  return async (req, res) => {
    const { accountId } = sessionOf(res).user;
    const code = await getQrCode(deps.db, { accountId, id: req.params.id });
    const content = await currentContent(deps.db, { accountId, id: code.id });
    await deleteQrCode(deps.db, { accountId, id: code.id });
    await releaseFilesOfDeletedCode(deps.db, accountId, code.type, content);
    res.redirect(303, '/codes?deleted=1');
  };
}
