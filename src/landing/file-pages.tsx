import type { ImagesContent, Mp3Content, PdfContent, VideoContent } from '../codes/types/index.js';
import { DOWNLOAD_QUERY } from '../files/serve-file.js';
import { type Publisher, PageShell } from './page-shell.js';
import { fileUrl } from './page-style.js';

// PDF, IMAGES, MP3 and VIDEO show an uploaded file; the files part serves it (range requests, ETag).

/**
 * The file as an attachment (src/files/serve-file.ts): saved, not opened. The `download` attribute alone is not
 * enough: Safari on iOS and some in-app browsers ignore it and would open the player instead.
 */
function downloadUrl(fileId: string): string {
  return `${fileUrl(fileId)}?${DOWNLOAD_QUERY}`;
}

export function PdfPage({ content, publisher }: { content: PdfContent; publisher: Publisher }) {
  return (
    <PageShell title={content.title ?? 'Document'} publisher={publisher}>
      <a class="b" href={fileUrl(content.fileId)}>Open the PDF</a>
    </PageShell>
  );
}

export function ImagesPage({ content, publisher }: { content: ImagesContent; publisher: Publisher }) {
  const title = content.title ?? 'Images';
  return (
    <PageShell title={title} publisher={publisher}>
      {content.fileIds.map((id, i) => (
        <p><img src={fileUrl(id)} alt={`${title}, image ${i + 1} of ${content.fileIds.length}`} loading={i > 0 ? 'lazy' : undefined} /></p>
      ))}
    </PageShell>
  );
}

export function VideoPage({ content, publisher }: { content: VideoContent; publisher: Publisher }) {
  const title = content.title ?? 'Video';
  return (
    <PageShell title={title} publisher={publisher}>
      {content.fileId ? (
        <>
          <video src={fileUrl(content.fileId)} controls playsinline preload="metadata" aria-label={title} />
          <p><a href={downloadUrl(content.fileId)} download>Download the video</a></p>
        </>
      ) : (
        // A video elsewhere is a link, not an embed: the page itself makes no third-party request.
        <a class="b" href={content.url} rel="nofollow noopener">Watch the video</a>
      )}
    </PageShell>
  );
}

export function Mp3Page({ content, publisher }: { content: Mp3Content; publisher: Publisher }) {
  const title = content.title ?? 'Audio';
  return (
    <PageShell title={title} publisher={publisher}>
      <audio src={fileUrl(content.fileId)} controls preload="metadata" aria-label={title} />
      <p><a href={downloadUrl(content.fileId)} download>Download the audio file</a></p>
    </PageShell>
  );
}
