import type { RequestHandler } from 'express';
import { updateQrCode } from '../../../codes/index.js';
import { sessionOf, type DashboardDependencies } from '../../context.js';
import { readCodeForm } from './code-form.js';
import { renderCodePage } from './render-code-page.js';

/** POST /codes/:id: a new name and destination; a changed destination enters the history as this person's. */
export function updateCode(deps: DashboardDependencies): RequestHandler<{ id: string }> {
  return async (req, res) => {
    const { user } = sessionOf(res);
    const form = readCodeForm(req.body);
    if (!form.ok) {
      await renderCodePage(deps, req, res, { status: 400, edit: { values: form.values, errors: form.errors } });
      return;
    }
    await updateQrCode(deps.db, {
      accountId: user.accountId,
      id: req.params.id,
      changes: { name: form.name, destinationUrl: form.destinationUrl },
      actor: { kind: 'user', userId: user.userId },
    });
    res.redirect(303, `/codes/${encodeURIComponent(req.params.id)}?done=saved`);
  };
}
