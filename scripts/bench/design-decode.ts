/**
 * `BENCH_PARTS=design-decode npm run bench`, or alone `npx tsx scripts/bench/design-decode.ts`: every designed QR
 * code decoded with jsQR and ZXing, the whole product that test/integration/qr-design-decode.test.ts samples:
 * 5 module shapes × 3 corner frames × 3 corner dots × 3 logos × 3 texts × 4 widths, 1,116 decodes once the
 * refused corner pairs are left out (they are checked for refusal). Minutes on 2 cores, so not in the test's
 * budget. Prints the time per decode, the designs ZXing read only in its second frame, and every failure; exits 1
 * on a failure. BENCH_DESIGN_DECODE_LIMIT decodes only the first N cases (a quick look).
 */
import { fileURLToPath } from 'node:url';
import { renderDesignSvg } from '../../src/qr/design/render-svg.js';
import { allCases, decodeDesign, design, isRefusedPair } from '../../test/support/design-decode.js';

export async function benchDesignDecode(): Promise<{ lines: string[]; ok: boolean }> {
  const limit = Number(process.env.BENCH_DESIGN_DECODE_LIMIT ?? Infinity);
  const cases = allCases().slice(0, limit);
  const failures: string[] = [];
  const retried: string[] = [];
  let decoded = 0;
  let refused = 0;
  const started = performance.now();
  for (const each of cases) {
    if (isRefusedPair(each.input)) {
      try {
        renderDesignSvg(design(each.input), each.text);
        failures.push(`${each.label}: rendered, but checkDesign should refuse it`);
      } catch {
        refused++;
      }
      continue;
    }
    const outcome = decodeDesign(each);
    decoded++;
    failures.push(...outcome.failures);
    if (outcome.retried) retried.push(each.label);
    if (decoded % 100 === 0) process.stderr.write(`  ${decoded} decoded…\n`);
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    ok: failures.length === 0,
    lines: [
      `design decode: ${decoded} designs decoded with jsQR and ZXing in ${seconds.toFixed(1)} s (${((seconds * 1000) / Math.max(1, decoded)).toFixed(0)} ms each), ${refused} refused as they should be`,
      `ZXing needed its second frame (10% smaller) for ${retried.length}:${retried.map((label) => `\n  ${label}`).join('')}`,
      `failures: ${failures.length}${failures.map((failure) => `\n  ${failure}`).join('')}`,
    ],
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { lines, ok } = await benchDesignDecode();
  console.log(lines.join('\n'));
  if (!ok) process.exitCode = 1;
}
