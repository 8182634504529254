import { describe, expect, it } from 'vitest';
import { MAX_IMPORT_LINES, MAX_SEPARATORS_PER_LINE, readCsv } from '../../src/imports/read-csv.js';

/** A header and `rows` URL rows, each line ended by `lineEnd`. */
function csv(rows: number, lineEnd: string): Buffer {
  const lines = ['type,name,url', ...Array.from({ length: rows }, (_, i) => `URL,Code ${i},https://example.com/${i}`)];
  return Buffer.from(lines.map((line) => `${line}${lineEnd}`).join(''));
}

describe('readCsv line ends', () => {
  it.each([
    ['CR', '\r'],
    ['LF', '\n'],
    ['CRLF', '\r\n'],
  ])('reads a 1,001-row file with %s line ends, each row on its own line', (_name, lineEnd) => {
    const result = readCsv(csv(1_001, lineEnd));
    expect(result).toMatchObject({ ok: true, header: ['type', 'name', 'url'] });
    if (!result.ok) return;
    expect(result.rows).toHaveLength(1_001);
    expect(result.rows.at(-1)).toEqual({ line: 1_002, cells: ['URL', 'Code 1000', 'https://example.com/1000'] });
  });

  it('counts each lone CR as a line against the bounds, and a CRLF once', () => {
    const crOnly = readCsv(Buffer.from(`type,name,url${'\r'.repeat(MAX_IMPORT_LINES + 1)}`));
    expect(crOnly).toEqual({ ok: false, message: expect.stringContaining(`more than ${MAX_IMPORT_LINES.toLocaleString('en')} lines`) });
    // Counted twice, these blank lines would pass the bound; counted once they are under it, and only blank.
    const crlf = readCsv(Buffer.from(`type,name,url${'\r\n'.repeat(Math.ceil(MAX_IMPORT_LINES * 0.6))}`));
    expect(crlf).toEqual({ ok: false, message: 'The file has a header but no rows.' });
  });

  it(`still refuses more than ${MAX_SEPARATORS_PER_LINE.toLocaleString('en')} separators on one CR-ended line`, () => {
    const result = readCsv(Buffer.from(`type,name,url\rURL,a,b\r${','.repeat(MAX_SEPARATORS_PER_LINE + 1)}\r`));
    expect(result).toEqual({ ok: false, message: `Line 3 has more than ${MAX_SEPARATORS_PER_LINE.toLocaleString('en')} separators; no code type has that many columns.` });
  });
});
