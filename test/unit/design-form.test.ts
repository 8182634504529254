import { describe, expect, it } from 'vitest';
import { designFormValues, designInput, problemInWords, readDesignForm } from '../../src/dashboard/designs/design-form.js';
import { DEFAULT_DESIGN, parseDesign, type Design } from '../../src/qr/design/design.js';

const LOGO = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==';

/** What a browser sends for a form showing `design`: text fields as text, checked boxes as "on", others absent. */
function sent(design: Design): Record<string, string> {
  const body: Record<string, string> = {};
  for (const [field, value] of Object.entries(designFormValues(design))) {
    if (typeof value === 'string') body[field] = value;
    else if (value) body[field] = 'on';
  }
  return body;
}

describe('the design editor form', () => {
  const designs: [string, Design][] = [
    ['the default', DEFAULT_DESIGN],
    ['a linear gradient with a middle stop, own corner colours, a box frame', {
      ...DEFAULT_DESIGN,
      foreground: { type: 'linear', angle: 90, stops: [{ offset: 0, color: '#112233' }, { offset: 0.4, color: '#223344' }, { offset: 1, color: '#334455' }] },
      moduleShape: 'classy-rounded',
      cornerFrame: { shape: 'dot', color: '#000000' },
      cornerDot: { shape: 'rounded', color: '#101010' },
      errorCorrection: 'Q',
      quietZone: 3,
      frame: { style: 'box', text: 'Scan me', color: '#222222', textColor: '#ffffff' },
    }],
    ['a radial gradient, transparent, inverted and confirmed, with a logo', {
      ...DEFAULT_DESIGN,
      foreground: { type: 'radial', stops: [{ offset: 0, color: '#ffffff' }, { offset: 1, color: '#eeeeee' }] },
      background: null,
      confirmInverted: true,
      logo: { png: LOGO, size: 0.15, margin: 2, clearBehind: false },
    }],
  ];
  it.each(designs)('shows %s and reads it back unchanged', (_, design) => {
    const parsed = parseDesign(designInput(readDesignForm(sent(design)), design.logo?.png ?? null));
    expect(parsed).toEqual({ ok: true, design });
  });

  it('drops the logo when "Remove the logo" is checked', () => {
    const design = { ...DEFAULT_DESIGN, logo: { png: LOGO, size: 0.2, margin: 1, clearBehind: true } };
    const parsed = parseDesign(designInput(readDesignForm({ ...sent(design), removeLogo: 'on' }), LOGO));
    expect(parsed.ok && parsed.design.logo).toBeNull();
  });

  it('names the control at fault and gives per-cent fields their limits in per cent', () => {
    expect(problemInWords({ path: '/background', message: 'contrast is low' })).toBe('Background colour: contrast is low.');
    expect(problemInWords({ path: '/foreground/stops/1/color', message: 'must be a colour' })).toBe('Colour of gradient stop 2: must be a colour.');
    expect(problemInWords({ path: '/logo/size', message: 'must be a number from 0.05 to 0.3' })).toBe('Logo size: must be a number from 5% to 30%.');
    expect(problemInWords({ path: '/foreground/stops/0/offset', message: 'must be a number from 0 to 1' })).toBe(
      'Position of gradient stop 1: must be a number from 0% to 100%.',
    );
    expect(problemInWords({ path: '/quietZone', message: 'must be a whole number from 0 to 10' })).toBe('Quiet zone: must be a whole number from 0 to 10.');
  });

  it('passes text that is not a number on, so the parser names the field', () => {
    const parsed = parseDesign(designInput(readDesignForm({ ...sent(DEFAULT_DESIGN), quietZone: 'four' }), null));
    expect(parsed).toMatchObject({ ok: false, problems: [{ path: '/quietZone' }] });
  });
});
