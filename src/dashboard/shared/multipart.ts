import type { Request } from 'express';
import busboy from 'busboy';
import type { Readable } from 'node:stream';
import { hasNonTextCharacters } from '../../text-rules.js';
import { DashboardError, notText } from './errors.js';

export interface MultipartLimits {
  /** Files in one request; a form with more is refused. */
  maxFiles: number;
  /**
   * Bytes per file. A longer file's stream ends early and `part.truncated()` says so; the file store enforces its
   * own limit with a clear message, so this is the backstop for handlers that buffer (a CSV, a logo).
   */
  maxFileBytes: number;
  /** Text fields, and the bytes of each (a longer one is refused, never silently cut). */
  maxFields?: number;
  maxFieldBytes?: number;
}

export interface UploadedPart {
  /** The form field's name. */
  field: string;
  /** The name the browser sent (untrusted: for display and downloads only). */
  fileName: string;
  stream: Readable;
  /** Whether the file was longer than `maxFileBytes` (known once the stream has ended). */
  truncated: () => boolean;
  /** The text fields that came before this file in the form (put the fields a handler needs first). */
  fieldsSoFar: Readonly<Record<string, string>>;
}

/**
 * Reads a multipart/form-data request (busboy), handing each file to `onFile` as it arrives and in order; the
 * handler must consume its stream (or call `stream.resume()` to skip it). An empty file input (no file chosen)
 * is skipped. Resolves with the text fields once the body has ended and every `onFile` has settled.
 *
 * If a handler throws, the rest of the body is still read and discarded (so the browser sees the answer rather
 * than a reset connection) and the first error is rethrown; a body that is not multipart, too many files or
 * fields, or a malformed body is a 400 DashboardError.
 */
export async function readMultipart(
  req: Request,
  limits: MultipartLimits,
  onFile: (part: UploadedPart) => Promise<void>,
): Promise<Record<string, string>> {
  if (!req.is('multipart/form-data')) throw badUpload('The form was not sent as a file upload. Reload the page and try again.');
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      defParamCharset: 'utf8',
      limits: {
        files: limits.maxFiles,
        fileSize: limits.maxFileBytes,
        fields: limits.maxFields ?? 200,
        fieldSize: limits.maxFieldBytes ?? 64 * 1024,
        parts: limits.maxFiles + (limits.maxFields ?? 200),
      },
    });
  } catch {
    throw badUpload('The upload could not be read. Reload the page and try again.');
  }

  const fields: Record<string, string> = {};
  const handlers: Promise<void>[] = [];
  const openStreams = new Set<Readable>();
  let failure: unknown;
  const fail = (error: unknown) => {
    failure ??= error;
  };

  const done = new Promise<void>((resolve) => {
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) fail(badUpload('A field of this form is longer than allowed.'));
      else if (hasNonTextCharacters(name) || hasNonTextCharacters(value)) fail(notText());
      else fields[name] = value;
    });
    parser.on('file', (field, stream, info) => {
      let truncated = false;
      stream.on('limit', () => {
        truncated = true;
      });
      // A file input left empty still sends a part, with no name and no bytes.
      if (failure !== undefined || info.filename === undefined || info.filename === '') {
        stream.resume();
        return;
      }
      // The name is shown and stored (and a NUL cannot be): the same rule as every text field.
      if (hasNonTextCharacters(info.filename)) {
        fail(notText());
        stream.resume();
        return;
      }
      openStreams.add(stream);
      // A stream destroyed with the cut-off error before its handler has begun to read it (the handler may be
      // awaiting a query) would throw that error uncaught and end the process; the handler still gets it on read.
      stream.on('error', () => {});
      stream.on('close', () => openStreams.delete(stream));
      const part: UploadedPart = { field, fileName: info.filename, stream, truncated: () => truncated, fieldsSoFar: { ...fields } };
      handlers.push(
        onFile(part)
          .catch(fail)
          // Whatever the handler left unread is discarded, or the parser would wait for it forever.
          .finally(() => stream.resume()),
      );
    });
    parser.on('filesLimit', () => fail(badUpload(`Upload at most ${limits.maxFiles} file${limits.maxFiles === 1 ? '' : 's'} at once.`)));
    parser.on('fieldsLimit', () => fail(badUpload('This form has more fields than allowed.')));
    parser.on('partsLimit', () => fail(badUpload('This form has more parts than allowed.')));
    parser.on('error', (error: unknown) => {
      fail(badUpload('The upload was cut off or malformed. Try again.'));
      void error;
      resolve();
    });
    parser.on('close', () => resolve());
    // A browser that goes away mid-upload ends nothing: fail the files being read, so their handlers (and a
    // transaction storing one) finish, and stop waiting for the parser.
    req.on('close', () => {
      if (req.complete) return;
      const cutOff = badUpload('The upload was cut off. Try again.');
      fail(cutOff);
      for (const stream of openStreams) stream.destroy(cutOff);
      resolve();
    });
  });
  req.pipe(parser);
  await done;
  await Promise.allSettled(handlers);
  if (failure !== undefined) throw failure;
  return fields;
}

function badUpload(sentence: string): DashboardError {
  return new DashboardError(400, 'The upload could not be used', sentence);
}
