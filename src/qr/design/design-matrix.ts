import { createRequire } from 'node:module';
import QRCode from 'qrcode';
import type { ErrorCorrectionLevel, ModuleShape } from './design.js';

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

/** A square of modules that a logo (and its cleared margin) covers, in module coordinates of its sides. */
export interface HiddenSquare {
  from: number;
  to: number;
}

/**
 * `text`'s QR matrix with the mask that leaves the fewest finder look-alikes in the data. Any of the eight masks is
 * a valid code; the standard's own choice (the qrcode package's) penalises only 1:1:3:1:1 runs that have four
 * light modules beside them, but ZXing's finder search accepts any 1:1:2..6:1:1 crossing (its tolerance is half a
 * module) and ranks candidates by how many rows confirmed them, so a look-alike in the data could beat a real
 * corner: a plain black-on-white vCard code failed ZXing at 505, 512, 540, 600 and 800 px that way. jsQR's search
 * is tricked by the same crossings. A logo's square is counted both all light and all dark, since its picture
 * completes crossings at its edge (a short URL's code with a logo drawn over it failed ZXing at 512 px so).
 * The standard's choice is kept whenever it has none (or ties the best).
 */
export function createMatrix(
  text: string,
  errorCorrectionLevel: ErrorCorrectionLevel,
  drawing: { moduleShape: ModuleShape; hidden?: HiddenSquare } = { moduleShape: 'square' },
): QrMatrix {
  const standard = QRCode.create(text, { errorCorrectionLevel });
  const { moduleShape, hidden } = drawing;
  const score = (matrix: QrMatrix) =>
    hidden
      ? finderLookAlikes(withSquare(matrix, hidden, 0), moduleShape) + finderLookAlikes(withSquare(matrix, hidden, 1), moduleShape)
      : finderLookAlikes(matrix, moduleShape);
  let best = { modules: standard.modules, lookAlikes: score(standard.modules) };
  for (const maskPattern of MASKS) {
    if (best.lookAlikes === 0) break;
    if (maskPattern === standard.maskPattern) continue;
    const { modules } = QRCode.create(text, { errorCorrectionLevel, maskPattern });
    const lookAlikes = score(modules);
    if (lookAlikes < best.lookAlikes) best = { modules, lookAlikes };
  }
  return best.modules;
}

/** The matrix with every module touching the square set to `value`, as a logo's picture might read. */
function withSquare(matrix: QrMatrix, { from, to }: HiddenSquare, value: 0 | 1): QrMatrix {
  const n = matrix.size;
  const data = Uint8Array.from(matrix.data);
  for (let row = Math.max(0, Math.floor(from)); row < Math.min(n, Math.ceil(to)); row++) {
    for (let col = Math.max(0, Math.floor(from)); col < Math.min(n, Math.ceil(to)); col++) data[row * n + col] = value;
  }
  // The package's BitMatrix keeps its methods on the prototype (isReserved reads the original's reserved bits).
  return Object.assign(Object.create(Object.getPrototypeOf(matrix) as object) as QrMatrix, matrix, { data });
}

/** Samples per module side when looking for look-alikes in the drawn shapes, not only in the modules. */
const SAMPLES = 4;

/**
 * Points, sampled SAMPLES times per module side, outside the three finders (and their separators) where the
 * drawn code reads dark and both its row and its column read dark-light-dark-light-dark in the proportions
 * ZXing's finder search accepts (each run within half a unit of 1:1:3:1:1 scaled to the runs' total). Sampled
 * rather than counted in modules because shapes make look-alikes of their own: rounded corners, cut where two
 * modules meet diagonally, read as a finder along a module's edge (ZXing took one for a corner in a classy-rounded
 * code at 512 px). Edges count as light, as the quiet zone is.
 */
export function finderLookAlikes(matrix: QrMatrix, moduleShape: ModuleShape = 'square'): number {
  // Square modules have no shape of their own to sample.
  const samples = moduleShape === 'square' ? 1 : SAMPLES;
  const side = matrix.size * samples;
  const ink = drawnSamples(matrix, moduleShape, samples);
  const rows = Array.from({ length: side }, (_, y) => finderRuns((i) => ink[y * side + i] === 1, side));
  const cols = Array.from({ length: side }, (_, x) => finderRuns((i) => ink[i * side + x] === 1, side));
  const edge = 8 * samples;
  const nearFinder = (y: number, x: number) => (y < edge && x < edge) || (y < edge && x >= side - edge) || (y >= side - edge && x < edge);
  let count = 0;
  for (let y = 0; y < side; y++) {
    const row = rows[y]!;
    for (let x = 0; x < side; x++) {
      if (ink[y * side + x] !== 1 || !row[x] || !cols[x]![y] || nearFinder(y, x)) continue;
      count++;
    }
  }
  return count;
}

/** The code as drawn, SAMPLES × SAMPLES points per module (1: dark), the module shapes' corners left out. */
function drawnSamples(matrix: QrMatrix, moduleShape: ModuleShape, samples: number): Uint8Array {
  const n = matrix.size;
  const side = n * samples;
  const ink = new Uint8Array(side * side);
  const dark = (row: number, col: number) => row >= 0 && col >= 0 && row < n && col < n && matrix.data[row * n + col] === 1;
  for (let row = 0; row < n; row++) {
    for (let col = 0; col < n; col++) {
      if (!dark(row, col)) continue;
      // Function patterns stay square (render-svg.ts draws them so), and so do square modules.
      const plain = moduleShape === 'square' || matrix.isReserved(row, col);
      const free = {
        tl: !dark(row - 1, col) && !dark(row, col - 1),
        tr: !dark(row - 1, col) && !dark(row, col + 1),
        br: !dark(row + 1, col) && !dark(row, col + 1),
        bl: !dark(row + 1, col) && !dark(row, col - 1),
      };
      const [tl, tr, br, bl] = plain || moduleShape === 'dots' ? [0, 0, 0, 0] : cornerRadii(moduleShape, free);
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const x = (sx + 0.5) / samples;
          const y = (sy + 0.5) / samples;
          const inside =
            !plain && moduleShape === 'dots'
              ? (x - 0.5) ** 2 + (y - 0.5) ** 2 <= 0.25
              : !outsideCorner(x, y, tl) && !outsideCorner(1 - x, y, tr) && !outsideCorner(1 - x, 1 - y, br) && !outsideCorner(x, 1 - y, bl);
          if (inside) ink[(row * samples + sy) * side + col * samples + sx] = 1;
        }
      }
    }
  }
  return ink;
}

/** Whether (x, y), measured from a module's corner, is cut off by that corner's rounding of radius r. */
function outsideCorner(x: number, y: number, r: number): boolean {
  return x < r && y < r && (x - r) ** 2 + (y - r) ** 2 > r * r;
}

/** Radii (top-left, top-right, bottom-right, bottom-left) of a module's corners; a corner is rounded only where both its neighbours are empty, so joined modules stay joined. */
export function cornerRadii(shape: ModuleShape, free: { tl: boolean; tr: boolean; br: boolean; bl: boolean }): [number, number, number, number] {
  switch (shape) {
    case 'rounded':
      return [free.tl ? 0.5 : 0, free.tr ? 0.5 : 0, free.br ? 0.5 : 0, free.bl ? 0.5 : 0];
    case 'classy':
      return [free.tl ? 0.5 : 0, 0, free.br ? 0.5 : 0, 0];
    case 'classy-rounded':
      return [free.tl ? 0.5 : 0, free.tr ? 0.2 : 0, free.br ? 0.5 : 0, free.bl ? 0.2 : 0];
    default:
      return [0, 0, 0, 0];
  }
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
