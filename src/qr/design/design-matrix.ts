import { createRequire } from 'node:module';
import QRCode from 'qrcode';
import type { ErrorCorrectionLevel } from './design.js';

// The package's block tables, which its typings do not cover: the standard's, so we do not copy them.
const require = createRequire(import.meta.url);
const qrLevels = require('qrcode/lib/core/error-correction-level.js') as Record<ErrorCorrectionLevel, object>;
const qrBlocks = require('qrcode/lib/core/error-correction-code.js') as {
  getBlocksCount(version: number, level: object): number;
  getTotalCodewordsCount(version: number, level: object): number;
};
const qrUtils = require('qrcode/lib/core/utils.js') as { getSymbolTotalCodewords(version: number): number };

export type QrMatrix = QRCode.QRCode['modules'];

const MASKS = [0, 1, 2, 3, 4, 5, 6, 7] as const;

/**
 * `text`'s QR matrix with the mask that leaves the fewest finder look-alikes in the data. Any of the eight masks is
 * a valid code; the standard's own choice (the qrcode package's) penalises only 1:1:3:1:1 runs that have four
 * light modules beside them, but ZXing's finder search accepts any 1:1:2..6:1:1 crossing (its tolerance is half a
 * module) and ranks candidates by how many rows confirmed them, so a look-alike in the data could beat a real
 * corner: a plain black-on-white vCard code failed ZXing at 6 of 49 widths from 256 to 1024 px that way, and at 1
 * with the mask chosen here. jsQR's search is tricked by the same crossings. The standard's choice is kept whenever
 * it has none (or ties the best).
 */
export function createMatrix(text: string, errorCorrectionLevel: ErrorCorrectionLevel): QrMatrix {
  const standard = QRCode.create(text, { errorCorrectionLevel });
  let best = { modules: standard.modules, lookAlikes: finderLookAlikes(standard.modules) };
  for (const maskPattern of MASKS) {
    if (best.lookAlikes === 0) break;
    if (maskPattern === standard.maskPattern) continue;
    const { modules } = QRCode.create(text, { errorCorrectionLevel, maskPattern });
    const lookAlikes = finderLookAlikes(modules);
    if (lookAlikes < best.lookAlikes) best = { modules, lookAlikes };
  }
  return best.modules;
}

/**
 * Dark modules outside the three finders (and their separators) through which both the row and the column read
 * dark-light-dark-light-dark in the proportions ZXing's finder search accepts (each run within half a module of
 * 1:1:3:1:1 scaled to the runs' total). Edges count as light, as the quiet zone is.
 */
export function finderLookAlikes(matrix: QrMatrix): number {
  const n = matrix.size;
  const dark = matrix.data;
  const rows = Array.from({ length: n }, (_, row) => finderRuns((i) => dark[row * n + i] === 1, n));
  const cols = Array.from({ length: n }, (_, col) => finderRuns((i) => dark[i * n + col] === 1, n));
  const nearFinder = (row: number, col: number) => (row < 8 && col < 8) || (row < 8 && col >= n - 8) || (row >= n - 8 && col < 8);
  let count = 0;
  for (let row = 0; row < n; row++) {
    for (let col = 0; col < n; col++) {
      if (dark[row * n + col] === 1 && rows[row]![col] && cols[col]![row] && !nearFinder(row, col)) count++;
    }
  }
  return count;
}

/**
 * For each point of a line, whether it lies in a dark run with light then dark runs on both sides in a finder's
 * proportions. Runs alternate in colour, so a dark run's neighbours are light and theirs dark; the quiet zone
 * beyond an edge is light, so a pattern needs both outer dark runs inside the code.
 */
function finderRuns(dark: (i: number) => boolean, n: number): boolean[] {
  const starts: number[] = [];
  for (let i = 0; i < n; i++) if (i === 0 || dark(i) !== dark(i - 1)) starts.push(i);
  starts.push(n);
  const lengths = starts.slice(1).map((end, k) => end - starts[k]!);
  const result = new Array<boolean>(n).fill(false);
  for (let k = 2; k + 2 < lengths.length; k++) {
    if (!dark(starts[k]!) || !finderProportions(lengths.slice(k - 2, k + 3))) continue;
    for (let i = starts[k]!; i < starts[k + 1]!; i++) result[i] = true;
  }
  return result;
}

/** ZXing's FinderPatternFinder.foundPatternCross, in modules instead of pixels. */
function finderProportions(runs: number[]): boolean {
  const unit = runs.reduce((a, b) => a + b, 0) / 7;
  const tolerance = unit / 2;
  return runs.every((run, i) => Math.abs(run - (i === 2 ? 3 : 1) * unit) < (i === 2 ? 3 : 1) * tolerance);
}

/**
 * How much of the worst-hit error-correction block's capacity a square of modules (a logo, with its cleared
 * margin) is expected to use: the codewords under the square, each counted by the chance that it reads wrong,
 * over the errors the block corrects. Codewords are spread over the blocks by position, so blocks are hit
 * unevenly, and differently at each level and version. `from`/`to` are the square's sides in module coordinates.
 */
export function obscuredShare(matrix: QrMatrix, errorCorrectionLevel: ErrorCorrectionLevel, from: number, to: number): number {
  const n = matrix.size;
  const version = (n - 17) / 4;
  const level = qrLevels[errorCorrectionLevel];
  const total = qrUtils.getSymbolTotalCodewords(version);
  const blocks = qrBlocks.getBlocksCount(version, level);
  const ecPerBlock = qrBlocks.getTotalCodewordsCount(version, level) / blocks;
  const shortBlocks = blocks - (total % blocks);
  const dataInShort = Math.floor(total / blocks) - ecPerBlock;
  const dataOf = (block: number) => dataInShort + (block < shortBlocks ? 0 : 1);
  // The block of each codeword in the order they are placed: data codewords taken from the blocks in turn, then
  // error-correction codewords likewise.
  const blockOf: number[] = [];
  for (let i = 0; i < dataInShort + 1; i++) for (let b = 0; b < blocks; b++) if (i < dataOf(b)) blockOf.push(b);
  for (let i = 0; i < ecPerBlock; i++) for (let b = 0; b < blocks; b++) blockOf.push(b);

  // Per hidden codeword, the chance it still reads right: each hidden module matches by chance, half the time.
  const intact = new Map<number, number>();
  let bit = 0;
  // The standard's placement: two columns at a time from the right, up then down, skipping the timing column.
  let upward = true;
  for (let right = n - 1; right > 0; right -= 2) {
    if (right === 6) right--;
    for (let step = 0; step < n; step++) {
      const row = upward ? n - 1 - step : step;
      for (const col of [right, right - 1]) {
        if (matrix.isReserved(row, col)) continue;
        const codeword = Math.floor(bit / 8);
        bit++;
        if (codeword < total && col + 1 > from && col < to && row + 1 > from && row < to) {
          intact.set(codeword, (intact.get(codeword) ?? 1) * 0.5);
        }
      }
    }
    upward = !upward;
  }
  const ruined = new Array<number>(blocks).fill(0);
  for (const [codeword, chance] of intact) ruined[blockOf[codeword]!]! += 1 - chance;
  // Versions 1–3 spend a few error-correction codewords on catching misreads (ISO/IEC 18004 table 9).
  const reserved = version === 1 ? { L: 3, M: 2, Q: 1, H: 1 }[errorCorrectionLevel] : version === 2 && errorCorrectionLevel === 'L' ? 2 : version === 3 && errorCorrectionLevel === 'L' ? 1 : 0;
  const corrects = Math.floor((ecPerBlock - reserved) / 2);
  return Math.max(...ruined.map((r) => r / corrects));
}
