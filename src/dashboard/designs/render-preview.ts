import { imageTextOfCode } from '../../codes/image-text.js';
import type { QrCode } from '../../codes/index.js';
import { checkedDesign } from '../../designs/index.js';
import type { Design } from '../../qr/design/design.js';
import { RenderQueueFullError } from '../../qr/image-renderer.js';
import { qrContentFor } from '../../qr/render.js';
import type { DashboardDependencies } from '../shared/context.js';
import { DashboardError } from '../shared/errors.js';
import { problemInWords } from './design-form.js';

/** The preview's width attribute; the page scales it with CSS. */
const PREVIEW_WIDTH = 320;

/** A template is not one code: its preview draws a short URL of the usual length (8-character slug). */
const SAMPLE_SLUG = '7K3M9QXD';

export interface Preview {
  /** The design, when it would scan. */
  design: Design | null;
  svg: string | null;
  /** Why not, in words. */
  problems: string[];
}

/** What a code's image encodes: the same text the API and the downloads draw (a direct Wi-Fi code's network). */
export function codeText(deps: DashboardDependencies, code: QrCode, accountId: string): Promise<string> {
  return imageTextOfCode(deps.db, accountId, code, deps.config.siteUrl);
}

export function sampleText(deps: DashboardDependencies): string {
  return qrContentFor(`${deps.config.siteUrl.replace(/\/$/, '')}/r/${SAMPLE_SLUG}`, deps.config.siteUrl);
}

/**
 * Checks a design from the editor's form the way saving it will, and draws it when it passes. Drawn in the image
 * pool like every other image (and cached by the same key), so a burst of previews cannot hold up the server.
 */
export async function renderPreview(deps: DashboardDependencies, input: unknown, text: string): Promise<Preview> {
  const checked = checkedDesign(input, text);
  if (!checked.ok) return { design: null, svg: null, problems: checked.problems.map(problemInWords) };
  try {
    const image = await deps.images.renderer.render({ text, format: 'svg', size: PREVIEW_WIDTH, margin: 4, ecc: 'M', design: checked.design });
    return { design: checked.design, svg: image.body.toString('utf8'), problems: [] };
  } catch (error) {
    if (error instanceof RenderQueueFullError) throw new DashboardError(503, 'Too many QR images are being drawn right now', 'Try again in a moment.');
    throw error;
  }
}

/**
 * A page's preview of a refused form keeps an image, as the live editor does: the design as last saved (which passed
 * the checks then), beside the reasons the form's version is refused. Without a refusal, the preview as it is.
 */
export async function previewWithLastGood(deps: DashboardDependencies, preview: Preview, saved: Design, text: string): Promise<Preview> {
  if (preview.svg !== null) return preview;
  return { ...preview, svg: (await renderPreview(deps, saved, text)).svg };
}
