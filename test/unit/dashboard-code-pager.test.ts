import { describe, expect, it } from 'vitest';
import { listHref, pagerLinks, parseListQuery } from '../../src/dashboard/codes/list-query.js';

/** Follows a link the way a browser would: the next page's query is parsed from the link's URL. */
function open(href: string) {
  return parseListQuery(Object.fromEntries(new URL(href, 'http://x').searchParams));
}

describe("the code list's pager", () => {
  it('walks forward four pages and back to the first, keeping the search and filter on every link', () => {
    const cursors = ['qr_C1', 'qr_C2', 'qr_C3'];
    const pages = [open('/codes?q=spring%20sale&state=paused')];
    for (const cursor of cursors) pages.push(open(pagerLinks(pages.at(-1)!, cursor).next!));
    expect(pages.map((page) => page.after)).toEqual([undefined, 'qr_C1', 'qr_C2', 'qr_C3']);
    expect(pages.every((page) => page.q === 'spring sale' && page.state === 'paused')).toBe(true);

    let page = pages.at(-1)!;
    const seen = [];
    while (page.after && seen.length < 5) {
      page = open(pagerLinks(page, null).previous!);
      seen.push(page.after);
    }
    expect(seen).toEqual(['qr_C2', 'qr_C1', undefined]);
    expect(listHref(page)).toBe('/codes?q=spring+sale&state=paused');
    expect(pagerLinks(page, 'qr_C1').previous).toBeUndefined();
  });

  it('ignores what it does not know: a state that is no state, an overlong search or cursor', () => {
    const query = parseListQuery({ state: 'deleted', q: 'x'.repeat(500), after: 'y'.repeat(100), trail: 'a,,b' });
    expect(query).toEqual({ q: 'x'.repeat(200), state: 'all', trail: ['a', 'b'] });
  });
});
