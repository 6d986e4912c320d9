import type { FastifyInstance, FastifyRequest } from 'fastify';
import { idParam } from '../query-params.ts';
import { callerOf } from '../request-caller.ts';
import type { RouteDeps } from '../route-deps.ts';
import { sendXml, xmlBody } from '../xml-reply.ts';
import { projectTarget } from './workflow-routes.ts';

function threadId(request: FastifyRequest): string {
  return idParam((request.params as { ThreadId?: string }).ThreadId, 'ThreadId');
}

/** GetInquiryThreads, GetNotesInInquiryThread, SetInquiryNote, SetInquiryThreadStatus and SetInquiryThreadExternalId. */
export function inquiryRoutes(app: FastifyInstance, { services, codec }: RouteDeps): void {
  const base = '/Programs/:ProgramId/Projects/:ProjectId';
  app.get(`${base}/InquiryThreads`, async (request, reply) => {
    const t = projectTarget(request);
    return sendXml(reply, codec.inquiryThreads(await services.inquiries.getThreads(callerOf(request), t.programId, t.projectId)));
  });
  app.get(`${base}/InquiryThreads/:ThreadId/Notes`, async (request, reply) => {
    const t = projectTarget(request);
    return sendXml(reply, codec.inquiryNotes(await services.inquiries.getNotes(callerOf(request), t.programId, t.projectId, threadId(request))));
  });
  app.post(`${base}/InquiryNotes`, async (request, reply) => {
    const t = projectTarget(request);
    const input = codec.readInquiryNote(xmlBody(request, 'SetInquiryNoteRequest'));
    return sendXml(reply, codec.inquiryNotes(await services.inquiries.addNote(callerOf(request), t.programId, t.projectId, input)));
  });
  app.post(`${base}/InquiryThreads/:ThreadId/Status`, async (request, reply) => {
    const t = projectTarget(request);
    const id = threadId(request);
    const { status } = codec.readInquiryThreadStatus(xmlBody(request, 'SetInquiryThreadStatusRequest'));
    return sendXml(reply, codec.inquiryThread(await services.inquiries.setStatus(callerOf(request), t.programId, t.projectId, id, status)));
  });
  app.post(`${base}/InquiryThreads/:ThreadId/ExternalId`, async (request, reply) => {
    const t = projectTarget(request);
    const id = threadId(request);
    const { externalId } = codec.readInquiryThreadExternalId(xmlBody(request, 'SetInquiryThreadExternalIdRequest'));
    return sendXml(reply, codec.inquiryThread(await services.inquiries.setExternalId(callerOf(request), t.programId, t.projectId, id, externalId)));
  });
}
