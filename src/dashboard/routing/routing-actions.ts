import type { RequestHandler } from 'express';
import { routingTimeZone } from '../../routing/wall-clock.js';
import { sessionOf, type DashboardDependencies } from '../shared/context.js';
import { DashboardError } from '../shared/errors.js';
import { formText } from '../shared/forms.js';
import { loadCode, renderRoutingPage, routingZone } from './render-routing-page.js';
import { readScheduleForm, readSplitForm, scheduleErrors, splitErrors } from './routing-forms.js';
import { routingInput, saveRouting } from './save-routing.js';

type Params = { id: string };

const done = (codeId: string, what: string) => `/codes/${encodeURIComponent(codeId)}/routing?done=${what}`;

/** GET /codes/:id/routing[?try=1&os=…] */
export function showRouting(deps: DashboardDependencies): RequestHandler<Params> {
  return async (req, res) => renderRoutingPage(req, res, await loadCode(deps, req, res));
}

/** POST /codes/:id/routing/split: the variants as sent (rules kept as stored); weights must add up to 100. */
export function saveSplit(deps: DashboardDependencies): RequestHandler<Params> {
  return async (req, res) => {
    const { user } = sessionOf(res);
    const code = await loadCode(deps, req, res);
    if (code.type !== 'URL') throw new DashboardError(400, 'No split for this code', `A split is for URL codes only; this is a ${code.type} code.`);
    const form = readSplitForm(req.body);
    if (form.errors.split || form.errors.rows.length > 0) {
      renderRoutingPage(req, res, code, { split: { rows: form.rows, errors: form.errors } });
      return;
    }
    const routing = routingInput(code.routing, routingZone(code, req));
    routing.split = form.variants.map(({ destinationUrl, weight }) => ({ destinationUrl, weight }));
    const saved = await saveRouting(deps.db, { accountId: user.accountId, userId: user.userId, codeId: code.id, changes: { routing } });
    if (!saved.ok) {
      const { errors, general } = splitErrors(saved.problems, form.variants.map((variant) => variant.row));
      if (general.length > 0) errors.split ??= general.join(' ');
      renderRoutingPage(req, res, code, { split: { rows: form.rows, errors } });
      return;
    }
    res.redirect(303, done(code.id, 'split-saved'));
  };
}

/** POST /codes/:id/routing/split/remove: scans no rule answers go to the destination (the first variant's). */
export function removeSplit(deps: DashboardDependencies): RequestHandler<Params> {
  return async (req, res) => {
    const { user } = sessionOf(res);
    const code = await loadCode(deps, req, res);
    if (code.routing?.split) {
      const routing = routingInput(code.routing, code.routing.timeZone);
      routing.split = null;
      const saved = await saveRouting(deps.db, { accountId: user.accountId, userId: user.userId, codeId: code.id, changes: { routing } });
      if (!saved.ok) throw new DashboardError(409, 'The routing changed meanwhile', 'Reload the page and try again.');
    }
    res.redirect(303, done(code.id, 'split-removed'));
  };
}

/** POST /codes/:id/routing/schedule: start, expiry, scan limit and expired URL; an empty field removes it. */
export function saveSchedule(deps: DashboardDependencies): RequestHandler<Params> {
  return async (req, res) => {
    const { user } = sessionOf(res);
    const code = await loadCode(deps, req, res);
    // Read in the zone the fields were shown in (the page's, even if the routing's changed since).
    const zone = routingTimeZone(formText(req.body, 'zone')) ?? routingZone(code, req);
    const form = readScheduleForm(req.body, zone);
    if (!form.ok) {
      renderRoutingPage(req, res, code, { schedule: { values: form.values, errors: form.errors } });
      return;
    }
    const saved = await saveRouting(deps.db, { accountId: user.accountId, userId: user.userId, codeId: code.id, changes: form.changes });
    if (!saved.ok) {
      const { errors, general } = scheduleErrors(saved.problems);
      if (general.length > 0) errors.activeFrom ??= general.join(' ');
      renderRoutingPage(req, res, code, { schedule: { values: form.values, errors } });
      return;
    }
    res.redirect(303, done(code.id, 'schedule-saved'));
  };
}

/** POST /codes/:id/routing/time-zone: the zone weekdays and hours are read in (instants stay the same moments). */
export function saveTimeZone(deps: DashboardDependencies): RequestHandler<Params> {
  return async (req, res) => {
    const { user } = sessionOf(res);
    const code = await loadCode(deps, req, res);
    const sent = formText(req.body, 'timeZone').trim();
    const zone = routingTimeZone(sent === '' ? 'UTC' : sent);
    if (zone === undefined) {
      renderRoutingPage(req, res, code, { zoneForm: { value: sent.slice(0, 100), error: 'The time zone must be an IANA time zone name, such as Europe/Berlin.' } });
      return;
    }
    const routing = routingInput(code.routing, zone);
    routing.timeZone = zone;
    const saved = await saveRouting(deps.db, { accountId: user.accountId, userId: user.userId, codeId: code.id, changes: { routing } });
    if (!saved.ok) throw new DashboardError(409, 'The routing changed meanwhile', 'Reload the page and try again.');
    res.redirect(303, done(code.id, 'zone-saved'));
  };
}
