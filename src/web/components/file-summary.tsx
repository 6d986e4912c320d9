import type { FileView } from '../../domain/projects/application-service.ts';
import { viewInlineType } from '../../http/content-disposition.ts';
import { formatDateTime, isoDateTime } from '../format-time.ts';
import { viewHref } from '../file-response.ts';

/** A byte count for people: bytes, KB or MB. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** A file's name as its download link, and beside it a link that views it in the browser when its type can be shown safely. */
export function FileLinks(p: { fileName: string; contentType: string; href: string }) {
  return (
    <>
      <a href={p.href}>{p.fileName}</a>
      {viewInlineType(p.contentType) === null ? null : <> (<a href={viewHref(p.href)} aria-label={`View ${p.fileName} in the browser`}>View</a>)</>}
    </>
  );
}

/** The active file of an attachment: its name (a download link, and a View link), version, size, upload time and review status with the reviewer's note. */
export function FileSummary(p: { file: FileView; href: string; timeZone: string }) {
  const f = p.file;
  return (
    <dl class="facts file">
      <dt>File</dt><dd><FileLinks fileName={f.fileName} contentType={f.contentType} href={p.href} /></dd>
      <dt>Version</dt><dd>{f.version}</dd>
      <dt>Size</dt><dd>{formatSize(f.size)}</dd>
      <dt>Uploaded</dt><dd><time datetime={isoDateTime(f.uploadedAt)}>{formatDateTime(f.uploadedAt, p.timeZone)}</time></dd>
      <dt>Review</dt><dd><span class={`usa-tag review-${f.approvalStatus.toLowerCase()}`}>{f.approvalStatus}</span>{f.note ? <span class="note"> {f.note}</span> : null}</dd>
    </dl>
  );
}
