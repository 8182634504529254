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

/** The client gave up while its render waited. */
export class RenderAbandonedError extends Error {}

interface Waiting {
  etag: string;
  request: QrImageRequest;
  resolve(body: Buffer): void;
  reject(error: unknown): void;
}

/**
 * Renders QR images off the event loop, in a small pool of worker threads, behind a cache keyed by the image's
 * ETag (its inputs and the renderer version). A render CPU-bound on the main thread would hold up every redirect
 * and API call behind it; in the pool it holds one thread.
 *
 * The queue is ours, not piscina's: piscina bounds its queue only for tasks without an AbortSignal, and aborting
 * a task that has started ends its thread. So piscina gets a task only when a thread is free, and never a signal;
 * a client that hangs up while its render waits leaves our queue, and a render that has started finishes (in
 * milliseconds) and goes into the cache. Identical requests in flight share one render.
 */
export class QrImageRenderer {
  private readonly pool: Piscina<QrImageRequest, Uint8Array>;
  private readonly cache: LRUCache<string, Buffer>;
  private readonly waiting: Waiting[] = [];
  private readonly inFlight = new Map<string, Promise<Buffer>>();
  private running = 0;
  readonly stats = { renders: 0, cacheHits: 0, shared: 0, abandoned: 0, refused: 0 };

  constructor(private readonly options: QrImageRendererOptions) {
    // From the built service the worker is render-worker.js beside this file; from source (tsx, tests) it is the
    // .ts file, which a worker thread can only load with tsx's loader.
    const fromSource = import.meta.url.endsWith('.ts');
    this.pool = new Piscina({
      filename: new URL(`./render-worker.${fromSource ? 'ts' : 'js'}`, import.meta.url).href,
      ...(fromSource && { execArgv: ['--import', 'tsx'] }),
      minThreads: 0,
      maxThreads: options.threads,
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
    const shared = this.inFlight.get(etag);
    if (shared) {
      this.stats.shared++;
      return { body: await shared, etag };
    }
    if (signal?.aborted) {
      this.stats.abandoned++;
      throw new RenderAbandonedError('the client hung up before its render started');
    }
    const rendering =
      this.running < this.options.threads ? this.start(etag, request) : this.enqueue(etag, request, signal);
    return { body: await rendering, etag };
  }

  async close(): Promise<void> {
    for (const waiting of this.waiting.splice(0)) waiting.reject(new RenderAbandonedError('the renderer is closing'));
    await this.pool.destroy();
  }

  private enqueue(etag: string, request: QrImageRequest, signal: AbortSignal | undefined): Promise<Buffer> {
    if (this.waiting.length >= this.options.maxQueue) {
      this.stats.refused++;
      return Promise.reject(new RenderQueueFullError('too many QR images are waiting to be rendered'));
    }
    return new Promise<Buffer>((resolve, reject) => {
      const entry: Waiting = { etag, request, resolve, reject };
      this.waiting.push(entry);
      signal?.addEventListener(
        'abort',
        () => {
          const index = this.waiting.indexOf(entry);
          if (index === -1) return; // already started: it finishes and is cached
          this.waiting.splice(index, 1);
          this.stats.abandoned++;
          reject(new RenderAbandonedError('the client hung up while its render waited'));
        },
        { once: true },
      );
    });
  }

  private start(etag: string, request: QrImageRequest): Promise<Buffer> {
    this.running++;
    const rendering = this.pool
      .run(request)
      .then((rendered) => {
        this.stats.renders++;
        const body = Buffer.from(rendered.buffer, rendered.byteOffset, rendered.byteLength);
        this.cache.set(etag, body);
        return body;
      })
      .finally(() => {
        this.running--;
        this.inFlight.delete(etag);
        this.startNext();
      });
    this.inFlight.set(etag, rendering);
    return rendering;
  }

  private startNext(): void {
    const next = this.waiting.shift();
    if (!next) return;
    this.start(next.etag, next.request).then(next.resolve, next.reject);
  }
}
