import { Readable } from 'node:stream';
import type { RequestHandler } from 'express';
import { setBrandLogo } from '../../accounts/branding.js';
import { FileRejectedError } from '../../files/file-errors.js';
import { deleteFile, type StoredFile } from '../../files/file-records.js';
import { storeFile } from '../../files/store-file.js';
import { sessionOf, type DashboardDependencies } from '../shared/context.js';
import { readMultipart } from '../shared/multipart.js';
import { brandingRedirect } from './branding-form.js';
import { fitLogo } from './fit-logo.js';
import { logoLimit, renderBranding } from './render-branding.js';

/**
 * POST /account/branding/logo (multipart, CSRF token in the action): stores the upload as a logo (type checked
 * by content, an SVG rasterised, a large one drawn to the page's logo size) and makes it the account's logo; the
 * previous logo's file is deleted.
 */
export function uploadLogo(deps: DashboardDependencies): RequestHandler {
  return async (req, res) => {
    const accountId = sessionOf(res).user.accountId;
    const limits = { maxFileBytes: logoLimit(deps), accountStorageBytes: deps.config.files.accountStorageBytes };
    let stored: StoredFile | undefined;
    try {
      // One byte over the limit reaches the store, which refuses it with a worded message.
      await readMultipart(req, { maxFiles: 1, maxFileBytes: limits.maxFileBytes + 1, maxFields: 5 }, async (part) => {
        if (part.field !== 'logo') return;
        const chunks: Buffer[] = [];
        for await (const chunk of part.stream) chunks.push(chunk as Buffer);
        // Bounded: the reader stops one byte past the limit, and the store then refuses the file by its size.
        const fitted = part.truncated() ? { bytes: Buffer.concat(chunks), name: part.fileName } : await fitLogo(Buffer.concat(chunks), part.fileName);
        stored = await storeFile(deps.db, { accountId, kind: 'logo', name: fitted.name, stream: Readable.from([fitted.bytes]) }, limits);
      });
    } catch (error) {
      if (!(error instanceof FileRejectedError)) throw error;
      await renderBranding(deps, res, { logoError: error.message }, error.status);
      return;
    }
    if (!stored) {
      await renderBranding(deps, res, { logoError: 'Choose a logo file first.' }, 400);
      return;
    }
    try {
      await setBrandLogo(deps.db, accountId, stored.id);
    } catch (error) {
      await deleteFile(deps.db, accountId, stored.id);
      throw error;
    }
    res.redirect(303, brandingRedirect('logo-saved'));
  };
}
