import { describe, expect, it } from 'vitest';
import { firstLanguage } from '../../../src/audience/language.js';

describe('firstLanguage', () => {
  it('is the primary subtag of the first entry, lower case', () => {
    expect(firstLanguage('de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7')).toBe('de');
    expect(firstLanguage('EN')).toBe('en');
    expect(firstLanguage('  fr-CA ; q=1 , en')).toBe('fr');
    expect(firstLanguage('zh-Hant-TW,zh;q=0.9')).toBe('zh');
    expect(firstLanguage('gsw-CH')).toBe('gsw');
    expect(firstLanguage('en_US')).toBe('en');
  });

  it('takes the first entry by position, not the highest q (browsers write the preferred language first)', () => {
    expect(firstLanguage('en;q=0.5,de;q=0.9')).toBe('en');
  });

  it('is null for no header, a wildcard, undetermined, private-use tags and junk', () => {
    for (const header of [undefined, '', ' ', '*', '*;q=0.5,de', 'und', 'x-klingon', 'i-enochian', 'e', 'english', 'de\u0000', 'd e', '12', ';q=1', ',de', 'de-' + 'x'.repeat(20), 'a'.repeat(10_000)]) {
      expect(firstLanguage(header), JSON.stringify(header)).toBeNull();
    }
  });

  it('reads only the start of an overlong header', () => {
    expect(firstLanguage(`de,${'en;q=0.1,'.repeat(10_000)}`)).toBe('de');
  });
});
