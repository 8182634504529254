import type { RequestHandler } from 'express';
import { getAccount } from '../../accounts/account-service.js';
import { countQrCodes, InvalidCursorError, searchQrCodes, type CodeFilter } from '../../codes/index.js';
import type { Db } from '../../db/schema/index.js';
import { isHtmx, pageContext, sessionOf, type DashboardDependencies } from '../shared/context.js';
import { CodeListPage } from './code-list-page.js';
import { CodeResults } from './code-results.js';
import { withShortUrl } from './code-row.js';
import { sendFragment, sendPage } from '../shared/render.js';
import { staleReadsOf } from '../shared/stale-reads.js';
import { pagerLinks, parseListQuery, type ListQuery } from './list-query.js';

export const CODES_PER_PAGE = 25;
/**
 * "1,000+ codes match" says enough. Counting the matches is the slow part of a search: at 1M codes in one account,
 * a term in 10-20% of the names took 45-430 ms to count to 10,000 and 15-80 ms to 1,000 (the page itself 2-6 ms).
 */
const COUNT_CAP = 1_000;

/** GET /codes: the account's codes, searched, filtered and paged; htmx's active search gets the results only. */
export function showCodeList(deps: DashboardDependencies): RequestHandler {
  return async (req, res) => {
    const context = pageContext(res);
    const { accountId } = sessionOf(res).user;
    let query = parseListQuery(req.query);
    const filter: CodeFilter = { accountId, query: query.q, state: query.state };
    // A list may be a moment behind (a read replica); this browser's own changes are never missing from it.
    const reads = staleReadsOf(res);
    const found = await reads.read((db) => searchPage(db, filter, query));
    if (found.fromStart) query = { ...query, after: undefined, trail: [] };
    // A first page with no next page holds every match: counted already.
    const count =
      !query.after && found.nextCursor === null
        ? { count: found.codes.length, capped: false }
        : await reads.read((db) => countQrCodes(db, { ...filter, cap: COUNT_CAP }));
    const data = {
      codes: found.codes.map((code) => withShortUrl(code, deps.config.siteUrl)),
      count,
      pager: pagerLinks(query, found.nextCursor),
    };
    if (isHtmx(req) && req.headers['hx-target'] === 'code-results') {
      sendFragment(res, <CodeResults query={query} data={data} />);
      return;
    }
    const account = await getAccount(deps.db, accountId);
    const usage = { plan: account.plan, used: account.codeCount, limit: account.codeLimit };
    sendPage(res, <CodeListPage context={context} query={query} data={data} usage={usage} deleted={req.query.deleted === '1'} />);
  };
}

/** A cursor that is not a code id (a mangled link) shows the first page rather than an error. */
async function searchPage(db: Db, filter: CodeFilter, query: ListQuery) {
  const input = { ...filter, limit: CODES_PER_PAGE };
  try {
    return { ...(await searchQrCodes(db, { ...input, ...(query.after && { cursor: query.after }) })), fromStart: false };
  } catch (error) {
    if (!(error instanceof InvalidCursorError)) throw error;
    return { ...(await searchQrCodes(db, input)), fromStart: true };
  }
}
