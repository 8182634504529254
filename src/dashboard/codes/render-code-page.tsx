import type { Request, Response } from 'express';
import { getQrCode, listDestinationChanges } from '../../codes/index.js';
import { isDirectWifi } from '../../codes/image-text.js';
import { currentContent } from '../../codes/update-typed-code.js';
import { isCodeTypeName } from '../../codes/types/index.js';
import { namesakesOf } from '../../codes/namesakes.js';
import { pageContext, sessionOf, type DashboardDependencies } from '../shared/context.js';
import { CodePage, DONE_MESSAGES, type CodePageProps } from './code-page.js';
import { withShortUrl } from './code-row.js';
import type { TypedFormState } from './typed-code-form.js';
import { sendPage } from '../shared/render.js';
import { viewerTimeZone } from '../shared/viewer-time-zone.js';
import { fileNamesOf } from './file-names.js';
import { TYPE_FORMS } from './type-forms/index.js';

/** The history a code's page shows; a code changed more often than this says so under the table. */
const HISTORY_LIMIT = 50;

/**
 * Sends the page of the signed-in account's code `:id` (another account's id is a 404 from the service), for
 * GET and for an edit that was refused. A code of a type other than URL is edited with its type's form, filled
 * from its stored content (or from what was sent, when refused).
 */
export async function renderCodePage(
  deps: DashboardDependencies,
  req: Request<{ id: string }>,
  res: Response,
  options: { status?: number; edit?: CodePageProps['edit']; typedEdit?: TypedFormState } = {},
): Promise<void> {
  const { accountId } = sessionOf(res).user;
  const codeId = req.params.id;
  const [code, history] = await Promise.all([
    getQrCode(deps.db, { accountId, id: codeId }),
    listDestinationChanges(deps.db, { accountId, codeId, limit: HISTORY_LIMIT }),
  ]);
  const [namesakes, stored] = await Promise.all([
    namesakesOf(deps.db, { accountId, id: code.id, name: code.name }),
    code.type === 'URL' ? undefined : currentContent(deps.db, { accountId, id: codeId }),
  ]);
  let typed = options.typedEdit;
  if (typed === undefined && code.type !== 'URL' && isCodeTypeName(code.type)) {
    const content = typeof stored === 'object' && stored !== null ? (stored as Record<string, unknown>) : {};
    typed = { name: code.name, content, problems: {}, fileNames: await fileNamesOf(deps.db, accountId, TYPE_FORMS[code.type], content) };
  }
  // What the printed image holds is what is stored, not what a refused form sent.
  const directWifi = code.type === 'WIFI' && isDirectWifi(stored);
  const refused = options.edit !== undefined || options.typedEdit !== undefined;
  const done = typeof req.query.done === 'string' && Object.hasOwn(DONE_MESSAGES, req.query.done) ? (req.query.done as keyof typeof DONE_MESSAGES) : undefined;
  const page = (
    <CodePage
      context={pageContext(res)}
      code={withShortUrl(code, deps.config.siteUrl)}
      history={history}
      historyLimit={HISTORY_LIMIT}
      zone={viewerTimeZone(req)}
      done={refused ? undefined : done}
      edit={options.edit}
      typedEdit={typed}
      refused={refused}
      directWifi={directWifi}
      namesakes={namesakes}
    />
  );
  sendPage(res, page, options.status);
}
