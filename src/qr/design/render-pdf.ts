import { createRequire } from 'node:module';
import PDFDocument from 'pdfkit';
import { MARK_GAP_MM, MARK_LENGTH_MM, MARKS_AREA_MM, naiveCmyk, type PrintPage } from './print-page.js';
import { svgBox } from './svg-box.js';

type Colour = [number[], number];
type SvgToPdf = (
  doc: PDFKit.PDFDocument,
  svg: string,
  x: number,
  y: number,
  options: { width: number; height: number; assumePt?: boolean; colorCallback?: (colour: Colour | undefined) => Colour | undefined },
) => void;

const require = createRequire(import.meta.url);
// No types ship with it; its one export is this function.
const svgToPdf = require('svg-to-pdfkit') as SvgToPdf;

export const POINTS_PER_MM = 72 / 25.4;

/** 5 cm across with a 5 mm white margin and no bleed: what a PDF is without page settings. */
export const DEFAULT_PDF = { widthCm: 5, marginCm: 0.5 } as const;

/**
 * Where a design goes on a print file's page, in points (PDF and EPS alike): the trim (the code at its size), the
 * bleed around it, and around that the crop marks' area, or without `page` DEFAULT_PDF's white margin. `unit` is
 * points per SVG unit.
 */
export function printLayout(svg: string, page: PrintPage | undefined) {
  const box = svgBox(svg);
  const mm = (value: number) => value * POINTS_PER_MM;
  const trimWidth = page ? mm(page.sizeMm) : mm(DEFAULT_PDF.widthCm * 10);
  const unit = trimWidth / box.trimWidth;
  const bleed = box.bleed * unit;
  const trimHeight = box.trimHeight * unit;
  const around = page ? (page.cropMarks ? mm(MARKS_AREA_MM) : 0) : mm(DEFAULT_PDF.marginCm * 10);
  return { box, unit, trimWidth, trimHeight, bleed, around, pageWidth: trimWidth + 2 * (bleed + around), pageHeight: trimHeight + 2 * (bleed + around) };
}

/**
 * An SVG from renderDesignSvg (drawn with the page's bleed, if any) as a one-page vector PDF for print. Without
 * `page`: the code DEFAULT_PDF.widthCm wide in a white margin. With it: the code `sizeMm` wide, the artwork running
 * `bleedMm` past it, the page that much larger (TrimBox and BleedBox say where to cut), crop marks outside the bleed
 * if asked (the page grows by MARKS_AREA_MM), and DeviceCMYK colours if asked. Shapes stay vectors and the frame
 * text is outlined, so no font is needed; a logo stays the RGB image it was uploaded as. Fixed dates and id, so
 * equal inputs give equal bytes (the image ETag relies on that).
 */
export function renderDesignPdf(svg: string, page?: PrintPage): Promise<Buffer> {
  const { trimWidth, trimHeight, bleed, around, pageWidth, pageHeight } = printLayout(svg, page);
  const epoch = new Date(0);
  const doc = new PDFDocument({
    size: [pageWidth, pageHeight],
    margin: 0,
    autoFirstPage: true,
    compress: true,
    info: { Title: 'QR code', Producer: 'qroute', Creator: 'qroute', CreationDate: epoch, ModDate: epoch },
  });
  if (page) {
    // Symmetric, so PDF's bottom-up coordinates need no flipping.
    const pageDictionary = doc.page.dictionary as unknown as { data: Record<string, number[]> };
    pageDictionary.data.BleedBox = [around, around, pageWidth - around, pageHeight - around];
    pageDictionary.data.TrimBox = [around + bleed, around + bleed, pageWidth - around - bleed, pageHeight - around - bleed];
  }
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const width = trimWidth + 2 * bleed;
  const height = trimHeight + 2 * bleed;
  // The SVG's own width and height (pixels, for screens) would win over the viewport given here: set them to the
  // print size, so the viewBox is scaled to exactly the trim plus the bleed.
  const sized = svg.replace(/^<svg([^>]*?) width="[\d.]+" height="[\d.]+"/, `<svg$1 width="${width}" height="${height}"`);
  svgToPdf(doc, sized, around, around, {
    width,
    height,
    assumePt: true,
    ...(page?.cmyk && { colorCallback: (colour) => colour && [naiveCmyk(colour[0]), colour[1]] }),
  });
  if (page?.cropMarks) drawCropMarks(doc, { x: around + bleed, y: around + bleed, width: trimWidth, height: trimHeight }, bleed, page.cmyk);
  doc.end();
  return done;
}

/**
 * Two hairlines at each corner of the trim, on its edges' lines, starting MARK_GAP_MM outside the bleed so no
 * mark shows on a cut piece. In registration colour (every ink) for CMYK, so they appear on every plate.
 */
function drawCropMarks(doc: PDFKit.PDFDocument, trim: { x: number; y: number; width: number; height: number }, bleed: number, cmyk: boolean): void {
  const start = bleed + MARK_GAP_MM * POINTS_PER_MM;
  const end = start + MARK_LENGTH_MM * POINTS_PER_MM;
  doc.save().lineWidth(0.25).strokeColor(cmyk ? [100, 100, 100, 100] : [0, 0, 0]);
  for (const x of [trim.x, trim.x + trim.width]) {
    for (const y of [trim.y, trim.y + trim.height]) {
      const outX = x === trim.x ? -1 : 1;
      const outY = y === trim.y ? -1 : 1;
      doc.moveTo(x + outX * start, y).lineTo(x + outX * end, y).stroke();
      doc.moveTo(x, y + outY * start).lineTo(x, y + outY * end).stroke();
    }
  }
  doc.restore();
}
