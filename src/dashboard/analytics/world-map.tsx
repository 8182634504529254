import type { ComponentChildren } from 'preact';
import { count } from './format.js';
import { countryName } from './place-names.js';
import { type ScanStep, scanSteps, shadeOf } from './scan-steps.js';
import { ScaleLegend } from './scale-legend.js';
import { MAP_WIDTH, worldShapes } from './world-shapes.js';

export interface CountryScans {
  /** ISO 3166-1 alpha-2, upper case ("DE"); XK for Kosovo. */
  code: string;
  scans: number;
  uniques: number;
  /** A row summing the countries below the top ones: not a place, so not drawn (give the map every country). */
  other?: boolean;
}

export interface WorldMapProps {
  countries: readonly CountryScans[];
  /** Where clicking a country goes (the page filtered to it); without it the map links nowhere. */
  filterHref?: (code: string) => string;
  /** The country the page is filtered to, outlined. */
  selected?: string;
}

/**
 * Scans by country as a map drawn on the server: an inline SVG from Natural Earth's shapes (world-shapes.ts), each
 * country shaded by its scans in up to five steps of one hue, which colour-blind people tell apart by lightness
 * (app.css picks shades for light and dark pages). A pointer clicks a country to filter the page, and its tooltip
 * says "Germany: 12 scans, 9 unique". The picture itself is hidden from screen readers: links may not sit inside
 * an image (role="img" hides its content, axe's nested-interactive), and 170 shapes are no way to read numbers. The
 * figure is named by its caption instead, a one-sentence summary and the legend, and the country table beside it
 * has every number and is how a keyboard filters (the map's links are out of the tab order).
 */
export function WorldMap(props: WorldMapProps) {
  const shapes = worldShapes();
  const byCode = new Map(props.countries.filter((country) => country.scans > 0 && !country.other).map((country) => [country.code.toUpperCase(), country]));
  const steps = scanSteps(Math.max(0, ...[...byCode.values()].map((country) => country.scans)));
  const selected = props.selected?.toUpperCase();
  const linked = (code: string, children: ComponentChildren) =>
    props.filterHref && byCode.has(code) ? (
      // Out of the tab order (and hidden with the picture): the table has the same links with their numbers.
      <a href={props.filterHref(code)} tabIndex={-1}>
        {children}
      </a>
    ) : (
      children
    );
  return (
    <figure class="world-map">
      <svg viewBox={`0 0 ${MAP_WIDTH} ${shapes.height}`} width="100%" aria-hidden="true" xmlns="http://www.w3.org/2000/svg">
        {shapes.countries.map(({ code, path }) =>
          linked(
            code,
            <path class={shapeClass(byCode.get(code)?.scans ?? 0, steps, code === selected)} d={path}>
              <title>{tooltip(code, byCode.get(code))}</title>
            </path>,
          ),
        )}
        {[...byCode.values()].flatMap((country) => {
          const dot = shapes.dots.get(country.code.toUpperCase());
          if (!dot) return [];
          return [
            linked(
              country.code.toUpperCase(),
              <circle class={`${shapeClass(country.scans, steps, country.code.toUpperCase() === selected)} dot`} cx={dot.x} cy={dot.y} r={5}>
                <title>{tooltip(country.code.toUpperCase(), country)}</title>
              </circle>,
            ),
          ];
        })}
      </svg>
      <ScaleLegend steps={steps} label="Scans per country:" summary={mapSummary(props.countries)} />
    </figure>
  );
}

function shapeClass(scans: number, steps: readonly ScanStep[], selected: boolean): string {
  return `shade-${shadeOf(scans, steps)}${selected ? ' selected' : ''}`;
}

function tooltip(code: string, country: CountryScans | undefined): string {
  if (!country) return `${countryName(code)}: no scans`;
  return `${countryName(code)}: ${count(country.scans)} ${country.scans === 1 ? 'scan' : 'scans'}, ${count(country.uniques)} unique`;
}

/** The map's name for a screen reader: what it shows and where most scans came from; the table has the rest. */
export function mapSummary(countries: readonly CountryScans[]): string {
  const known = countries.filter((country) => country.scans > 0 && !country.other);
  if (known.length === 0) return 'World map of scans by country: no scans from a known country.';
  const top = known.reduce((best, country) => (country.scans > best.scans ? country : best));
  const places = known.length === 1 ? '1 country' : `${count(known.length)} countries`;
  return `World map of scans by country: scans from ${places}, the most from ${countryName(top.code)} (${count(top.scans)}).`;
}
