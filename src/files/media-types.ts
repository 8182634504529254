import { fileTypeFromBuffer } from 'file-type';
import type { FileKind } from '../db/schema/files.js';
import { FileRejectedError } from './file-errors.js';
import { looksLikeSvg } from './svg-logo.js';

export const FILE_KINDS: readonly FileKind[] = ['pdf', 'image', 'audio', 'video', 'logo'];

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];

/** What each kind accepts, as file-type names them (after `normalise`). */
const ALLOWED: Record<FileKind, readonly string[]> = {
  pdf: ['application/pdf'],
  image: IMAGE_TYPES,
  audio: ['audio/mpeg', 'audio/mp4', 'audio/ogg', 'audio/ogg; codecs=opus'],
  video: ['video/mp4', 'video/webm'],
  // GIF is left out for logos: an animated logo in the middle of a QR code does not print.
  logo: ['image/png', 'image/jpeg', 'image/webp'],
};

const WORDED: Record<FileKind, string> = {
  pdf: 'a PDF',
  image: 'a PNG, JPEG, WebP or GIF image',
  audio: 'an MP3, M4A or Ogg audio file',
  video: 'an MP4 or WebM video',
  logo: 'a PNG, JPEG, WebP or SVG image',
};

/** `svg` means the content is SVG text that must be rasterised before it is stored. */
export type Detected = { mediaType: string; svg: false } | { mediaType: 'image/svg+xml'; svg: true };

/**
 * The media type of an upload from its first bytes, refused unless its kind allows it. The name and the
 * client's Content-Type are never consulted: a PDF named .png is a PDF, HTML named .png is refused.
 */
export async function detectMediaType(kind: FileKind, head: Buffer): Promise<Detected> {
  const found = await fileTypeFromBuffer(head);
  const mediaType = found === undefined ? undefined : normalise(found.mime);
  if (mediaType !== undefined && ALLOWED[kind].includes(mediaType)) return { mediaType, svg: false };
  if (kind === 'logo' && (mediaType === undefined || mediaType === 'application/xml') && looksLikeSvg(head)) {
    return { mediaType: 'image/svg+xml', svg: true };
  }
  const seen = mediaType === undefined ? 'an unrecognised format' : mediaType;
  throw new FileRejectedError('unsupported_type', `This file must be ${WORDED[kind]}; its content is ${seen}.`);
}

/** file-type names M4A audio `audio/x-m4a`; browsers and RFC 4337 call it `audio/mp4`. */
function normalise(mime: string): string {
  return mime === 'audio/x-m4a' ? 'audio/mp4' : mime;
}
