import { ImageReadLimiter } from '../accounts/image-read-limit.js';
import type { Config } from '../config.js';
import { QrImageRenderer } from './image-renderer.js';

/** What serving QR images needs: the render pool with its cache, and the per-account read limit. */
export interface QrImages {
  renderer: QrImageRenderer;
  limiter: ImageReadLimiter;
  close(): Promise<void>;
}

export function createQrImages(config: Pick<Config, 'imageReads'>): QrImages {
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
