import { h } from 'preact';
import { render } from 'preact-render-to-string';
import { describe, expect, it } from 'vitest';
import { CityTable, CountryTable, LanguageTable, ReferrerTable } from '../../src/dashboard/analytics/audience-tables.js';
import { RankedCodes } from '../../src/dashboard/analytics/ranked-codes.js';
import { scanSteps, shadeOf } from '../../src/dashboard/analytics/scan-steps.js';
import { WeekHourHeatmap } from '../../src/dashboard/analytics/week-hour-heatmap.js';
import { mapSummary, WorldMap } from '../../src/dashboard/analytics/world-map.js';

const COUNTRIES = [
  { code: 'DE', scans: 12, uniques: 9 },
  { code: 'US', scans: 1, uniques: 1 },
  { code: 'SG', scans: 3, uniques: 2 },
  { code: 'XK', scans: 2, uniques: 2 },
];
const filter = (code: string) => `/analytics?country=${code}`;

/** The map's markup for the country titled `title`: its path or dot, with the link around it if it has one. */
function shapeOf(svg: string, title: string): string {
  const at = svg.indexOf(`<title>${title}</title>`);
  expect(at, title).toBeGreaterThan(0);
  const shape = Math.max(svg.lastIndexOf('<path', at), svg.lastIndexOf('<circle', at));
  const link = svg.lastIndexOf('<a ', shape);
  return svg.slice(link >= 0 && /^<a [^>]*>$/.test(svg.slice(link, shape)) ? link : shape, at);
}

describe('world map', () => {
  const html = render(h(WorldMap, { countries: COUNTRIES, filterHref: filter, selected: 'de' }));
  const svg = html.slice(html.indexOf('<svg'), html.indexOf('</svg>') + 6);

  it('draws every country from the shapes, sized by its viewBox to the width it is given', () => {
    expect(svg).toMatch(/^<svg viewBox="0 0 960 4\d\d" width="100%" aria-hidden="true"/);
    expect(svg.match(/<path /g)!.length).toBeGreaterThan(170);
    // Small enough to inline in every analytics page (measured: about 51 kB, 13 kB gzipped).
    expect(svg.length).toBeLessThan(60_000);
  });

  it('links each country with scans to the page filtered to it, and names it with its numbers', () => {
    expect(shapeOf(svg, 'Germany: 12 scans, 9 unique')).toMatch(/^<a href="\/analytics\?country=DE" tabindex="-1"><path class="shade-5 selected" d="M/i);
    expect(shapeOf(svg, 'United States: 1 scan, 1 unique')).toMatch(/^<a href="\/analytics\?country=US" tabindex="-1"><path class="shade-1"/i);
    expect(shapeOf(svg, 'Kosovo: 2 scans, 2 unique')).toContain('country=XK');
    expect(shapeOf(svg, 'France: no scans')).toMatch(/^<path class="shade-0" d="M/);
    expect(svg).not.toContain('country=FR');
  });

  it('marks a country too small for the shapes with a dot when it has scans', () => {
    expect(shapeOf(svg, 'Singapore: 3 scans, 2 unique')).toMatch(/^<a href="\/analytics\?country=SG" tabindex="-1"><circle class="shade-\d dot"/i);
    expect(svg).not.toContain('Malta');
  });

  it('names the figure with a summary and shows the legend', () => {
    expect(html).toContain('World map of scans by country: scans from 4 countries, the most from Germany (12).');
    expect(html).toMatch(/Scans per country:.*none.*> 1<.*2–4.*5–9.*10–12/);
    expect(mapSummary([])).toBe('World map of scans by country: no scans from a known country.');
  });

  it('links nowhere without a filter', () => {
    expect(render(h(WorldMap, { countries: COUNTRIES }))).not.toContain('<a ');
  });
});

describe('colour steps', () => {
  it('grows geometrically at round numbers, the busiest step always the strongest shade', () => {
    expect(scanSteps(12_000).map((step) => [step.label, step.shade])).toEqual([
      ['1–4', 1], ['5–49', 2], ['50–199', 3], ['200–1,999', 4], ['2,000–12,000', 5],
    ]);
    expect(scanSteps(3).map((step) => [step.label, step.shade])).toEqual([['1', 1], ['2', 3], ['3', 5]]);
    expect(scanSteps(1).map((step) => step.shade)).toEqual([3]);
    expect(scanSteps(0)).toEqual([]);
  });

  it('shades each count by its step, and none as 0', () => {
    const steps = scanSteps(12_000);
    expect([0, 1, 4, 5, 199, 200, 12_000].map((scans) => shadeOf(scans, steps))).toEqual([0, 1, 1, 2, 3, 4, 5]);
  });
});

describe('audience tables', () => {
  it('names countries in English, links them to the filter and marks the one filtered to', () => {
    const html = render(h(CountryTable, { countries: [...COUNTRIES, { code: null, scans: 2, uniques: 1 }], filterHref: filter, selected: 'US' }));
    expect(html).toContain('<a href="/analytics?country=DE">Germany</a></th><td class="numeric">12</td><td class="numeric">9</td><td class="numeric">60%</td>');
    expect(html).toContain('<a href="/analytics?country=US" aria-current="true">United States</a>');
    expect(html).toContain('<th scope="row">Unknown</th>');
    expect(html).toContain('role="region" aria-label="Country table"');
  });

  it('sums the tail as "Other", which filters nothing', () => {
    const html = render(h(CountryTable, { countries: [{ code: 'DE', scans: 5, uniques: 4 }, { code: 'other', scans: 3, uniques: 3, other: true }], filterHref: filter }));
    expect(html).toContain('<th scope="row">Other</th><td class="numeric">3</td>');
    expect(html).not.toContain('country=other');
    expect(render(h(WorldMap, { countries: [{ code: 'other', scans: 3, uniques: 3, other: true }], filterHref: filter }))).not.toContain('<a ');
  });

  it('names languages in English and lists cities with their region and country', () => {
    const languages = render(h(LanguageTable, { languages: [{ value: 'de', scans: 3, uniques: 2 }, { value: null, scans: 1, uniques: 1 }], filterHref: (value: string) => `?language=${value}` }));
    expect(languages).toContain('<a href="?language=de">German</a>');
    expect(languages).toContain('<th scope="row">Unknown</th>');
    const cities = render(h(CityTable, { cities: [{ city: 'Munich', region: 'Bavaria', country: 'DE', scans: 4, uniques: 3 }] }));
    expect(cities).toContain('<th scope="row">Munich</th><td>Bavaria</td><td>Germany</td><td class="numeric">4</td>');
    const referrers = render(h(ReferrerTable, { referrers: [{ value: null, scans: 5, uniques: 5 }], total: 10 }));
    expect(referrers).toContain('<th scope="row">No referrer</th><td class="numeric">5</td><td class="numeric">5</td><td class="numeric">50%</td>');
    expect(render(h(CityTable, { cities: [] }))).toContain('No scans with a known city');
  });
});

describe('weekday × hour heatmap', () => {
  const html = render(h(WeekHourHeatmap, { cells: [{ weekday: 0, hour: 14, scans: 12 }, { weekday: 6, hour: 23, scans: 1 }, { weekday: 6, hour: 23, scans: 2 }], timeZone: 'Asia/Kolkata' }));

  it('is a table of 7 weekdays from Monday by 24 hours, in the zone it names', () => {
    expect(html).toContain('in <strong>Asia/Kolkata</strong>');
    expect(html.match(/<th scope="col"/g)).toHaveLength(24);
    const rows = [...html.matchAll(/<span class="visually-hidden">(\w+day)<\/span>/g)].map((match) => match[1]);
    expect(rows).toEqual(['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']);
    expect(html.match(/<td class="shade-/g)).toHaveLength(7 * 24);
  });

  it('gives each cell its count as text and as a tooltip, shaded by its step', () => {
    expect(html).toContain('<td class="shade-5" title="Monday 14:00–15:00: 12 scans"><span class="visually-hidden">12 scans</span></td>');
    expect(html).toContain('title="Sunday 23:00–24:00: 3 scans"');
    expect(html).toContain('title="Tuesday 09:00–10:00: 0 scans"');
  });
});

describe('codes ranked by scans', () => {
  it('ranks by scans, then unique scans, numbering each and linking to it', () => {
    const html = render(
      h(RankedCodes, {
        codes: [
          { id: 'a', name: 'Poster', href: '/codes/a/analytics', scans: 5, uniques: 3 },
          { id: 'b', name: 'Menu', href: '/codes/b/analytics', scans: 9, uniques: 1 },
          { id: 'c', name: 'Card', href: '/codes/c/analytics', scans: 5, uniques: 4 },
        ],
      }),
    );
    const order = [...html.matchAll(/<td class="numeric">(\d)<\/td><th scope="row"><a href="[^"]+">(\w+)<\/a>/g)].map((match) => `${match[1]} ${match[2]}`);
    expect(order).toEqual(['1 Menu', '2 Card', '3 Poster']);
    expect(render(h(RankedCodes, { codes: [] }))).toContain('No code was scanned in this range.');
  });
});
