import type { RequestHandler } from 'express';
import { getQrCode } from '../../codes/index.js';
import { checkedDesign, designOfCode, setCodeDesign } from '../../designs/index.js';
import { DEFAULT_DESIGN } from '../../qr/design/design.js';
import { sessionOf, type DashboardDependencies } from '../shared/context.js';
import { DashboardError } from '../shared/errors.js';
import { problemInWords } from './design-form.js';
import { readLogoUpload } from './logo-upload.js';
import { answerLogoUpload } from './logo-status.js';
import { codeText } from './render-preview.js';
import { withLogo } from './with-logo.js';

/**
 * POST /codes/:id/design/logo (multipart): the code's current look with this logo, saved as the code's own
 * design (as last saved: the editor's unsaved fields stay in the browser, see logo-status.tsx). Refused with the
 * reasons when the logo would cover too much of this code to scan.
 */
export function uploadCodeLogo(deps: DashboardDependencies): RequestHandler<{ id: string }> {
  return async (req, res) => {
    const { accountId } = sessionOf(res).user;
    const codeId = req.params.id;
    // The code is checked before the upload is read: another account's id is a 404 without reading the file.
    const [code, look] = await Promise.all([getQrCode(deps.db, { accountId, id: codeId }), designOfCode(deps.db, accountId, codeId)]);
    await answerLogoUpload(req, res, { hadLogo: look.design?.logo != null, then: `/codes/${encodeURIComponent(codeId)}/design?done=logo` }, async () => {
      const png = await readLogoUpload(req);
      const text = await codeText(deps, code, accountId);
      const checked = checkedDesign(withLogo(look.design ?? DEFAULT_DESIGN, png), text);
      if (!checked.ok) {
        throw new DashboardError(400, 'The logo was not saved', checked.problems.map(problemInWords).join(' '));
      }
      await setCodeDesign(deps.db, { accountId, codeId, design: checked.design, text });
    });
  };
}
