import { deflateSync } from 'node:zlib';
import { Resvg } from '@resvg/resvg-js';
import { POINTS_PER_MM, printLayout } from './render-pdf.js';
import { MARK_GAP_MM, MARK_LENGTH_MM, naiveCmyk, type PrintPage } from './print-page.js';

/** A logo is at most 30% of the code: 1024 px across is 300 dpi at 8.7 cm, more than a logo needs. */
const MAX_LOGO_PIXELS = 1024;

/**
 * An SVG from renderDesignSvg as Encapsulated PostScript (EPSF-3.0, LanguageLevel 3 for gradients and the logo's
 * mask): the same page as renderDesignPdf draws (size, bleed, crop marks, CMYK), for print workflows that still
 * place EPS. It reads only what renderDesignSvg writes (rect, path, one translate group, gradients, one PNG
 * image), so it is a translation of our own geometry rather than an SVG renderer; anything else is an error.
 * Deterministic.
 */
export function renderDesignEps(svg: string, page?: PrintPage): Buffer {
  const { box, unit, trimWidth, trimHeight, bleed, around, pageWidth: width, pageHeight: height } = printLayout(svg, page);
  const colour = (hex: string) => setColour(hex, page?.cmyk ?? false);

  const out: string[] = [
    '%!PS-Adobe-3.0 EPSF-3.0',
    `%%BoundingBox: 0 0 ${Math.ceil(width)} ${Math.ceil(height)}`,
    `%%HiResBoundingBox: 0 0 ${n(width)} ${n(height)}`,
    '%%LanguageLevel: 3',
    '%%Title: QR code',
    '%%Creator: qroute',
    '%%Pages: 1',
    '%%EndComments',
    '%%BeginProlog',
    '/M {moveto} bind def /L {lineto} bind def /C {curveto} bind def /Z {closepath} bind def',
    '%%EndProlog',
    '%%Page: 1 1',
    'save',
    // Crop marks first, in the page's own points (they are symmetric, so up and down do not matter).
    ...(page?.cropMarks ? cropMarks(around + bleed, around + bleed, trimWidth, trimHeight, bleed, page.cmyk) : []),
    // SVG's y grows downwards from the viewBox's corner at minus the bleed.
    `${n(around)} ${n(height - around)} translate ${n(unit)} ${n(-unit)} scale ${n(box.bleed)} ${n(box.bleed)} translate`,
  ];
  const gradients = new Map<string, string>();
  let gradient: { id: string; open: string; stops: { offset: number; color: string }[] } | undefined;
  for (const [, closing, name, attributeText] of svg.matchAll(/<(\/?)([a-zA-Z]+)([^>]*?)\/?>/g)) {
    const a = attributes(attributeText!);
    if (name === 'svg' || name === 'defs') continue;
    if (name === 'g') {
      if (closing) out.push('grestore');
      else {
        const translate = /^translate\((-?[\d.e-]+) (-?[\d.e-]+)\)$/.exec(a.transform ?? '');
        if (!translate) throw new Error(`unexpected group transform ${a.transform}`);
        out.push(`gsave ${translate[1]} ${translate[2]} translate`);
      }
    } else if (name === 'linearGradient' || name === 'radialGradient') {
      if (closing) {
        gradients.set(gradient!.id, shading(gradient!.open, gradient!.stops, page?.cmyk ?? false));
        gradient = undefined;
      } else {
        gradient = { id: a.id!, stops: [], open: name === 'linearGradient' ? `2 /Coords [${a.x1} ${a.y1} ${a.x2} ${a.y2}]` : `3 /Coords [${a.cx} ${a.cy} 0 ${a.cx} ${a.cy} ${a.r}]` };
      }
    } else if (name === 'stop') {
      gradient!.stops.push({ offset: Number(a.offset), color: a['stop-color']! });
    } else if (name === 'rect' || name === 'path') {
      if (!a.fill) continue;
      const outline =
        name === 'rect' ? `${a.x ?? 0} ${a.y ?? 0} M ${a.width} 0 rlineto 0 ${a.height} rlineto ${-Number(a.width)} 0 rlineto Z` : pathToPs(a.d ?? '');
      const evenOdd = a['fill-rule'] === 'evenodd';
      const url = /^url\(#(.+)\)$/.exec(a.fill);
      if (url) {
        out.push(`gsave newpath ${outline} ${evenOdd ? 'eoclip' : 'clip'} ${gradients.get(url[1]!)} shfill grestore`);
      } else {
        out.push(`${colour(a.fill)} newpath ${outline} ${evenOdd ? 'eofill' : 'fill'}`);
      }
    } else if (name === 'image') {
      out.push(logoImage(a));
    } else if (!closing) {
      throw new Error(`renderDesignEps cannot draw <${name}>`);
    }
  }
  out.push('restore', 'showpage', '%%EOF', '');
  return Buffer.from(out.join('\n'), 'latin1');
}

function attributes(text: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const [, key, value] of text.matchAll(/([\w:-]+)="([^"]*)"/g)) found[key!] = value!;
  return found;
}

function setColour(hex: string, cmyk: boolean): string {
  const rgb = [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16));
  if (cmyk) return `${naiveCmyk(rgb).map((part) => n(part / 100)).join(' ')} setcmykcolor`;
  return `${rgb.map((part) => n(part / 255)).join(' ')} setrgbcolor`;
}

/** A shading dictionary (type 2 axial or 3 radial) with its stops as stitched linear interpolations. */
function shading(open: string, stops: { offset: number; color: string }[], cmyk: boolean): string {
  const components = (hex: string) => {
    const rgb = [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16));
    return (cmyk ? naiveCmyk(rgb).map((part) => part / 100) : rgb.map((part) => part / 255)).map(n).join(' ');
  };
  const pieces = stops.slice(1).map((stop, i) => `<< /FunctionType 2 /Domain [0 1] /C0 [${components(stops[i]!.color)}] /C1 [${components(stop.color)}] /N 1 >>`);
  const bounds = stops.slice(1, -1).map((stop) => n(stop.offset));
  const first = stops[0]!.offset;
  const last = stops.at(-1)!.offset;
  // Stops inside 0–1 are stretched over the whole axis by Domain; the ends extend the first and last colours.
  const fn =
    pieces.length === 1
      ? pieces[0]!
      : `<< /FunctionType 3 /Domain [${n(first)} ${n(last)}] /Functions [${pieces.join(' ')}] /Bounds [${bounds.join(' ')}] /Encode [${pieces.map(() => '0 1').join(' ')}] >>`;
  return `<< /ShadingType ${open} /ColorSpace /${cmyk ? 'DeviceCMYK' : 'DeviceRGB'} /Domain [${n(first)} ${n(last)}] /Extend [true true] /Function ${fn} >>`;
}

/**
 * SVG path data as PostScript, for the commands renderDesignSvg and fontkit write: M L H V C Q A Z and their
 * relative forms. Quadratic curves become cubic ones; arcs become PostScript arcs about their centre.
 */
export function pathToPs(d: string): string {
  const tokens = d.match(/[MmLlHhVvCcQqAaZz]|-?(?:\d+\.?\d*|\.\d+)(?:e-?\d+)?/g) ?? [];
  const out: string[] = [];
  let at = 0;
  const next = () => Number(tokens[at++]);
  let command = '';
  let [x, y, startX, startY] = [0, 0, 0, 0];
  while (at < tokens.length) {
    if (/^[A-Za-z]$/.test(tokens[at]!)) command = tokens[at++]!;
    const relative = command === command.toLowerCase();
    const dx = relative ? x : 0;
    const dy = relative ? y : 0;
    switch (command.toUpperCase()) {
      case 'M':
        [x, y] = [next() + dx, next() + dy];
        [startX, startY] = [x, y];
        out.push(`${n(x)} ${n(y)} M`);
        command = relative ? 'l' : 'L'; // further pairs are lines
        break;
      case 'L':
        [x, y] = [next() + dx, next() + dy];
        out.push(`${n(x)} ${n(y)} L`);
        break;
      case 'H':
        x = next() + dx;
        out.push(`${n(x)} ${n(y)} L`);
        break;
      case 'V':
        y = next() + dy;
        out.push(`${n(x)} ${n(y)} L`);
        break;
      case 'C': {
        const c = [next() + dx, next() + dy, next() + dx, next() + dy, next() + dx, next() + dy];
        [x, y] = [c[4]!, c[5]!];
        out.push(`${c.map(n).join(' ')} C`);
        break;
      }
      case 'Q': {
        const [qx, qy, ex, ey] = [next() + dx, next() + dy, next() + dx, next() + dy];
        out.push(`${n(x + (2 / 3) * (qx - x))} ${n(y + (2 / 3) * (qy - y))} ${n(ex + (2 / 3) * (qx - ex))} ${n(ey + (2 / 3) * (qy - ey))} ${n(ex)} ${n(ey)} C`);
        [x, y] = [ex, ey];
        break;
      }
      case 'A': {
        const [rx, , , largeArc, sweep] = [next(), next(), next(), next(), next()];
        const [ex, ey] = [next() + dx, next() + dy];
        out.push(arc(x, y, rx, largeArc === 1, sweep === 1, ex, ey));
        [x, y] = [ex, ey];
        break;
      }
      case 'Z':
        out.push('Z');
        [x, y] = [startX, startY];
        break;
      default:
        throw new Error(`unexpected path command ${command}`);
    }
  }
  return out.join(' ');
}

/**
 * A circular SVG arc (renderDesignSvg draws only those, unrotated) as `arc` or `arcn` about its centre, found as
 * SVG's implementation notes do (F.6.5) with the radius grown when the end points are further apart than it allows.
 * In the page's y-down user space, increasing angles turn the way SVG's sweep flag 1 does.
 */
function arc(x1: number, y1: number, radius: number, largeArc: boolean, sweep: boolean, x2: number, y2: number): string {
  const mx = (x1 - x2) / 2;
  const my = (y1 - y2) / 2;
  const r = Math.max(radius, Math.hypot(mx, my));
  const factor = Math.sqrt(Math.max(0, (r * r - mx * mx - my * my) / (mx * mx + my * my))) * (largeArc === sweep ? -1 : 1);
  const cx = factor * my + (x1 + x2) / 2;
  const cy = -factor * mx + (y1 + y2) / 2;
  const degrees = (px: number, py: number) => (Math.atan2(py - cy, px - cx) * 180) / Math.PI;
  return `${n(cx)} ${n(cy)} ${n(r)} ${n(degrees(x1, y1))} ${n(degrees(x2, y2))} ${sweep ? 'arc' : 'arcn'}`;
}

/**
 * The logo: its PNG decoded (by resvg, which draws it into a square as the SVG does, at most MAX_LOGO_PIXELS
 * across), written as an RGB image with its transparency as an interleaved mask (ImageType 3), deflated and
 * ASCII85-encoded inline. Pixels at least half opaque are drawn; a soft edge becomes a hard one.
 */
function logoImage(a: Record<string, string>): string {
  const href = a.href ?? '';
  if (!href.startsWith('data:image/png;base64,')) throw new Error('the logo must be an inline PNG');
  const png = Buffer.from(href.slice('data:image/png;base64,'.length), 'base64');
  const side = Math.min(MAX_LOGO_PIXELS, Math.max(png.readUInt32BE(16), png.readUInt32BE(20)));
  const rendered = new Resvg(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${side}" height="${side}"><image width="${side}" height="${side}" preserveAspectRatio="xMidYMid meet" href="${href}"/></svg>`,
    { font: { loadSystemFonts: false }, logLevel: 'off' },
  ).render();
  const rgba = rendered.pixels;
  const samples = Buffer.alloc(side * side * 4);
  for (let i = 0; i < side * side; i++) {
    const alpha = rgba[i * 4 + 3]!;
    samples[i * 4] = alpha >= 128 ? 255 : 0;
    // resvg's pixels are premultiplied by alpha.
    for (let c = 0; c < 3; c++) samples[i * 4 + 1 + c] = alpha === 0 ? 255 : Math.min(255, Math.round((rgba[i * 4 + c]! * 255) / alpha));
  }
  const data = ascii85(deflateSync(samples));
  const [x, y, w, h] = [a.x, a.y, a.width, a.height].map(Number) as [number, number, number, number];
  return [
    `gsave ${n(x)} ${n(y)} translate ${n(w)} ${n(h)} scale /DeviceRGB setcolorspace`,
    `<< /ImageType 3 /InterleaveType 1`,
    ` /DataDict << /ImageType 1 /Width ${side} /Height ${side} /BitsPerComponent 8 /Decode [0 1 0 1 0 1] /ImageMatrix [${side} 0 0 ${side} 0 0]`,
    `  /DataSource currentfile /ASCII85Decode filter /FlateDecode filter >>`,
    ` /MaskDict << /ImageType 1 /Width ${side} /Height ${side} /BitsPerComponent 8 /Decode [1 0] /ImageMatrix [${side} 0 0 ${side} 0 0] >>`,
    `>> image`,
    data,
    'grestore',
  ].join('\n');
}

/** Adobe's ASCII85, in lines of 76 characters, ending with `~>`. */
function ascii85(bytes: Buffer): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 4) {
    const chunk = Buffer.alloc(4);
    bytes.copy(chunk, 0, i, Math.min(i + 4, bytes.length));
    const count = Math.min(4, bytes.length - i);
    let value = chunk.readUInt32BE(0);
    if (value === 0 && count === 4) {
      text += 'z';
      continue;
    }
    const digits = new Array<string>(5);
    for (let d = 4; d >= 0; d--) {
      digits[d] = String.fromCharCode(33 + (value % 85));
      value = Math.floor(value / 85);
    }
    text += digits.slice(0, count + 1).join('');
  }
  return `${text.replace(/.{76}/g, '$&\n')}~>`;
}

/** The PDF's crop marks (render-pdf.ts), in points from the page's corner. */
function cropMarks(x0: number, y0: number, width: number, height: number, bleed: number, cmyk: boolean): string[] {
  const start = bleed + MARK_GAP_MM * POINTS_PER_MM;
  const end = start + MARK_LENGTH_MM * POINTS_PER_MM;
  const lines: string[] = ['gsave 0.25 setlinewidth', cmyk ? '1 1 1 1 setcmykcolor' : '0 0 0 setrgbcolor'];
  for (const x of [x0, x0 + width]) {
    for (const y of [y0, y0 + height]) {
      const outX = x === x0 ? -1 : 1;
      const outY = y === y0 ? -1 : 1;
      lines.push(`newpath ${n(x + outX * start)} ${n(y)} M ${n(x + outX * end)} ${n(y)} L stroke`);
      lines.push(`newpath ${n(x)} ${n(y + outY * start)} M ${n(x)} ${n(y + outY * end)} L stroke`);
    }
  }
  lines.push('grestore');
  return lines;
}

function n(value: number): string {
  return String(Math.round(value * 10000) / 10000);
}
