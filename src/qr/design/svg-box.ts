/**
 * The trim and bleed of an SVG from renderDesignSvg, in its own units (modules): its viewBox starts at minus the
 * bleed, and the trimmed image is the rest.
 */
export function svgBox(svg: string): { bleed: number; trimWidth: number; trimHeight: number } {
  const viewBox = /viewBox="(-?[\d.]+) (-?[\d.]+) ([\d.]+) ([\d.]+)"/.exec(svg);
  if (!viewBox) throw new Error('expected an SVG from renderDesignSvg');
  const bleed = -Number(viewBox[1]);
  return { bleed, trimWidth: Number(viewBox[3]) - 2 * bleed, trimHeight: Number(viewBox[4]) - 2 * bleed };
}
