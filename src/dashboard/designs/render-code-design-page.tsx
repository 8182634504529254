import type { Request, Response } from 'express';
import { getQrCode } from '../../codes/index.js';
import { designOfCode, listDesignTemplates } from '../../designs/index.js';
import { DEFAULT_DESIGN } from '../../qr/design/design.js';
import { pageContext, sessionOf, type DashboardDependencies } from '../shared/context.js';
import { withShortUrl } from '../codes/code-row.js';
import { CODE_DESIGN_DONE, CodeDesignPage } from './code-design-page.js';
import { sendPage } from '../shared/render.js';
import { designFormValues, designInput, type DesignFormValues } from './design-form.js';
import { codeText, previewWithLastGood, renderPreview } from './render-preview.js';

/** The code's design page, as stored (GET) or with a refused form as sent (`refused`). */
export async function renderCodeDesignPage(
  deps: DashboardDependencies,
  req: Request<{ id: string }>,
  res: Response,
  refused?: { values: DesignFormValues; templateName?: string; error: string },
): Promise<void> {
  const { accountId } = sessionOf(res).user;
  const [code, look, templates] = await Promise.all([
    getQrCode(deps.db, { accountId, id: req.params.id }),
    designOfCode(deps.db, accountId, req.params.id),
    listDesignTemplates(deps.db, accountId),
  ]);
  const values = refused?.values ?? designFormValues(look.design ?? DEFAULT_DESIGN);
  const text = await codeText(deps, code, accountId);
  const preview = await previewWithLastGood(deps, await renderPreview(deps, designInput(values, look.design?.logo?.png ?? null), text), look.design ?? DEFAULT_DESIGN, text);
  const done = typeof req.query.done === 'string' && Object.hasOwn(CODE_DESIGN_DONE, req.query.done) ? (req.query.done as keyof typeof CODE_DESIGN_DONE) : undefined;
  sendPage(
    res,
    <CodeDesignPage
      context={pageContext(res)}
      code={withShortUrl(code, deps.config.siteUrl)}
      look={look}
      templates={templates}
      values={values}
      preview={preview}
      templateName={refused?.templateName}
      done={refused ? undefined : done}
      error={refused?.error}
    />,
    refused ? 400 : 200,
  );
}
