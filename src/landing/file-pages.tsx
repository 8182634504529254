import type { ImagesContent, Mp3Content, PdfContent, VideoContent } from '../codes/types/index.js';
import { DOWNLOAD_QUERY } from '../files/serve-file.js';
import { Icon } from './icons.js';
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

/**
 * The first page shown in the page itself, by the phone's own PDF support, then buttons to open and save it.
 * An <object> rather than an <iframe>: iOS Safari draws a PDF <object> as its first page (what a preview
 * should show), desktop browsers show their viewer, and Android Chrome (no built-in PDF viewer) shows the
 * <object>'s content instead, where an <iframe> of a PDF starts a download or stays blank. Nothing here needs a
 * script or another site; a page drawn on the server (pdf.js) would need a native canvas library to render.
 */
export function PdfPage({ content, publisher }: { content: PdfContent; publisher: Publisher }) {
  const title = content.title ?? 'Document';
  return (
    <PageShell title={title} publisher={publisher}>
      <object class="pv" data={fileUrl(content.fileId)} type="application/pdf" aria-label={`${title}, first page`}>
        <p>This browser does not show PDFs inside a page: open it with the button below.</p>
      </object>
      <a class="b" href={fileUrl(content.fileId)}>
        <Icon name="fileText" />
        Open the PDF
      </a>
      <p>
        <a class="o" href={downloadUrl(content.fileId)} download>
          <Icon name="download" />
          Download the PDF
        </a>
      </p>
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
          <p>
            <a class="o" href={downloadUrl(content.fileId)} download>
              <Icon name="download" />
              Download the video
            </a>
          </p>
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
      <p>
        <a class="o" href={downloadUrl(content.fileId)} download>
          <Icon name="download" />
          Download the audio file
        </a>
      </p>
    </PageShell>
  );
}
