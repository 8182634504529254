import { describe, expect, it } from 'vitest';
import { contrastRatio, parseBrandColor, textColorOn } from '../../src/accounts/branding.js';
import { pageCsp, pageCss } from '../../src/landing/page-style.js';

describe('brand colours', () => {
  it('reads #rrggbb and #rgb in any case, and nothing else', () => {
    expect(parseBrandColor('#1F5FBF')).toBe('#1f5fbf');
    expect(parseBrandColor(' #abc ')).toBe('#aabbcc');
    for (const bad of ['', '1f5fbf', '#1f5fb', '#1f5fbff', 'red', 'rgb(1,2,3)', '#1f5fbf;}', '#ggg']) expect(parseBrandColor(bad), bad).toBeUndefined();
  });

  it('computes WCAG contrast ratios', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#ffffff')).toBe(1);
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
  });

  it('puts white or black text on any colour, always at WCAG AA (4.5:1) or better', () => {
    expect(textColorOn('#1f5fbf')).toBe('#ffffff');
    expect(textColorOn('#ffd400')).toBe('#000000');
    let worst = 21;
    for (let r = 0; r < 256; r += 5) {
      for (let g = 0; g < 256; g += 5) {
        for (let b = 0; b < 256; b += 5) {
          const color = `#${[r, g, b].map((v) => v.toString(16).padStart(2, '0')).join('')}`;
          worst = Math.min(worst, contrastRatio(color, textColorOn(color)));
        }
      }
    }
    expect(worst).toBeGreaterThanOrEqual(4.5);
  });

  it("sets only the page's two custom properties, and the CSP allows exactly that stylesheet", () => {
    expect(pageCss('#ffd400').endsWith(':root{--a:#ffd400;--at:#000000}')).toBe(true);
    expect(pageCss(null)).not.toContain('--at:#000000');
    expect(pageCsp(pageCss('#ffd400'))).not.toBe(pageCsp(pageCss(null)));
  });
});
