import type { Design } from '../../qr/design/design.js';

/** `design` with a new logo image, keeping its size and placement if it had a logo (else the usual 20%). */
export function withLogo(design: Design, png: string): Design {
  const logo = design.logo ?? { png, size: 0.2, margin: 1, clearBehind: true };
  return { ...design, logo: { ...logo, png } };
}
