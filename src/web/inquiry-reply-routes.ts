import type { FastifyInstance } from 'fastify';
import { ApiError } from '../domain/api-error.ts';
import { idParam } from '../http/query-params.ts';
import type { Services } from '../http/services.ts';
import { isSameOrigin } from './same-origin.ts';
import { webCaller } from './web-session-request.ts';

/** Where the landing page's reply forms post to. */
export const INQUIRY_REPLY_PATH = '/MvcProjects/InquiryReply';

const FORM_TYPE = 'application/x-www-form-urlencoded';

// The web application's form parser gives an object of strings, an array for a field sent twice; other bodies are
// kept aside by the app's catch-all parser, except XML and JSON, which the API's parsers hand over as a Buffer.
function field(form: unknown, name: string): string {
  if (form === null || typeof form !== 'object' || Buffer.isBuffer(form) || 'unsupportedContentType' in form) throw new ApiError('UNSUPPORTED_MEDIA_TYPE', `Send the reply as ${FORM_TYPE}.`);
  const value = (form as Record<string, unknown>)[name];
  if (typeof value !== 'string') throw new ApiError('INVALID_PARAMETER', `Send the form field ${name} exactly once.`);
  return value;
}

/**
 * POST /MvcProjects/InquiryReply (form fields _csrf, ProgramId, ProjectId, ThreadId, Text): a reply from the project
 * page, answered with 303 back to it. Only posts with the page's CSRF token and from the same origin are taken (403
 * otherwise), then the caller's sign-in.
 */
export function inquiryReplyRoutes(web: FastifyInstance, services: Services, publicUrl: string): void {
  web.post(INQUIRY_REPLY_PATH, { preHandler: web.csrfProtection }, async (request, reply) => {
    if (!isSameOrigin(request.headers, publicUrl)) {
      throw new ApiError('FORBIDDEN', 'Replies are accepted only from the project page of this service.');
    }
    const caller = await webCaller(request, reply, services, publicUrl);
    const programId = idParam(field(request.body, 'ProgramId').trim(), 'ProgramId');
    const projectId = idParam(field(request.body, 'ProjectId').trim(), 'ProjectId');
    const threadId = idParam(field(request.body, 'ThreadId').trim(), 'ThreadId');
    const location = await services.inquiries.reply(caller, programId, projectId, threadId, field(request.body, 'Text'));
    return reply.code(303).header('Location', location).header('Cache-Control', 'no-store').send();
  });
}
