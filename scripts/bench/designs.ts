/**
 * `npx tsx scripts/bench/designs.ts`: render time per design, SVG, PNG at 1024 px and the print PDF, mean of BENCH_DESIGN_RUNS
 * (default 50) after a warm-up. Standalone: it needs no database or server, unlike the parts of run.ts.
 */
import { PNG } from 'pngjs';
import { parseDesign } from '../../src/qr/design/design.js';
import { renderDesignPdf } from '../../src/qr/design/render-pdf.js';
import { renderDesignPng } from '../../src/qr/design/render-png.js';
import { renderDesignSvg } from '../../src/qr/design/render-svg.js';

const RUNS = Number(process.env.BENCH_DESIGN_RUNS ?? 50);
const TEXT = 'HTTPS://QR.EXAMPLE.COM/R/AB12CD34';

function logo(): string {
  const png = new PNG({ width: 128, height: 128 });
  for (let i = 0; i < png.data.length; i += 4) png.data.set([230, 90, 20, 255], i);
  return PNG.sync.write(png).toString('base64');
}

const gradient = { type: 'linear', angle: 45, stops: [{ offset: 0, color: '#1d4ed8' }, { offset: 1, color: '#7e22ce' }] };
const DESIGNS: Record<string, unknown> = {
  default: {},
  dots: { moduleShape: 'dots', cornerFrame: { shape: 'dot' }, cornerDot: { shape: 'dot' } },
  'rounded+gradient': { moduleShape: 'rounded', foreground: gradient, cornerFrame: { shape: 'rounded' } },
  'classy+logo': { moduleShape: 'classy', logo: { png: logo(), size: 0.25 } },
  'everything': { moduleShape: 'classy-rounded', foreground: gradient, logo: { png: logo(), size: 0.3 }, frame: { style: 'box', text: 'Scan me' } },
};

function mean(run: () => unknown): number {
  run();
  const start = process.hrtime.bigint();
  for (let i = 0; i < RUNS; i++) run();
  return Number(process.hrtime.bigint() - start) / 1e6 / RUNS;
}

async function meanAsync(run: () => Promise<unknown>): Promise<number> {
  await run();
  const start = process.hrtime.bigint();
  for (let i = 0; i < RUNS; i++) await run();
  return Number(process.hrtime.bigint() - start) / 1e6 / RUNS;
}

console.log(`design              svg ms   png@1024 ms   pdf ms   svg bytes   png bytes   pdf bytes   (mean of ${RUNS})`);
for (const [name, input] of Object.entries(DESIGNS)) {
  const parsed = parseDesign(input);
  if (!parsed.ok) throw new Error(`${name}: ${JSON.stringify(parsed.problems)}`);
  const svg = renderDesignSvg(parsed.design, TEXT);
  const png = renderDesignPng(svg, 1024);
  const svgMs = mean(() => renderDesignSvg(parsed.design, TEXT));
  const pngMs = mean(() => renderDesignPng(svg, 1024));
  const pdf = await renderDesignPdf(svg);
  const pdfMs = await meanAsync(() => renderDesignPdf(svg));
  console.log(
    `${name.padEnd(18)} ${svgMs.toFixed(2).padStart(7)} ${pngMs.toFixed(2).padStart(13)} ${pdfMs.toFixed(2).padStart(8)} ${String(svg.length).padStart(11)} ${String(png.length).padStart(11)} ${String(pdf.length).padStart(11)}`,
  );
}
