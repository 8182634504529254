import { createRequire } from 'node:module';
import path from 'node:path';
import PDFDocument from 'pdfkit';
import { FRAME_FONT_FAMILY } from './render-svg.js';

type SvgToPdf = (
  doc: PDFKit.PDFDocument,
  svg: string,
  x: number,
  y: number,
  options: { width: number; height: number; assumePt?: boolean; fontCallback?: (family: string, bold: boolean) => string },
) => void;

const require = createRequire(import.meta.url);
// No types ship with it; its one export is this function.
const svgToPdf = require('svg-to-pdfkit') as SvgToPdf;
const FONT_DIR = path.join(path.dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
const FONTS = { regular: path.join(FONT_DIR, 'DejaVuSans.ttf'), bold: path.join(FONT_DIR, 'DejaVuSans-Bold.ttf') };

const POINTS_PER_CM = 72 / 2.54;

export interface PdfOptions {
  /** The code's printed width (quiet zone and frame included), in centimetres. */
  widthCm: number;
  /** White margin around it on the page, in centimetres: nothing is printed to the page's edge, so no bleed. */
  marginCm: number;
}

/** 5 cm across: comfortably scanned from arm's length (a rule of thumb is a tenth of the scanning distance). */
export const DEFAULT_PDF: PdfOptions = { widthCm: 5, marginCm: 0.5 };

/**
 * An SVG from renderDesignSvg as a one-page vector PDF for print: the page is the code at `widthCm` plus the
 * margin. Shapes stay vectors; the frame text is set in the shipped DejaVu Sans (embedded, subset), so it prints
 * the same everywhere. Fixed dates and id, so equal inputs give equal bytes (the image ETag relies on that).
 */
export function renderDesignPdf(svg: string, options: PdfOptions = DEFAULT_PDF): Promise<Buffer> {
  const viewBox = /viewBox="0 0 ([\d.]+) ([\d.]+)"/.exec(svg);
  if (!viewBox) throw new Error('renderDesignPdf takes an SVG from renderDesignSvg');
  const aspect = Number(viewBox[2]) / Number(viewBox[1]);
  const width = options.widthCm * POINTS_PER_CM;
  const height = width * aspect;
  const margin = options.marginCm * POINTS_PER_CM;
  const epoch = new Date(0);
  const doc = new PDFDocument({
    size: [width + 2 * margin, height + 2 * margin],
    margin: 0,
    autoFirstPage: true,
    compress: true,
    info: { Title: 'QR code', Producer: 'qroute', Creator: 'qroute', CreationDate: epoch, ModDate: epoch },
  });
  doc.registerFont(FRAME_FONT_FAMILY, FONTS.regular);
  doc.registerFont(`${FRAME_FONT_FAMILY} Bold`, FONTS.bold);
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  // The SVG's own width and height (pixels, for screens) would win over the viewport given here: set them to the
  // print size, so the viewBox is scaled to exactly `widthCm`.
  const sized = svg.replace(/^<svg([^>]*?) width="[\d.]+" height="[\d.]+"/, `<svg$1 width="${width}" height="${height}"`);
  svgToPdf(doc, sized, margin, margin, {
    width,
    height,
    assumePt: true,
    // Every family the SVG names is ours (renderDesignSvg asks for DejaVu Sans, sans-serif).
    fontCallback: (_family, bold) => (bold ? `${FRAME_FONT_FAMILY} Bold` : FRAME_FONT_FAMILY),
  });
  doc.end();
  return done;
}
