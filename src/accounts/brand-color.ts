const HEX_COLOR = /^#[0-9a-f]{6}$/;

/**
 * `#rrggbb` or `#rgb`, any case, surrounding spaces ignored; undefined for anything else. Stored lower case,
 * the form the database CHECK accepts.
 */
export function parseBrandColor(typed: string): string | undefined {
  const text = typed.trim().toLowerCase();
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/.exec(text);
  const full = short ? `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}` : text;
  return HEX_COLOR.test(full) ? full : undefined;
}

/** WCAG 2.x relative luminance of an `#rrggbb` colour. */
function luminance(color: string): number {
  const channel = (offset: number) => {
    const value = parseInt(color.slice(offset, offset + 2), 16) / 255;
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** WCAG contrast ratio between two `#rrggbb` colours, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/**
 * The text colour for buttons filled with the brand colour: white when white reaches WCAG AA (4.5:1), else
 * black. Any colour is accepted rather than refused: brand colours are fixed by brand guidelines (a yellow, a
 * light green), and one of white or black always reaches AA on any colour (the worse case is about 4.58:1).
 */
export function textColorOn(color: string): '#ffffff' | '#000000' {
  return contrastRatio(color, '#ffffff') >= 4.5 ? '#ffffff' : '#000000';
}
