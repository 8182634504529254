import { renderQrImageBody, type QrImageRequest } from './render.js';

/** Runs in the render pool's worker threads (see image-renderer.ts): one image per task, off the event loop. */
export default function render(request: QrImageRequest): Promise<Uint8Array> {
  return renderQrImageBody(request);
}
