/**
 * The cell a problem is about, as the file gave it, kept beside the problem so the report can show what was
 * wrong without the person opening the file. Kept short: a report may list thousands of problems, and a 10 MB
 * cell must not be stored again once per problem.
 */
export const MAX_PROBLEM_VALUE = 80;

/**
 * At most MAX_PROBLEM_VALUE characters as a reader counts them (grapheme clusters), so a cut never splits an
 * emoji, a flag or an accented letter into a broken half; `…` marks a cut. Only the first clusters are looked at.
 */
export function problemValue(cell: string): string {
  // Fewer UTF-16 units than the limit means fewer clusters: nothing to cut, nothing to segment.
  if (cell.length <= MAX_PROBLEM_VALUE) return cell;
  let out = '';
  let count = 0;
  for (const { segment } of new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(cell)) {
    if (count === MAX_PROBLEM_VALUE) return `${out}…`;
    out += segment;
    count += 1;
  }
  return out;
}
