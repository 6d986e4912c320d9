import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../domain/api-error.ts';
import type { AttachmentTarget } from '../../domain/projects/attachment-service.ts';
import type { AttachmentFileView } from '../../domain/views.ts';
import {
  AttachmentMetadataResponse, attachmentMetadataValue, attachmentReviewInput, SetAttachmentMetadata,
} from '../../wire/documents/attachment-metadata.ts';
import { fileNotModified, sendProjectAnswer } from '../conditional.ts';
import { fileEtag, requestedRange, sendFileBytes } from '../byte-range.ts';
import { contentDisposition, fileNameFromContentDisposition } from '../content-disposition.ts';
import { drainRequest } from '../drain-request.ts';
import { idParam } from '../query-params.ts';
import { callerOf } from '../request-caller.ts';
import type { RouteDeps } from '../route-deps.ts';

const PROJECT = '/Programs/:ProgramId/Projects/:ProjectId';

// What a download answers, for the OpenAPI description (errors are ErrorResponse documents as everywhere).
const FILE_ANSWER = 'The file\'s bytes, streamed, with Content-Type (as uploaded), Content-Length, Content-Disposition (its name), '
  + 'ETag "<Sha256>", Accept-Ranges: bytes and Cache-Control: private, no-cache; 304 without a body when If-None-Match names the ETag; '
  + '206 with Content-Range and only those bytes for one Range `bytes=a-b`, `bytes=a-` or `bytes=-n` (unless If-Range names another ETag), '
  + '416 with Content-Range: bytes */<size> when no byte of it is in the file; several ranges get the whole file.';

type AttachmentParams = { ProgramId?: string; ProjectId?: string; AttachmentId?: string; FormId?: string; Version?: string };

/** The project and attachment definition an attachment route addresses. */
function attachmentTarget(request: FastifyRequest): AttachmentTarget {
  const p = request.params as AttachmentParams;
  return {
    programRef: idParam(p.ProgramId, 'ProgramId'), projectId: idParam(p.ProjectId, 'ProjectId'), attachmentRef: idParam(p.AttachmentId, 'AttachmentId'),
  };
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Sends a file: its bytes streamed with Content-Type, Content-Length, Content-Disposition and its SHA-256 as ETag, or
 * 304 when the client already has it (412 when If-Match names another file); one byte range of it (206) when a GET's
 * Range asks for one (byte-range.ts). Files are private, so shared caches must not keep them, and a private cache
 * must ask again each time (the ETag makes that cheap).
 */
async function sendFile(request: FastifyRequest, reply: FastifyReply, file: AttachmentFileView): Promise<FastifyReply> {
  const etag = fileEtag(file);
  // Conditions first: a 412 or a malformed header's 400 is answered without the file's headers, and so is a 416.
  const unchanged = fileNotModified(request, etag);
  const choice = unchanged ? null : requestedRange(request, file.size, etag);
  reply.header('ETag', etag).header('Cache-Control', 'private, no-cache');
  if (choice === null) return reply.code(304).send();
  reply.type(file.contentType).header('Content-Disposition', contentDisposition(file.fileName)).header('Accept-Ranges', 'bytes');
  return sendFileBytes(request, reply, file, choice);
}

function versionParam(raw: string | undefined): number {
  if (raw === undefined || !/^[1-9]\d{0,8}$/.test(raw)) throw new ApiError('INVALID_PARAMETER', `Version in the path must be a whole number from 1; got "${raw ?? ''}".`);
  return Number(raw);
}

/** GetActiveAttachment, GetAttachmentAsAdmin, GetAttachmentMetadata and SetAttachmentMetadata. */
export function attachmentRoutes(app: FastifyInstance, { services, codec }: RouteDeps): void {
  const base = `${PROJECT}/Attachments/:AttachmentId`;
  app.get(base, {
    config: {
      operation: {
        operationId: 'GetActiveAttachment', tags: ['Attachments'], summary: 'GetActiveAttachment: downloads the active file of an attachment definition.',
        rawResponse: FILE_ANSWER,
      },
    },
  }, async (request, reply) => sendFile(request, reply, await services.attachments.getActiveFile(callerOf(request), attachmentTarget(request))));
  app.get(`${base}/Versions/:Version`, {
    config: {
      operation: {
        operationId: 'GetAttachmentAsAdmin', tags: ['Attachments'], summary: 'GetAttachmentAsAdmin: downloads any version of an attachment definition\'s file.',
        rawResponse: FILE_ANSWER,
      },
    },
  }, async (request, reply) => {
    const version = versionParam((request.params as AttachmentParams).Version);
    return sendFile(request, reply, await services.attachments.getVersionFile(callerOf(request), attachmentTarget(request), version));
  });
  app.get(`${base}/Metadata`, {
    config: {
      operation: {
        operationId: 'GetAttachmentMetadata', tags: ['Attachments'], etag: true, response: AttachmentMetadataResponse,
        summary: 'GetAttachmentMetadata: what is known of the active file of an attachment definition.',
      },
    },
  }, async (request, reply) => {
    const view = await services.attachments.getMetadata(callerOf(request), attachmentTarget(request));
    return sendProjectAnswer(codec, request, reply, view, AttachmentMetadataResponse, attachmentMetadataValue);
  });
  app.post(`${base}/Metadata`, {
    config: {
      operation: {
        operationId: 'SetAttachmentMetadata', tags: ['Attachments'], etag: true, request: SetAttachmentMetadata, response: AttachmentMetadataResponse,
        summary: 'SetAttachmentMetadata: approves or rejects the active file, takes the mark back, or changes its note.',
      },
    },
  }, async (request, reply) => {
    const target = attachmentTarget(request);
    const input = attachmentReviewInput(codec.read(request, SetAttachmentMetadata));
    const view = await services.attachments.setMetadata(callerOf(request), target, input);
    return sendProjectAnswer(codec, request, reply, view, AttachmentMetadataResponse, attachmentMetadataValue);
  });
}

/**
 * SetProjectAttachment. Register it in an encapsulated plugin of its own: its body parser hands the raw request stream
 * to the service instead of buffering it (uploads are far larger than XML bodies), and nothing else may share that.
 */
export function attachmentUploadRoutes(app: FastifyInstance, { services, codec }: RouteDeps): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  app.addHook('onResponse', async (request) => drainRequest(request.raw));
  app.post(`${PROJECT}/Forms/:FormId/Attachments/:AttachmentId`, {
    config: {
      idempotent: true,
      operation: {
        operationId: 'SetProjectAttachment', tags: ['Attachments'], etag: true, response: AttachmentMetadataResponse,
        summary: 'SetProjectAttachment: uploads a file (a new version) for an attachment definition of a form.',
        rawRequest: 'The file\'s bytes, not multipart: Content-Type its media type (one the definition allows), Content-Disposition '
          + '`attachment; filename="…"` (or filename*=UTF-8\'\'…) its name; a Content-Length, or chunked transfer.',
      },
    },
  }, async (request, reply) => {
    const target = { ...attachmentTarget(request), formRef: idParam((request.params as AttachmentParams).FormId, 'FormId') };
    const length = header(request, 'content-length');
    const view = await services.attachments.upload(callerOf(request), target, {
      body: (request.body as Readable | undefined) ?? request.raw,
      contentType: header(request, 'content-type') ?? null,
      contentLength: length !== undefined && /^\d{1,15}$/.test(length) ? Number(length) : null,
      fileName: fileNameFromContentDisposition(header(request, 'content-disposition')),
    });
    return sendProjectAnswer(codec, request, reply, view, AttachmentMetadataResponse, attachmentMetadataValue);
  });
}
