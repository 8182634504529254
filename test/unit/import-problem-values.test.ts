import { h } from 'preact';
import { render } from 'preact-render-to-string';
import { describe, expect, it } from 'vitest';
import { ShownValue } from '../../src/dashboard/imports/shown-value.js';
import { MAX_PROBLEM_VALUE, problemValue } from '../../src/imports/problem-values.js';

describe('the value beside an import error', () => {
  it('keeps a short cell as given and cuts a long one at 80 characters, marked with …', () => {
    expect(problemValue('not a url')).toBe('not a url');
    expect(problemValue('x'.repeat(MAX_PROBLEM_VALUE))).toBe('x'.repeat(MAX_PROBLEM_VALUE));
    expect(problemValue('x'.repeat(100_000))).toBe(`${'x'.repeat(MAX_PROBLEM_VALUE)}…`);
  });

  it('never cuts an emoji, a flag or a combining accent in half', () => {
    const flags = '🇩🇪'.repeat(100);
    const cut = problemValue(flags);
    expect(cut).toBe(`${'🇩🇪'.repeat(MAX_PROBLEM_VALUE)}…`);
    expect(problemValue(`${'e\u0301'.repeat(100)}`)).toBe(`${'e\u0301'.repeat(MAX_PROBLEM_VALUE)}…`);
  });

  it('shows markup as text and writes out what a reader cannot see', () => {
    const html = render(h(ShownValue, { value: '<script>alert(1)</script>\n\u202Egnp.exe\t\u200B' }));
    expect(html).toBe('<code class="import-value">&lt;script>alert(1)&lt;/script>\\n\\u{202E}gnp.exe\\t\\u{200B}</code>');
    expect(render(h(ShownValue, { value: '' }))).toContain('(empty)');
    expect(render(h(ShownValue, { value: undefined }))).toContain('—');
  });
});
