import { checkDesign, prepareDesign } from '../qr/design/design-checks.js';
import { parseDesign, type Design, type DesignProblem } from '../qr/design/design.js';

/** A design that failed parsing or the scannability checks; `problems` say why, each at its JSON pointer. */
export class DesignInvalidError extends Error {
  constructor(readonly problems: DesignProblem[]) {
    super(`design refused: ${problems.map((p) => `${p.path} ${p.message}`).join('; ')}`);
  }
}

export type CheckedDesign = { ok: true; design: Design } | { ok: false; problems: DesignProblem[] };

/**
 * A design from untrusted input that would scan: parsed strictly, then checked. With `text` (what a code encodes)
 * the check is the renderer's own (prepareDesign: it also knows how much of that code's matrix a logo covers);
 * without (a template, which codes of any length follow) it is checkDesign, which needs no text.
 */
export function checkedDesign(input: unknown, text?: string): CheckedDesign {
  const parsed = parseDesign(input);
  if (!parsed.ok) return parsed;
  const problems = text === undefined ? checkDesign(parsed.design) : prepareDesignProblems(parsed.design, text);
  return problems.length > 0 ? { ok: false, problems } : parsed;
}

function prepareDesignProblems(design: Design, text: string): DesignProblem[] {
  const prepared = prepareDesign(design, text);
  return prepared.ok ? [] : prepared.problems;
}

/** As checkedDesign, throwing DesignInvalidError instead of answering problems. */
export function requireDesign(input: unknown, text?: string): Design {
  const checked = checkedDesign(input, text);
  if (!checked.ok) throw new DesignInvalidError(checked.problems);
  return checked.design;
}

/**
 * A design read back from the database. It was checked when saved, but parsed again: a jsonb column is only
 * JSON, and a row written by an older version may no longer parse. Such a design counts as none (the code takes
 * the default look) rather than failing every image of the code.
 */
export function storedDesign(value: unknown): Design | null {
  if (value === null || value === undefined) return null;
  const parsed = parseDesign(value);
  return parsed.ok ? parsed.design : null;
}
