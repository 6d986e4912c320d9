import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AttachmentFileView } from '../domain/views.ts';
import { fileEtag, requestedRange, sendFileBytes } from '../http/byte-range.ts';
import { contentDisposition, viewInlineType } from '../http/content-disposition.ts';
import { inlinePdfPolicy } from './security-headers.ts';

/**
 * Sends a stored file on a page's address with `headers` (its type, disposition, Cache-Control and policies, which
 * stay as given), nosniff, `ETag: "<sha256>"` and Accept-Ranges: one byte range is answered 206 as the API's
 * downloads answer it (byte-range.ts), so that a browser's PDF viewer can fetch a large file in parts and a broken
 * download resumes (If-Range with that ETag; any other If-Range gets the whole file). If-None-Match is not answered
 * 304: these answers are no-store, so no browser holds a copy to revalidate (docs/web.md, "Seeing files").
 */
export async function sendPageFile(request: FastifyRequest, reply: FastifyReply, file: AttachmentFileView, headers: Record<string, string>): Promise<FastifyReply> {
  const etag = fileEtag(file);
  // Before any header: a 416 is an error page like any other (with its Content-Range).
  const choice = requestedRange(request, file.size, etag);
  reply.headers({ ...headers, 'X-Content-Type-Options': 'nosniff', ETag: etag, 'Accept-Ranges': 'bytes' });
  return sendFileBytes(request, reply, file, choice);
}

/**
 * Sends an applicant's file: as a download, or, when `view` asks and its type is one a browser shows without running
 * anything of it (viewInlineType: PDF, PNG, JPEG, GIF, WebP), inline under that exact type, so that it opens in the
 * browser. Anything else (SVG, HTML, XML, unknown types) downloads even when asked to be viewed: its bytes are
 * whatever the applicant sent, and must never run as a page of this site. nosniff and the pages' CSP are kept
 * (a PDF's allows the browser's viewer: security-headers.ts); `cacheControl` keeps a shared computer's browser from
 * keeping the file. Ranges and the ETag as sendPageFile answers them.
 */
export async function sendFile(request: FastifyRequest, reply: FastifyReply, file: AttachmentFileView, options: { view: boolean; secure: boolean; cacheControl: string }): Promise<FastifyReply> {
  const inline = options.view ? viewInlineType(file.contentType) : null;
  const headers: Record<string, string> = inline === null
    ? { 'Content-Type': file.contentType, 'Content-Disposition': contentDisposition(file.fileName) }
    : { 'Content-Type': inline, 'Content-Disposition': contentDisposition(file.fileName, 'inline') };
  if (inline === 'application/pdf') headers['Content-Security-Policy'] = inlinePdfPolicy(options.secure);
  return sendPageFile(request, reply, file, { ...headers, 'Cache-Control': options.cacheControl });
}

/** True when a file's address asks to view it in the browser (`?view=1`) rather than download it. */
export function wantsView(query: unknown): boolean {
  return (query as { view?: unknown } | undefined)?.view === '1';
}

/** The address that views a file in the browser: its download address with `view=1`. */
export function viewHref(downloadHref: string): string {
  return `${downloadHref}${downloadHref.includes('?') ? '&' : '?'}view=1`;
}

/**
 * Sends a PDF made for this answer (a document's preview) as a viewed PDF file is sent (sendFile): inline, nosniff,
 * the CSP that lets the browser's viewer show it, `cacheControl`, and ranges, HEAD and If-Range against the strong
 * ETag of these bytes. Ranges only join if every request renders the same bytes: the preview's clock stands still for
 * a quarter hour for that (src/domain/documents/preview-time.ts), and If-Range sends the whole of a changed render.
 */
export function sendInlinePdf(request: FastifyRequest, reply: FastifyReply, pdf: Uint8Array, fileName: string, options: { secure: boolean; cacheControl: string }): Promise<FastifyReply> {
  return sendFile(request, reply, bytesFile(pdf, fileName, 'application/pdf'), { ...options, view: true });
}

/** Bytes in memory as a file to send: their SHA-256 (the ETag) and a stream of any range of them. */
function bytesFile(bytes: Uint8Array, fileName: string, contentType: string): AttachmentFileView {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return {
    fileName, contentType, size: buffer.length, sha256: createHash('sha256').update(buffer).digest('hex'),
    open: async (range) => Readable.from([range ? buffer.subarray(range.start, range.end + 1) : buffer]),
  };
}
