import { ImageReadLimiter } from '../accounts/image-read-limit.js';
import { QrImageRenderer } from './image-renderer.js';

/** What serving QR images needs: the render pool with its cache, and the per-account read limit. */
export interface QrImages {
  renderer: QrImageRenderer;
  limiter: ImageReadLimiter;
  close(): Promise<void>;
}

/** IMAGE_READS_PER_MINUTE and IMAGE_RENDER_* as config.ts reads them. */
export interface ImageReadSettings {
  perMinute: number;
  renderThreads: number;
  renderQueue: number;
  cacheBytes: number;
}

export function createQrImages(config: { imageReads: ImageReadSettings }): QrImages {
  const renderer = new QrImageRenderer({
    threads: config.imageReads.renderThreads,
    maxQueue: config.imageReads.renderQueue,
    cacheBytes: config.imageReads.cacheBytes,
  });
  return {
    renderer,
    limiter: new ImageReadLimiter(config.imageReads.perMinute, 60_000),
    close: () => renderer.close(),
  };
}
