import type { Request } from 'express';
import type { CodeState } from '../../codes/index.js';

/** What the code list shows: a search, a state filter, and where in the newest-first order the page starts. */
export interface ListQuery {
  q: string;
  state: CodeState;
  /** The cursor: the id of the last code on the previous page (absent on the first page). */
  after?: string;
  /**
   * The cursors of the pages before this one (oldest first), so "Previous page" is a plain link: the search
   * pages forward only (id below the cursor), and carrying the trail needs no second, backwards query.
   */
  trail: string[];
}

const STATES: readonly CodeState[] = ['all', 'active', 'paused'];
const MAX_QUERY_LENGTH = 200;
// Ids are 29 characters; a longer value is not a cursor of ours.
const MAX_CURSOR_LENGTH = 40;
// About 1.5 KB of URL at most: going back further than this lands on the first page, which nobody paging
// 50 pages deep will mind (they search instead).
const MAX_TRAIL = 50;

export function parseListQuery(query: Request['query']): ListQuery {
  const text = (name: string) => {
    const value = query[name];
    return typeof value === 'string' ? value : '';
  };
  const state = text('state') as CodeState;
  const after = text('after');
  const trail = text('trail')
    .split(',')
    .filter((cursor) => cursor !== '' && cursor.length <= MAX_CURSOR_LENGTH)
    .slice(-MAX_TRAIL);
  return {
    q: text('q').slice(0, MAX_QUERY_LENGTH),
    state: STATES.includes(state) ? state : 'all',
    ...(after !== '' && after.length <= MAX_CURSOR_LENGTH && { after }),
    trail,
  };
}

/** The list's URL for a query: only what differs from the defaults, so the first page is plain `/codes`. */
export function listHref(query: ListQuery): string {
  const params = new URLSearchParams();
  if (query.q.trim() !== '') params.set('q', query.q);
  if (query.state !== 'all') params.set('state', query.state);
  if (query.after) params.set('after', query.after);
  if (query.after && query.trail.length > 0) params.set('trail', query.trail.join(','));
  const search = params.toString();
  return search ? `/codes?${search}` : '/codes';
}

/** The links of the pager, or undefined where there is no such page. */
export function pagerLinks(query: ListQuery, nextCursor: string | null): { previous?: string; next?: string } {
  const links: { previous?: string; next?: string } = {};
  if (nextCursor) {
    const trail = query.after ? [...query.trail, query.after].slice(-MAX_TRAIL) : [];
    links.next = listHref({ ...query, after: nextCursor, trail });
  }
  if (query.after) {
    const previousCursor = query.trail.at(-1);
    links.previous = listHref({ q: query.q, state: query.state, ...(previousCursor && { after: previousCursor }), trail: query.trail.slice(0, -1) });
  }
  return links;
}
