/** `--name value` pairs after the command words; a flag without a value is an error. */
export function parseFlags(words: string[]): Map<string, string> {
  const flags = new Map<string, string>();
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (!word.startsWith('--')) throw new UsageError(`unexpected argument "${word}"`);
    const eq = word.indexOf('=');
    if (eq > 2) {
      flags.set(word.slice(2, eq), word.slice(eq + 1));
      continue;
    }
    const value = words[i + 1];
    if (value === undefined || value.startsWith('--')) throw new UsageError(`${word} needs a value`);
    flags.set(word.slice(2), value);
    i++;
  }
  return flags;
}

export class UsageError extends Error {}

export function required(flags: Map<string, string>, name: string): string {
  const value = flags.get(name);
  if (value === undefined || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value;
}

export function optionalInteger(flags: Map<string, string>, name: string): number | undefined {
  const raw = flags.get(name);
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new UsageError(`--${name} must be a non-negative integer`);
  return value;
}

/** Lets the CLI create the embedded database when DATA_DIR has none; accepted anywhere on the command line. */
export const INIT_FLAG = '--init';

export function takeInitFlag(args: string[]): { init: boolean; argv: string[] } {
  return { init: args.includes(INIT_FLAG), argv: args.filter((word) => word !== INIT_FLAG) };
}
