import type { Request, Response } from 'express';
import { createTypedCode } from '../../codes/typed-code.js';
import type { CodeTypeName } from '../../codes/types/index.js';
import { ApiError } from '../../errors.js';
import { pageContext, type DashboardDependencies } from '../shared/context.js';
import { NewCodePage } from './new-code-page.js';
import { sendPage } from '../shared/render.js';
import { fileNamesOf } from './file-names.js';
import { TYPE_FORMS } from './type-forms/index.js';
import { deleteFiles, problemsByPath, readTypedSubmission, withoutFiles } from './typed-submission.js';
import { limitMessage, planUsage } from './plan-limit.js';

/**
 * POST /codes?type=…: a code of a type other than URL. Uploaded files are stored first; if the form is refused
 * they stay with it as "Uploaded: …" (sent again as hidden fields, so nothing is uploaded twice), and if the plan's
 * limit refuses the code they are deleted, since no change to the form can save it.
 */
export async function createTypedCodeFromForm(
  deps: DashboardDependencies,
  req: Request,
  res: Response,
  user: { accountId: string; userId: string },
  type: Exclude<CodeTypeName, 'URL'>,
): Promise<void> {
  const form = TYPE_FORMS[type];
  const submission = await readTypedSubmission(deps, req, user.accountId, form);
  const again = async (status: number, problems: Record<string, { message: string; whole?: boolean }>, content: Record<string, unknown>, atLimit = false) => {
    const usage = await planUsage(deps.db, user.accountId);
    const state = { name: submission.name, content, problems, fileNames: await fileNamesOf(deps.db, user.accountId, form, content) };
    sendPage(res, <NewCodePage context={pageContext(res)} usage={usage} type={type} typed={state} limitMessage={atLimit ? limitMessage(usage) : undefined} />, status);
  };
  if (Object.keys(submission.uploadProblems).length > 0) {
    await again(400, submission.uploadProblems, submission.content);
    return;
  }
  try {
    const result = await createTypedCode(deps.db, {
      accountId: user.accountId,
      name: submission.name,
      type,
      content: submission.content,
      actor: { kind: 'user', userId: user.userId },
      siteUrl: deps.config.siteUrl,
    });
    if (!result.ok) {
      await again(400, problemsByPath(result.problems, form), submission.content);
      return;
    }
    res.redirect(303, `/codes/${result.code.id}?done=created`);
  } catch (error) {
    // The same limit, checked under the same lock, as the API's 402 plan_limit_reached.
    if (!(error instanceof ApiError) || error.code !== 'plan_limit_reached') throw error;
    await deleteFiles(deps, user.accountId, submission.storedFileIds);
    await again(402, {}, withoutFiles(form, submission.content, submission.storedFileIds), true);
  }
}
