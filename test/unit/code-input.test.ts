import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parseCodeInput } from '../../src/api/operations/input.js';
import { ApiError } from '../../src/errors.js';
import { parseCodeFields, parseCodeName } from '../../src/codes/code-input.js';
import { contract } from '../support/contract.js';

const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addSchema({ ...contract, $id: 'contract' });
const validateUpdateBody = ajv.compile({ $ref: 'contract#/components/schemas/UpdateQrCodeRequest' });

type Field = { name: string } | { url: string };

/** What the API stores for a one-field change body, or null when it answers 400: the contract's schema, then its own checks. */
function storedByApi(body: Field): string | null {
  if (!validateUpdateBody(body)) return null;
  try {
    const parsed = parseCodeInput(body);
    return (parsed.name ?? parsed.destinationUrl)!;
  } catch (error) {
    if (error instanceof ApiError && error.code === 'invalid_body') return null;
    throw error;
  }
}

/** What the dashboard stores for the same field, or null when its form shows a problem. */
function storedByDashboard(body: Field): string | null {
  const parsed = parseCodeFields(body);
  return parsed.ok ? (parsed.name ?? parsed.destinationUrl)! : null;
}

describe('the dashboard and the API take and refuse the same names and destinations', () => {
  it.each<[string, Field, string | null]>([
    ['a plain name', { name: 'Spring poster' }, 'Spring poster'],
    ['a one-character name', { name: 'a' }, 'a'],
    ['a name of 200 characters', { name: 'x'.repeat(200) }, 'x'.repeat(200)],
    ['200 emoji (400 UTF-16 units, 200 characters)', { name: '🎉'.repeat(200) }, '🎉'.repeat(200)],
    ['a name with accents and a no-break space inside', { name: 'Café\u00a0Ω' }, 'Café\u00a0Ω'],
    ['a name with spaces around it', { name: '  Spring poster ' }, 'Spring poster'],
    ['an empty name', { name: '' }, null],
    ['a name of spaces only', { name: '   ' }, null],
    ['a name of 201 characters', { name: 'x'.repeat(201) }, null],
    ['201 emoji', { name: '🎉'.repeat(201) }, null],
    ['a tab inside a name', { name: 'Spring\tposter' }, null],
    ['a NUL inside a name', { name: 'Spring\u0000poster' }, null],
    ['a DEL inside a name', { name: 'Spring\u007fposter' }, null],
    ['an https URL', { url: 'https://example.com/spring?utm=1' }, 'https://example.com/spring?utm=1'],
    ['an upper-case URL (normalized)', { url: 'HTTPS://Example.COM' }, 'https://example.com/'],
    ['an internationalized host', { url: 'https://例え.jp/' }, 'https://xn--r8jz45g.jp/'],
    ['a URL of 2048 characters', { url: `https://example.com/${'a'.repeat(2028)}` }, `https://example.com/${'a'.repeat(2028)}`],
    ['a URL of 2049 characters', { url: `https://example.com/${'a'.repeat(2029)}` }, null],
    ['an ftp URL', { url: 'ftp://example.com/file' }, null],
    ['a javascript: URL', { url: 'javascript:alert(1)' }, null],
    ['a URL without a host', { url: 'http://' }, null],
    ['a URL with credentials', { url: 'https://user:pw@example.com/' }, null],
    ['a bare host name', { url: 'example.com' }, null],
    ['an empty URL', { url: '' }, null],
  ])('%s', (_label, body, stored) => {
    expect(storedByApi(body)).toEqual(stored);
    expect(storedByDashboard(body)).toEqual(stored);
  });

  // The one intended difference: JSON Schema checks the raw string, before trimming, so the contract refuses
  // surrounding whitespace that a pasted form value easily carries; the dashboard stores the same trimmed value
  // that a clean API request would.
  it.each<[string, Field, string]>([
    ['a name of 200 characters plus a trailing space', { name: `${'x'.repeat(200)} ` }, 'x'.repeat(200)],
    ['a URL with a leading space', { url: ' https://example.com/' }, 'https://example.com/'],
  ])('the dashboard forgives %s that the contract refuses', (_label, body, stored) => {
    expect(storedByApi(body)).toBeNull();
    expect(storedByDashboard(body)).toBe(stored);
  });
});

describe('parseCodeFields', () => {
  it('reports every problem at once, by field', () => {
    expect(parseCodeFields({ name: ' ', url: 'ftp://x' })).toEqual({
      ok: false,
      problems: [
        { field: 'name', message: 'must not be blank' },
        { field: 'url', message: 'must use http or https' },
      ],
    });
  });

  it('leaves out the fields it was not given', () => {
    expect(parseCodeFields({})).toEqual({ ok: true });
    expect(parseCodeFields({ name: 'Poster' })).toEqual({ ok: true, name: 'Poster' });
  });
});

describe('parseCodeName', () => {
  it.each([
    ['', 'must not be blank'],
    ['x'.repeat(201), 'must be at most 200 characters'],
    ['a\nb', 'must not contain control characters'],
  ])('refuses %j: %s', (raw, message) => {
    expect(parseCodeName(raw)).toEqual({ ok: false, message });
  });
});
