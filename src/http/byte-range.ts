import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../domain/api-error.ts';
import type { AttachmentFileView } from '../domain/views.ts';
import type { ByteRange } from '../store/blob-store.ts';

/** What a download answers for its Range: the whole file (200), one part of it (206), or 416 (ApiError thrown). */
export type RangeChoice = { whole: true } | { whole: false; range: ByteRange };

const WHOLE: RangeChoice = { whole: true };

function single(request: FastifyRequest, name: 'range' | 'if-range'): string | undefined {
  const value = request.headers[name];
  // Several fields of one of these names are not a list RFC 9110 allows: a Range so sent is ignored.
  return Array.isArray(value) ? undefined : value;
}

/**
 * True when If-Range lets the Range apply: it is absent, or names `etag` exactly (strong comparison, RFC 9110
 * §13.1.5). A date, or any other tag, does not: files answer no Last-Modified, so a date cannot prove the client's
 * part is of this file, and the whole file is sent instead.
 */
function ifRangeHolds(request: FastifyRequest, etag: string): boolean {
  const value = request.headers['if-range'];
  if (value === undefined) return true;
  return single(request, 'if-range')?.trim() === etag;
}

function unsatisfiable(size: number): ApiError {
  return new ApiError('RANGE_NOT_SATISFIABLE', `The Range asks for bytes outside the file, which has ${size} bytes; ask for bytes 0 to ${Math.max(size - 1, 0)}, or leave Range out.`, {
    headers: { 'Content-Range': `bytes */${size}` },
  });
}

/** One range-spec of `bytes=` (RFC 9110 §14.1.1) of a file of `size` bytes: the part, null when no byte of it is in the file, undefined when malformed. */
function parseSpec(spec: string, size: number): ByteRange | null | undefined {
  const m = /^(\d*)-(\d*)$/.exec(spec);
  if (m === null || (m[1] === '' && m[2] === '')) return undefined;
  const last = size - 1;
  // Digits beyond any file size become numbers past the end, which is what they mean here.
  if (m[1] === '') {
    const suffix = Number(m[2]);
    return suffix === 0 || size === 0 ? null : { start: Math.max(size - suffix, 0), end: last };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? Number.POSITIVE_INFINITY : Number(m[2]);
  if (end < start) return undefined;
  return start > last ? null : { start, end: Math.min(end, last) };
}

/**
 * The part of a file of `size` bytes (ETag `etag`) a GET's Range asks for (RFC 9110 §14). One `bytes=` range
 * (`a-b`, `a-`, `-n`) is answered with that part; several are answered with the whole file, as §14.2 allows (one
 * answer per part would cost a multipart body that no client of files needs); a Range that is malformed, of another
 * unit, on a method other than GET, or whose If-Range no longer holds is ignored, and the whole file is sent. A range
 * with no byte in the file throws RANGE_NOT_SATISFIABLE (416) with `Content-Range: bytes *\/size`.
 */
export function requestedRange(request: FastifyRequest, size: number, etag: string): RangeChoice {
  const value = single(request, 'range');
  if (request.method !== 'GET' || value === undefined || !ifRangeHolds(request, etag)) return WHOLE;
  const m = /^bytes=(.*)$/i.exec(value.trim());
  if (m === null) return WHOLE;
  const specs = m[1]!.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (specs.length !== 1) return WHOLE;
  const range = parseSpec(specs[0]!, size);
  if (range === undefined) return WHOLE;
  if (range === null) throw unsatisfiable(size);
  return { whole: false, range };
}

/** A file's strong ETag: its SHA-256 in double quotes, the same on every address that sends those bytes. */
export function fileEtag(file: Pick<AttachmentFileView, 'sha256'>): string {
  return `"${file.sha256}"`;
}

/** Answers `range` of `file` (206, its Content-Range and Content-Length), streaming only those bytes; other headers are the caller's. */
async function sendRange(reply: FastifyReply, file: AttachmentFileView, range: ByteRange): Promise<FastifyReply> {
  return reply.code(206).header('Content-Range', `bytes ${range.start}-${range.end}/${file.size}`).header('Content-Length', String(range.end - range.start + 1))
    .send(await file.open(range));
}

/**
 * Answers a file as requestedRange chose: the part (206, sendRange) or the whole (200 with Content-Length). A HEAD
 * gets the headers only and the file is not read. Every other header (type, ETag, caching) is the caller's.
 */
export async function sendFileBytes(request: FastifyRequest, reply: FastifyReply, file: AttachmentFileView, choice: RangeChoice): Promise<FastifyReply> {
  if (!choice.whole) return sendRange(reply, file, choice.range);
  // An empty stream keeps Fastify from replacing Content-Length on a HEAD, and the blob is not read.
  const body: Readable = request.method === 'HEAD' ? Readable.from([]) : await file.open();
  return reply.code(200).header('Content-Length', String(file.size)).send(body);
}
