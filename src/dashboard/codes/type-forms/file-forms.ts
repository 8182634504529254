import type { TypeForm } from './form-description.js';

const TITLE = { kind: 'text', key: 'title', label: 'Title', hint: 'Shown at the top of the page.' } as const;

export const PDF_FORM: TypeForm = {
  type: 'PDF',
  label: 'PDF document',
  description: 'Opens a PDF you upload, such as a menu or a brochure.',
  fields: [TITLE, { kind: 'file', key: 'fileId', label: 'PDF file', fileKind: 'pdf', accept: 'application/pdf,.pdf', required: true }],
};

export const IMAGES_FORM: TypeForm = {
  type: 'IMAGES',
  label: 'Image gallery',
  description: 'Shows up to 30 images you upload.',
  fields: [
    TITLE,
    { kind: 'files', key: 'fileIds', label: 'Images', fileKind: 'image', accept: 'image/png,image/jpeg,image/webp,image/gif', max: 30, hint: 'PNG, JPEG, WebP or GIF; choose several at once. Up to 30 in the gallery.' },
  ],
};

export const VIDEO_FORM: TypeForm = {
  type: 'VIDEO',
  label: 'Video',
  description: 'Plays a video you upload, or links to a video elsewhere.',
  fields: [
    TITLE,
    { kind: 'file', key: 'fileId', label: 'Video file', fileKind: 'video', accept: 'video/mp4,video/webm,video/quicktime', hint: 'MP4 or WebM. Upload a file or give a link, not both.' },
    { kind: 'text', key: 'url', label: 'Video link', input: 'url', hint: 'A video on another site, shown as a link (the page loads nothing from other sites).' },
  ],
  sentences: { 'give either fileId or url': 'Upload a video file or give a video link: one of the two, not both.' },
};

export const MP3_FORM: TypeForm = {
  type: 'MP3',
  label: 'Audio (MP3)',
  description: 'Plays an audio file you upload.',
  fields: [TITLE, { kind: 'file', key: 'fileId', label: 'Audio file', fileKind: 'audio', accept: 'audio/mpeg,.mp3', required: true }],
};
