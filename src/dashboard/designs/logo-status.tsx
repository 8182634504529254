import type { Request, Response } from 'express';
import type { ComponentChildren } from 'preact';
import { isHtmx } from '../shared/context.js';
import { DashboardError } from '../shared/errors.js';
import { sendFragment } from '../shared/render.js';

/**
 * The logo part of the design editor: what the design's logo is, and after an upload through htmx, whether it was
 * saved or why not. htmx swaps only this (and the "Remove the logo" box, out of band) after an upload, so the
 * editor's unsaved fields stay as they are; the preview then redraws with the new logo (HX-Trigger
 * LOGO_SAVED_EVENT, which the design form listens for).
 */
export function LogoStatus(props: { hasLogo: boolean; saved?: boolean; refused?: string }) {
  return (
    <>
      {props.saved && (
        <p class="flash flash-ok" role="status">
          Logo saved with the design. Your other changes are still in the form; save them when you are ready.
        </p>
      )}
      {props.refused !== undefined && (
        <p class="flash flash-error" role="alert">
          The logo was not saved: {props.refused}
        </p>
      )}
      <p class="muted">
        {props.hasLogo ? 'This design has a logo. Upload another to replace it' : 'PNG, JPEG or SVG, at most 1 MB'}. Uploading saves the
        logo with the design as last saved; other changes in the form stay here until you save them (without JavaScript, save them
        first).
      </p>
    </>
  );
}

/** The event an upload's response triggers on the page: the design form redraws its preview with the new logo. */
export const LOGO_SAVED_EVENT = 'design-logo-saved';

/** The "Remove the logo" box, which exists once the design has a logo. */
export function RemoveLogoSlot(props: { hasLogo: boolean; checked: boolean; outOfBand?: boolean; children?: ComponentChildren }) {
  return (
    <div id="design-remove-logo-slot" {...(props.outOfBand && { 'hx-swap-oob': 'true' })}>
      {props.hasLogo && (
        <label for="design-remove-logo">
          <input id="design-remove-logo" name="removeLogo" type="checkbox" checked={props.checked} /> Remove the logo
        </label>
      )}
    </div>
  );
}

/**
 * The answer to a logo upload: for htmx, the logo part (and the remove box, out of band) with the preview told to
 * redraw, status 200 even for a refusal so htmx swaps it in place instead of replacing the page; without htmx, the
 * redirect back to the editor (`design.then`), or the refusal thrown as an error page as before.
 */
export async function answerLogoUpload(req: Request, res: Response, design: { hadLogo: boolean; then: string }, upload: () => Promise<void>): Promise<void> {
  try {
    await upload();
  } catch (error) {
    if (!isHtmx(req) || !(error instanceof DashboardError) || error.status !== 400) throw error;
    sendFragment(res, <LogoStatus hasLogo={design.hadLogo} refused={`${error.title}. ${error.sentence}`} />);
    return;
  }
  if (!isHtmx(req)) {
    res.redirect(303, design.then);
    return;
  }
  res.setHeader('HX-Trigger', LOGO_SAVED_EVENT);
  sendFragment(
    res,
    <>
      <LogoStatus hasLogo saved />
      <RemoveLogoSlot hasLogo checked={false} outOfBand />
    </>,
  );
}
