import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendProjectXml } from '../conditional.ts';
import { idParam } from '../query-params.ts';
import { callerOf } from '../request-caller.ts';
import type { RouteDeps } from '../route-deps.ts';
import { xmlBody } from '../xml-reply.ts';
import { projectTarget } from './workflow-routes.ts';

function threadId(request: FastifyRequest): string {
  return idParam((request.params as { ThreadId?: string }).ThreadId, 'ThreadId');
}

/** GetInquiryThreads, GetNotesInInquiryThread, SetInquiryNote, SetInquiryThreadStatus and SetInquiryThreadExternalId. */
export function inquiryRoutes(app: FastifyInstance, { services, codec }: RouteDeps): void {
  const base = '/Programs/:ProgramId/Projects/:ProjectId';
  app.get(`${base}/InquiryThreads`, async (request, reply) => {
    const t = projectTarget(request);
    return sendProjectXml(request, reply, await services.inquiries.getThreads(callerOf(request), t.programId, t.projectId), codec.inquiryThreads);
  });
  app.get(`${base}/InquiryThreads/:ThreadId/Notes`, async (request, reply) => {
    const t = projectTarget(request);
    return sendProjectXml(request, reply, await services.inquiries.getNotes(callerOf(request), t.programId, t.projectId, threadId(request)), codec.inquiryNotes);
  });
  app.post(`${base}/InquiryNotes`, async (request, reply) => {
    const t = projectTarget(request);
    const input = codec.readInquiryNote(xmlBody(request, 'SetInquiryNoteRequest'));
    return sendProjectXml(request, reply, await services.inquiries.addNote(callerOf(request), t.programId, t.projectId, input), codec.inquiryNotes);
  });
  app.post(`${base}/InquiryThreads/:ThreadId/Status`, async (request, reply) => {
    const t = projectTarget(request);
    const id = threadId(request);
    const { status } = codec.readInquiryThreadStatus(xmlBody(request, 'SetInquiryThreadStatusRequest'));
    return sendProjectXml(request, reply, await services.inquiries.setStatus(callerOf(request), t.programId, t.projectId, id, status), codec.inquiryThread);
  });
  app.post(`${base}/InquiryThreads/:ThreadId/ExternalId`, async (request, reply) => {
    const t = projectTarget(request);
    const id = threadId(request);
    const { externalId } = codec.readInquiryThreadExternalId(xmlBody(request, 'SetInquiryThreadExternalIdRequest'));
    return sendProjectXml(request, reply, await services.inquiries.setExternalId(callerOf(request), t.programId, t.projectId, id, externalId), codec.inquiryThread);
  });
}
