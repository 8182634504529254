import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/paths.js';

/** The hand-written Markdown a reader browses: the README, every page under docs/, and the bench's README. */
function markdownFiles(): string[] {
  const docs = readdirSync(path.join(PROJECT_ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => path.join('docs', name));
  return ['README.md', ...docs.sort(), path.join('scripts', 'bench', 'README.md')];
}

/** The text outside fenced code blocks, where a line starting with # is a heading. */
function withoutCodeBlocks(markdown: string): string {
  return markdown.replace(/^[ \t]*(```|~~~)[^\n]*\n[\s\S]*?^[ \t]*\1[^\n]*$/gm, '');
}

/** The text outside code blocks and inline code, where a `[text](target)` is a link. */
function prose(markdown: string): string {
  return withoutCodeBlocks(markdown).replace(/`[^`\n]*`/g, '');
}

/** The targets of inline links and images, `[text](target "title")`, in the order they appear. */
function linkTargets(markdown: string): string[] {
  return [...prose(markdown).matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map(([, target]) => target!);
}

/** GitHub's anchor for a heading: lower case, punctuation removed, spaces to hyphens, repeats numbered -1, -2… */
function headingSlugs(markdown: string): Set<string> {
  const slugs = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of withoutCodeBlocks(markdown).matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const text = heading!.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/<[^>]+>/g, '');
    const base = text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '').replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    slugs.add(count === 0 ? base : `${base}-${count}`);
  }
  return slugs;
}

/** Why a relative link does not lead where it says, or undefined when it does. */
function brokenBecause(from: string, target: string): string | undefined {
  const [pathPart, fragment] = target.split('#', 2) as [string, string | undefined];
  const resolved = pathPart === '' ? from : path.normalize(path.join(path.dirname(from), decodeURIComponent(pathPart)));
  const absolute = path.join(PROJECT_ROOT, resolved);
  if (resolved.startsWith('..') || !existsSync(absolute)) return `${resolved} does not exist`;
  if (fragment === undefined) return undefined;
  if (statSync(absolute).isDirectory() || !resolved.endsWith('.md')) return `#${fragment} points into ${resolved}, which has no headings`;
  const slugs = headingSlugs(readFileSync(absolute, 'utf8'));
  return slugs.has(decodeURIComponent(fragment).toLowerCase()) ? undefined : `${resolved} has no heading #${fragment}`;
}

describe('links in the README and docs/', () => {
  it('finds the pages it checks, and links in them', () => {
    const files = markdownFiles();
    expect(files.length).toBeGreaterThan(20);
    for (const file of files) expect(existsSync(path.join(PROJECT_ROOT, file)), file).toBe(true);
    expect(linkTargets(readFileSync(path.join(PROJECT_ROOT, 'README.md'), 'utf8')).length).toBeGreaterThan(10);
  });

  it.each(markdownFiles())('every relative link in %s leads to a file, and a #fragment to a heading in it', (file) => {
    const markdown = readFileSync(path.join(PROJECT_ROOT, file), 'utf8');
    const relative = linkTargets(markdown).filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
    const broken = relative.map((target) => ({ target, problem: brokenBecause(file, target) })).filter((link) => link.problem);
    expect(broken).toEqual([]);
  });
});

describe('headingSlugs', () => {
  it.each([
    ['# When the database fails', 'when-the-database-fails'],
    ['## Bulk import and export', 'bulk-import-and-export'],
    ['### `SCAN_JOURNAL_DIR`: where, and why', 'scan_journal_dir-where-and-why'],
    ['## API & webhooks (owners)', 'api--webhooks-owners'],
    ['## Code types, landing pages', 'code-types-landing-pages'],
  ])('gives %j the anchor %j, as GitHub does', (given, want) => {
    expect([...headingSlugs(given)]).toEqual([want]);
  });

  it('numbers a repeated heading', () => {
    expect([...headingSlugs('## Measured\n\n## Measured\n')]).toEqual(['measured', 'measured-1']);
  });

  it('ignores a # line inside a code block', () => {
    expect([...headingSlugs('```sh\n# a comment\n```\n## Real\n')]).toEqual(['real']);
  });
});
