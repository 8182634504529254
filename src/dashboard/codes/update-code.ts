import type { RequestHandler } from 'express';
import { getQrCode } from '../../codes/index.js';
import { updateTypedCode } from '../../codes/update-typed-code.js';
import { isCodeTypeName } from '../../codes/types/index.js';
import { sessionOf, type DashboardDependencies } from '../shared/context.js';
import { readCodeForm } from './code-form.js';
import { fileNamesOf } from './file-names.js';
import { renderCodePage } from './render-code-page.js';
import { TYPE_FORMS } from './type-forms/index.js';
import { problemsByPath, readTypedSubmission } from './typed-submission.js';

/**
 * POST /codes/:id: a new name and content, checked by the code's type's schema; a redirect type's new destination
 * enters the history as this person's. Files uploaded with a refused form stay with it (see create-typed-code).
 */
export function updateCode(deps: DashboardDependencies): RequestHandler<{ id: string }> {
  return async (req, res) => {
    const { user } = sessionOf(res);
    const actor = { kind: 'user', userId: user.userId } as const;
    const code = await getQrCode(deps.db, { accountId: user.accountId, id: req.params.id });
    if (code.type === 'URL' || !isCodeTypeName(code.type)) {
      const form = readCodeForm(req.body);
      if (!form.ok) {
        await renderCodePage(deps, req, res, { status: 400, edit: { values: form.values, errors: form.errors } });
        return;
      }
      // The form applied the URL schema's own rule (src/codes/code-input.ts), so this cannot refuse it.
      const result = await updateTypedCode(deps.db, { accountId: user.accountId, id: code.id, name: form.name, content: { url: form.destinationUrl }, actor });
      if (!result.ok) throw new Error(`URL code refused after the form accepted it: ${JSON.stringify(result.problems)}`);
      res.redirect(303, `/codes/${encodeURIComponent(code.id)}?done=saved`);
      return;
    }
    const form = TYPE_FORMS[code.type];
    const submission = await readTypedSubmission(deps, req, user.accountId, form);
    const again = async (problems: Record<string, { message: string; whole?: boolean }>) => {
      const fileNames = await fileNamesOf(deps.db, user.accountId, form, submission.content);
      await renderCodePage(deps, req, res, { status: 400, typedEdit: { name: submission.name, content: submission.content, problems, fileNames } });
    };
    if (Object.keys(submission.uploadProblems).length > 0) {
      await again(submission.uploadProblems);
      return;
    }
    const result = await updateTypedCode(deps.db, { accountId: user.accountId, id: code.id, name: submission.name, content: submission.content, actor });
    if (!result.ok) {
      await again(problemsByPath(result.problems, form));
      return;
    }
    res.redirect(303, `/codes/${encodeURIComponent(code.id)}?done=saved`);
  };
}
