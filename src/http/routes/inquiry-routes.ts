import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  InquiryNotesResponse, InquiryThreadResponse, InquiryThreadsResponse,inquiryExternalIdInput, inquiryNoteInput, inquiryNotesValue, 
  inquiryThreadStatusInput, inquiryThreadsValue, inquiryThreadValue, SetInquiryNoteRequest, SetInquiryThreadExternalIdRequest,
  SetInquiryThreadStatusRequest,
} from '../../wire/documents/inquiries.ts';
import { sendProjectAnswer } from '../conditional.ts';
import { idParam } from '../query-params.ts';
import { callerOf } from '../request-caller.ts';
import type { RouteDeps } from '../route-deps.ts';
import { projectTarget } from './workflow-routes.ts';

function threadId(request: FastifyRequest): string {
  return idParam((request.params as { ThreadId?: string }).ThreadId, 'ThreadId');
}

const TAGS = ['Inquiries'];

/** GetInquiryThreads, GetNotesInInquiryThread, SetInquiryNote, SetInquiryThreadStatus and SetInquiryThreadExternalId. */
export function inquiryRoutes(app: FastifyInstance, { services, codec }: RouteDeps): void {
  const base = '/Programs/:ProgramId/Projects/:ProjectId';
  app.get(`${base}/InquiryThreads`, {
    config: {
      operation: {
        operationId: 'GetInquiryThreads', tags: TAGS, etag: true, projectNumber: true, response: InquiryThreadsResponse,
        summary: 'GetInquiryThreads: the inquiry threads of a project in creation order, each with its note count.',
      },
    },
  }, async (request, reply) => {
    const t = projectTarget(request);
    const view = await services.inquiries.getThreads(callerOf(request), t.programId, t.projectId);
    return sendProjectAnswer(codec, request, reply, view, InquiryThreadsResponse, inquiryThreadsValue);
  });
  app.get(`${base}/InquiryThreads/:ThreadId/Notes`, {
    config: {
      operation: {
        operationId: 'GetNotesInInquiryThread', tags: TAGS, etag: true, response: InquiryNotesResponse,
        summary: 'GetNotesInInquiryThread: an inquiry thread with every note, oldest first.',
      },
    },
  }, async (request, reply) => {
    const t = projectTarget(request);
    const view = await services.inquiries.getNotes(callerOf(request), t.programId, t.projectId, threadId(request));
    return sendProjectAnswer(codec, request, reply, view, InquiryNotesResponse, inquiryNotesValue);
  });
  app.post(`${base}/InquiryNotes`, {
    config: {
      idempotent: true,
      operation: {
        operationId: 'SetInquiryNote', tags: TAGS, etag: true, request: SetInquiryNoteRequest, response: InquiryNotesResponse,
        summary: 'SetInquiryNote: adds a note to an inquiry thread, or opens a thread with it.',
      },
    },
  }, async (request, reply) => {
    const t = projectTarget(request);
    const input = inquiryNoteInput(codec.read(request, SetInquiryNoteRequest));
    const view = await services.inquiries.addNote(callerOf(request), t.programId, t.projectId, input);
    return sendProjectAnswer(codec, request, reply, view, InquiryNotesResponse, inquiryNotesValue);
  });
  app.post(`${base}/InquiryThreads/:ThreadId/Status`, {
    config: {
      operation: {
        operationId: 'SetInquiryThreadStatus', tags: TAGS, etag: true, request: SetInquiryThreadStatusRequest, response: InquiryThreadResponse,
        summary: 'SetInquiryThreadStatus: moves an inquiry thread to another status.',
      },
    },
  }, async (request, reply) => {
    const t = projectTarget(request);
    const id = threadId(request);
    const status = inquiryThreadStatusInput(codec.read(request, SetInquiryThreadStatusRequest));
    const view = await services.inquiries.setStatus(callerOf(request), t.programId, t.projectId, id, status);
    return sendProjectAnswer(codec, request, reply, view, InquiryThreadResponse, inquiryThreadValue);
  });
  app.post(`${base}/InquiryThreads/:ThreadId/ExternalId`, {
    config: {
      operation: {
        operationId: 'SetInquiryThreadExternalId', tags: TAGS, etag: true, request: SetInquiryThreadExternalIdRequest, response: InquiryThreadResponse,
        summary: 'SetInquiryThreadExternalId: links an inquiry thread to its id in an outside system, or unlinks it.',
      },
    },
  }, async (request, reply) => {
    const t = projectTarget(request);
    const id = threadId(request);
    const externalId = inquiryExternalIdInput(codec.read(request, SetInquiryThreadExternalIdRequest));
    const view = await services.inquiries.setExternalId(callerOf(request), t.programId, t.projectId, id, externalId);
    return sendProjectAnswer(codec, request, reply, view, InquiryThreadResponse, inquiryThreadValue);
  });
}
