import { afterEach, describe, expect, it } from 'vitest';
import { QrImageRenderer, RenderQueueFullError } from '../../src/qr/image-renderer.js';
import type { QrImageRequest } from '../../src/qr/render.js';

// The real pool with real worker threads (started from the .ts source through tsx, as in every test).

const renderers: QrImageRenderer[] = [];
afterEach(async () => {
  for (const renderer of renderers.splice(0)) await renderer.close();
});

function renderer(options: { threads: number; maxQueue: number; cacheBytes: number }): QrImageRenderer {
  const made = new QrImageRenderer(options);
  renderers.push(made);
  return made;
}

const png = (size: number): QrImageRequest => ({ text: 'HTTPS://QR.TEST/R/7K3M9QXD', format: 'png', size, margin: 4, ecc: 'M' });

describe('QrImageRenderer', () => {
  // The handler always passes its client's AbortSignal, so the bound must hold for renders that carry one.
  it('refuses renders past its threads and queue, with a signal as the API passes one', async () => {
    const pool = renderer({ threads: 1, maxQueue: 2, cacheBytes: 0 });
    const outcomes = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => pool.render(png(4096 - i), new AbortController().signal)));
    const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
    // One running and two waiting; the other seven are refused at once rather than queued without end.
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(3);
    for (const outcome of refused) expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(RenderQueueFullError);
    expect(pool.stats).toMatchObject({ renders: 3, refused: 7 });
    // Once drained it renders again.
    await expect(pool.render(png(100), new AbortController().signal)).resolves.toMatchObject({ etag: expect.any(String) });
  });

  it('drops a waiting render whose client left, without rendering it', async () => {
    const pool = renderer({ threads: 1, maxQueue: 8, cacheBytes: 0 });
    const first = pool.render(png(4096));
    const leaving = new AbortController();
    const waiting = Array.from({ length: 5 }, (_, i) => pool.render(png(4000 - i), leaving.signal));
    leaving.abort();
    const outcomes = await Promise.allSettled(waiting);
    expect(outcomes.every((outcome) => outcome.status === 'rejected')).toBe(true);
    await first;
    expect(pool.stats).toMatchObject({ renders: 1, abandoned: 5 });
  });

  it('finishes and caches a render whose client left after it started', async () => {
    const pool = renderer({ threads: 1, maxQueue: 8, cacheBytes: 1024 * 1024 });
    await pool.render(png(64)); // the thread is up
    const leaving = new AbortController();
    const started = pool.render(png(4096), leaving.signal);
    // A free thread: by the next turn of the event loop the render has been handed to it, nothing waits.
    await new Promise((resolve) => setImmediate(resolve));
    leaving.abort();
    // Killing the thread to stop a few milliseconds of work would cost a new thread; the image serves the retry.
    await expect(started).resolves.toMatchObject({ etag: expect.any(String) });
    await pool.render(png(4096));
    expect(pool.stats).toMatchObject({ renders: 2, cacheHits: 1, abandoned: 0 });
  });

  it('serves identical requests from its cache and renders any other option anew', async () => {
    const pool = renderer({ threads: 1, maxQueue: 8, cacheBytes: 1024 * 1024 });
    const first = await pool.render(png(1024));
    const again = await pool.render(png(1024));
    expect(again.body.equals(first.body)).toBe(true);
    expect(again.etag).toBe(first.etag);
    expect(pool.stats).toMatchObject({ renders: 1, cacheHits: 1 });
    await pool.render({ ...png(1024), ecc: 'H' });
    expect(pool.stats).toMatchObject({ renders: 2, cacheHits: 1 });
  });

  it('keeps no more images than its byte budget', async () => {
    const one = (await renderer({ threads: 1, maxQueue: 8, cacheBytes: 0 }).render(png(2048))).body.length;
    // Room for one 2048-pixel image, not two.
    const pool = renderer({ threads: 1, maxQueue: 8, cacheBytes: Math.floor(one * 1.5) });
    await pool.render(png(2048));
    await pool.render(png(2047));
    await pool.render(png(2048));
    expect(pool.stats).toMatchObject({ renders: 3, cacheHits: 0 });
    await pool.render(png(2048));
    expect(pool.stats).toMatchObject({ renders: 3, cacheHits: 1 });
  });
});
