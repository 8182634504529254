import { LRUCache } from 'lru-cache';
import { Piscina } from 'piscina';
import { type QrImageRequest, qrImageEtag } from './render.js';

export interface QrImageRendererOptions {
  /** Renders at once, each on its own thread. */
  threads: number;
  /** Renders waiting for a thread; past it a request is refused (503) rather than queued without end. */
  maxQueue: number;
  /** Rendered images kept, by total size. */
  cacheBytes: number;
}

/** The pool has `maxQueue` renders waiting already. */
export class RenderQueueFullError extends Error {}

/**
 * Renders QR images off the event loop, in a small pool of worker threads, behind a cache keyed by the image's
 * ETag (its inputs and the renderer version). A render CPU-bound for most of a second on the main thread would
 * hold up every redirect and API call behind it; in the pool it holds one thread, and a request whose client
 * hung up while it waited is dropped from the queue (`signal`).
 */
export class QrImageRenderer {
  private readonly pool: Piscina<QrImageRequest, Uint8Array>;
  private readonly cache: LRUCache<string, Buffer>;
  readonly stats = { renders: 0, cacheHits: 0, abandoned: 0, refused: 0 };

  constructor(options: QrImageRendererOptions) {
    // From the built service the worker is render-worker.js beside this file; from source (tsx, tests) it is the
    // .ts file, which a worker thread can only load with tsx's loader.
    const fromSource = import.meta.url.endsWith('.ts');
    this.pool = new Piscina({
      filename: new URL(`./render-worker.${fromSource ? 'ts' : 'js'}`, import.meta.url).href,
      ...(fromSource && { execArgv: ['--import', 'tsx'] }),
      minThreads: 0,
      maxThreads: options.threads,
      maxQueue: options.maxQueue,
      idleTimeout: 30_000,
    });
    // lru-cache refuses maxSize 0; a 1-byte budget keeps nothing, which is what 0 means here.
    this.cache = new LRUCache({ maxSize: Math.max(1, options.cacheBytes), sizeCalculation: (body) => Math.max(1, body.length) });
  }

  async render(request: QrImageRequest, signal?: AbortSignal): Promise<{ body: Buffer; etag: string }> {
    const etag = qrImageEtag(request);
    const cached = this.cache.get(etag);
    if (cached) {
      this.stats.cacheHits++;
      return { body: cached, etag };
    }
    let rendered: Uint8Array;
    try {
      rendered = await this.pool.run(request, { signal });
    } catch (error) {
      if (signal?.aborted) this.stats.abandoned++;
      else if ((error as Error).message === 'Task queue is at limit') {
        this.stats.refused++;
        throw new RenderQueueFullError('too many QR images are being rendered', { cause: error });
      }
      throw error;
    }
    this.stats.renders++;
    const body = Buffer.from(rendered.buffer, rendered.byteOffset, rendered.byteLength);
    this.cache.set(etag, body);
    return { body, etag };
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }
}
