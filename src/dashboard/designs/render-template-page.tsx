import type { Request, Response } from 'express';
import { searchQrCodes } from '../../codes/index.js';
import { designsOfCodes, getDesignTemplate } from '../../designs/index.js';
import { pageContext, sessionOf, type DashboardDependencies } from '../shared/context.js';
import { DesignTemplatePage, TEMPLATE_DONE } from './design-template-page.js';
import { sendPage } from '../shared/render.js';
import { designFormValues, designInput, type DesignFormValues } from './design-form.js';
import { previewWithLastGood, renderPreview, sampleText } from './render-preview.js';

/** Codes offered on a template's page to apply it to: a page of the newest, or of those matching a search. */
const APPLY_LIST_LIMIT = 100;

/** A template's page, as stored or with a refused form as sent. */
export async function renderTemplatePage(
  deps: DashboardDependencies,
  req: Request<{ id: string }>,
  res: Response,
  refused?: { values: DesignFormValues; name: string; error: string },
): Promise<void> {
  const { accountId } = sessionOf(res).user;
  const query = typeof req.query.q === 'string' ? req.query.q.slice(0, 200) : '';
  const [template, { codes }] = await Promise.all([
    getDesignTemplate(deps.db, { accountId, id: req.params.id }),
    searchQrCodes(deps.db, { accountId, query, limit: APPLY_LIST_LIMIT }),
  ]);
  const looks = await designsOfCodes(
    deps.db,
    accountId,
    codes.map((code) => code.id),
  );
  const values = refused?.values ?? designFormValues(template.design);
  const text = sampleText(deps);
  const preview = await previewWithLastGood(deps, await renderPreview(deps, designInput(values, template.design.logo?.png ?? null), text), template.design, text);
  const done = typeof req.query.done === 'string' && Object.hasOwn(TEMPLATE_DONE, req.query.done) ? (req.query.done as keyof typeof TEMPLATE_DONE) : undefined;
  const applied = typeof req.query.applied === 'string' && /^\d{1,6}$/.test(req.query.applied) ? Number(req.query.applied) : undefined;
  sendPage(
    res,
    <DesignTemplatePage
      context={pageContext(res)}
      template={template}
      name={refused?.name ?? template.name}
      values={values}
      preview={preview}
      codes={codes.map((code) => {
        const look = looks.get(code.id);
        return { code, following: look?.source === 'template' && look.template.id === template.id };
      })}
      query={query}
      done={refused ? undefined : done}
      applied={applied}
      error={refused?.error}
    />,
    refused ? 400 : 200,
  );
}
