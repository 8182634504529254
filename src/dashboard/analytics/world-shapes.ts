import { createRequire } from 'node:module';
import { type GeoContext, type GeoProjection, geoEqualEarth, geoPath } from 'd3-geo';
import type { Feature, FeatureCollection, Geometry } from 'geojson';
import { iso31661NumericToAlpha2 } from 'iso-3166';
import { feature, merge } from 'topojson-client';
import type { GeometryCollection, MultiPolygon, Polygon, Topology } from 'topojson-specification';
import { SMALL_COUNTRY_CENTRES } from './small-countries.js';

/** The map's drawing box: the SVG's viewBox is `0 0 MAP_WIDTH mapHeight`, and one unit is about a pixel on a laptop. */
export const MAP_WIDTH = 960;

export interface WorldShapes {
  /** The viewBox's height for MAP_WIDTH. */
  height: number;
  /**
   * Every country of Natural Earth 110m by alpha-2 code, as SVG path data (Antarctica left out: no one scans there,
   * and it takes a fifth of the height).
   */
  countries: ReadonlyArray<{ code: string; path: string }>;
  /** The centres of countries too small for 110m (Singapore, Malta, Bahrain, Hong Kong ...): dots on the map. */
  dots: ReadonlyMap<string, { x: number; y: number }>;
}

type CountryObjects = { countries: GeometryCollection<{ name: string }> };

/**
 * Natural Earth keys countries by ISO 3166-1 numeric code; a few it draws have none. Kosovo scans arrive as XK
 * (the code DB-IP and MaxMind use); Northern Cyprus and Somaliland are drawn as part of the country ISO 3166
 * counts them in, as their scans are.
 */
const CODES_BY_NAME: Readonly<Record<string, string>> = { Kosovo: 'XK', 'N. Cyprus': 'CY', Somaliland: 'SO' };
const ANTARCTICA = 'AQ';

let cached: WorldShapes | undefined;

/**
 * The projected shapes, worked out once per process on first use (a constant of the installed world-atlas, not
 * state: about 0.1 s, then every map is string joins).
 */
export function worldShapes(): WorldShapes {
  cached ??= projectWorld();
  return cached;
}

function projectWorld(): WorldShapes {
  const require = createRequire(import.meta.url);
  const topology = require('world-atlas/countries-110m.json') as Topology<CountryObjects>;
  const byCode = new Map<string, Array<Polygon | MultiPolygon>>();
  for (const geometry of topology.objects.countries.geometries) {
    const code = codeOf(geometry.id, nameOf(geometry));
    if (!code || code === ANTARCTICA || (geometry.type !== 'Polygon' && geometry.type !== 'MultiPolygon')) continue;
    byCode.set(code, [...(byCode.get(code) ?? []), geometry]);
  }
  // Joined where one code has several shapes (Cyprus and Northern Cyprus), so the border between them is not drawn.
  const features: Array<Feature<Geometry, { code: string }>> = [...byCode].map(([code, parts]) => ({
    type: 'Feature',
    properties: { code },
    geometry: parts.length === 1 ? (feature(topology, parts[0]!) as Feature).geometry : merge(topology, parts),
  }));
  const collection: FeatureCollection<Geometry, { code: string }> = { type: 'FeatureCollection', features };
  // No adaptive resampling: Equal Earth draws parallels straight, and 110m shapes are coarser than a pixel anyway
  // (resampling took several times as long and added points no one sees).
  const projection = geoEqualEarth().precision(0).fitWidth(MAP_WIDTH, collection);
  // fitWidth puts the top at 0, so the lowest point drawn is the height (no third pass over the shapes for bounds).
  const writer = new RelativePathWriter();
  const countries = features
    .map((shape) => ({ code: shape.properties.code, path: writer.pathOf(shape, projection) }))
    .filter((shape) => shape.path !== '')
    .sort((a, b) => a.code.localeCompare(b.code));
  return { height: Math.ceil(writer.bottom), countries, dots: smallCountryDots(projection) };
}

function nameOf(geometry: { properties?: object }): string | undefined {
  return (geometry.properties as { name?: string } | undefined)?.name;
}

function codeOf(id: string | number | undefined, name: string | undefined): string | undefined {
  if (id !== undefined) return iso31661NumericToAlpha2[String(id)];
  return name ? CODES_BY_NAME[name] : undefined;
}

function smallCountryDots(projection: GeoProjection): Map<string, { x: number; y: number }> {
  const dots = new Map<string, { x: number; y: number }>();
  for (const [code, centre] of Object.entries(SMALL_COUNTRY_CENTRES)) {
    const point = projection([centre[0], centre[1]]);
    if (point) dots.set(code, { x: Math.round(point[0]), y: Math.round(point[1]) });
  }
  return dots;
}

/**
 * Writes shapes as SVG path data in whole units with relative steps ("M12 40l3-2 4 1z"): about half the bytes of
 * d3's absolute coordinates at one decimal. Points that round onto the previous one are dropped, and so are rings
 * that round to fewer than three points (islands smaller than a pixel).
 */
class RelativePathWriter implements GeoContext {
  /** The largest y of any point written. */
  bottom = 0;
  private rings: string[] = [];
  private points: Array<[number, number]> = [];

  pathOf(shape: Feature<Geometry>, projection: GeoProjection): string {
    geoPath(projection, this).pointRadius(0)(shape);
    this.flush();
    const path = this.rings.join('');
    this.rings = [];
    return path;
  }

  beginPath(): void {}

  moveTo(x: number, y: number): void {
    this.flush();
    this.bottom = Math.max(this.bottom, y);
    this.points = [[Math.round(x), Math.round(y)]];
  }

  lineTo(x: number, y: number): void {
    this.bottom = Math.max(this.bottom, y);
    const point: [number, number] = [Math.round(x), Math.round(y)];
    const last = this.points.at(-1);
    if (!last || last[0] !== point[0] || last[1] !== point[1]) this.points.push(point);
  }

  closePath(): void {
    this.flush();
  }

  arc(): void {}

  private flush(): void {
    const points = this.points;
    this.points = [];
    if (points.length < 3) return;
    const [[startX, startY]] = points as [[number, number]];
    let text = `M${startX} ${startY}l`;
    let previous = points[0]!;
    for (const point of points.slice(1)) {
      text += joined(text, point[0] - previous[0]) + joined(`${point[0] - previous[0]}`, point[1] - previous[1]);
      previous = point;
    }
    this.rings.push(`${text}z`);
  }
}

/** A number after the text before it: a minus sign separates by itself, a digit after a digit needs a space. */
function joined(before: string, value: number): string {
  return value < 0 || before.endsWith('l') ? `${value}` : ` ${value}`;
}
