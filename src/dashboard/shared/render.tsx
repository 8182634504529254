import type { Response } from 'express';
import type { ComponentChildren, VNode } from 'preact';
import { render } from 'preact-render-to-string';
import { ViewerZone } from './moment.js';

/**
 * Sends a whole page. Text and attributes are escaped by the renderer; nothing here builds HTML from strings.
 * Dashboard pages show one account's private data: never stored by a browser or proxy cache.
 */
export function sendPage(res: Response, page: VNode, status = 200): void {
  res.status(status);
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.send(`<!doctype html>${render(inViewerZone(res, page))}`);
}

/** Sends a fragment for htmx to swap into the page. */
export function sendFragment(res: Response, fragment: VNode | ComponentChildren, status = 200): void {
  res.status(status);
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.send(render(inViewerZone(res, <>{fragment}</>)));
}

/** Times on every page and fragment in the viewer's zone (shared/moment.tsx). */
function inViewerZone(res: Response, content: VNode): VNode {
  return <ViewerZone.Provider value={res.locals.dashboard?.timeZone ?? 'UTC'}>{content}</ViewerZone.Provider>;
}
