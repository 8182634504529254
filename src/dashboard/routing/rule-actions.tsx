import type { Request, RequestHandler, Response } from 'express';
import type { QrCode } from '../../codes/index.js';
import { routingTimeZone } from '../../routing/wall-clock.js';
import { pageContext, sessionOf, type DashboardDependencies } from '../shared/context.js';
import { DashboardError } from '../shared/errors.js';
import { formText } from '../shared/forms.js';
import { sendPage } from '../shared/render.js';
import { entriesOf } from './form-values.js';
import { loadCode, routingZone } from './render-routing-page.js';
import { EMPTY_RULE, readRuleForm, ruleErrors, ruleFormValues, type RuleFormErrors, type RuleFormValues } from './rule-form.js';
import { RulePage } from './rule-page.js';
import { routingInput, saveRouting } from './save-routing.js';

type Params = { id: string; ruleId?: string };

function ruleIndex(code: QrCode, ruleId: string | undefined): number {
  const index = ruleId === undefined ? -1 : (code.routing?.rules.findIndex((rule) => rule.id === ruleId) ?? -1);
  if (ruleId !== undefined && index < 0) throw new DashboardError(404, 'Rule not found', 'This code has no such rule: it may have been removed meanwhile.');
  return index;
}

function renderRule(
  req: Request<Params>,
  res: Response,
  code: QrCode,
  form: { values: RuleFormValues; errors?: RuleFormErrors; general?: string[]; zone?: string },
  status = 200,
): void {
  const index = ruleIndex(code, req.params.ruleId);
  sendPage(
    res,
    <RulePage
      context={pageContext(res)}
      code={code}
      ruleId={req.params.ruleId}
      position={index < 0 ? (code.routing?.rules.length ?? 0) + 1 : index + 1}
      values={form.values}
      errors={form.errors}
      general={form.general}
      zone={form.zone ?? routingZone(code, req)}
      newRouting={code.routing === null}
    />,
    status,
  );
}

/** GET /codes/:id/routing/rules/new and /codes/:id/routing/rules/:ruleId */
export function showRule(deps: DashboardDependencies): RequestHandler<Params> {
  return async (req, res) => {
    const code = await loadCode(deps, req, res);
    const index = ruleIndex(code, req.params.ruleId);
    const rule = index < 0 ? undefined : code.routing!.rules[index]!;
    renderRule(req, res, code, { values: rule ? ruleFormValues(rule, routingZone(code, req)) : EMPTY_RULE });
  };
}

/**
 * POST /codes/:id/routing/rules (a new rule, last) and /codes/:id/routing/rules/:ruleId (an edit, sent back with its
 * id so scans keep naming it). The whole routing is sent as stored with this one rule changed; the service checks it
 * against the stored one under the code's lock.
 */
export function saveRule(deps: DashboardDependencies): RequestHandler<Params> {
  return async (req, res) => {
    const { user } = sessionOf(res);
    const code = await loadCode(deps, req, res);
    const index = ruleIndex(code, req.params.ruleId);
    // The zone the form's dates were shown in; without a routing yet, the one chosen in the form.
    const sentZone = formText(req.body, 'zone').trim();
    const zone = code.routing?.timeZone ?? routingTimeZone(sentZone === '' ? 'UTC' : sentZone);
    if (zone === undefined) {
      const values = readRuleForm(req.body, 'UTC').values;
      renderRule(req, res, code, { values, errors: { zone: 'The time zone must be an IANA time zone name, such as Europe/Berlin.' }, zone: sentZone.slice(0, 100) }, 400);
      return;
    }
    const form = readRuleForm(req.body, code.routing ? (routingTimeZone(sentZone) ?? zone) : zone);
    if (!form.ok) {
      renderRule(req, res, code, { values: form.values, errors: form.errors, zone }, 400);
      return;
    }
    const routing = routingInput(code.routing, zone);
    const at = index < 0 ? routing.rules.length : index;
    routing.rules[at] = index < 0 ? form.rule : { id: code.routing!.rules[index]!.id, ...form.rule };
    const saved = await saveRouting(deps.db, { accountId: user.accountId, userId: user.userId, codeId: code.id, changes: { routing } });
    if (!saved.ok) {
      const when = form.rule.when as Record<string, string[] | undefined>;
      const { errors, general } = ruleErrors(saved.problems, at, {
        os: when.os ?? [],
        browsers: when.browsers ?? [],
        countries: entriesOf(form.values.countries),
        languages: entriesOf(form.values.languages),
      });
      if (saved.problems.some((problem) => problem.path === '/body/routing/timeZone')) errors.zone = 'The time zone must be an IANA time zone name, such as Europe/Berlin.';
      renderRule(req, res, code, { values: form.values, errors, general: general.filter((message) => !message.includes('IANA')), zone }, 400);
      return;
    }
    res.redirect(303, `/codes/${encodeURIComponent(code.id)}/routing?done=${index < 0 ? 'rule-added' : 'rule-saved'}`);
  };
}

/**
 * POST /codes/:id/routing/rules/:ruleId/move (direction up or down) and …/remove: the rest is kept as stored. A rule
 * removed meanwhile, or a move past either end, changes nothing and says so on the list (htmx swaps only the list,
 * so an error page would have nothing to swap in).
 */
export function changeRuleOrder(deps: DashboardDependencies, change: 'move' | 'remove'): RequestHandler<Params> {
  return async (req, res) => {
    const { user } = sessionOf(res);
    const code = await loadCode(deps, req, res);
    const back = (what: string) => res.redirect(303, `/codes/${encodeURIComponent(code.id)}/routing?done=${what}`);
    const index = code.routing?.rules.findIndex((rule) => rule.id === req.params.ruleId) ?? -1;
    if (index < 0) return back('rule-gone');
    const routing = routingInput(code.routing, 'UTC');
    if (change === 'remove') {
      routing.rules.splice(index, 1);
    } else {
      const direction = formText(req.body, 'direction');
      const other = direction === 'up' ? index - 1 : direction === 'down' ? index + 1 : -1;
      if (other < 0 || other >= routing.rules.length) return back('rule-conflict');
      [routing.rules[index], routing.rules[other]] = [routing.rules[other]!, routing.rules[index]!];
    }
    const saved = await saveRouting(deps.db, { accountId: user.accountId, userId: user.userId, codeId: code.id, changes: { routing } });
    // The stored routing passed parseRouting and only its order or length changed: only a change made meanwhile
    // (a rule removed in another tab) can be refused.
    back(saved.ok ? (change === 'remove' ? 'rule-removed' : 'rule-moved') : 'rule-conflict');
  };
}
