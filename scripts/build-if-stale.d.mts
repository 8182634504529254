// Types for scripts/build-if-stale.mjs (plain JavaScript so that it runs before anything is compiled).
export interface BuildTarget {
  output: string;
  script: string;
  sources: string[];
  stamp: string;
}
export declare const TARGETS: Record<'build' | 'docs', BuildTarget>;
export declare function newestSource(root: string, paths: string[]): { file: string; mtimeMs: number } | undefined;
export declare function staleReason(root: string, target: BuildTarget): string | undefined;
export declare function buildIfStale(
  root: string,
  names: string[],
  options?: { run?: (root: string, script: string) => boolean; log?: (line: string) => void },
): boolean;
export declare function filesNamedByScript(root: string, script: string): string[];
