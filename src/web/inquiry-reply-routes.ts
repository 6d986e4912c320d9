import type { FastifyInstance } from 'fastify';
import { ApiError } from '../domain/api-error.ts';
import { idParam } from '../http/query-params.ts';
import type { Services } from '../http/services.ts';
import { isSameOrigin } from './same-origin.ts';
import { readWebSessionCookie, webSessionSetCookie } from './web-session-cookie.ts';

/** Where the landing page's reply forms post to. */
export const INQUIRY_REPLY_PATH = '/MvcProjects/InquiryReply';

const FORM_TYPE = 'application/x-www-form-urlencoded';

function field(form: unknown, name: string): string {
  if (!(form instanceof URLSearchParams)) throw new ApiError('UNSUPPORTED_MEDIA_TYPE', `Send the reply as ${FORM_TYPE}.`);
  const values = form.getAll(name);
  if (values.length !== 1) throw new ApiError('INVALID_PARAMETER', `Send the form field ${name} exactly once.`);
  return values[0]!;
}

/**
 * POST /MvcProjects/InquiryReply (form fields ProgramId, ProjectId, ThreadId, Text): a reply from the landing page,
 * answered with 303 back to it. Only same-origin posts are taken (403 otherwise), then the password sign-in.
 */
export async function inquiryReplyRoutes(app: FastifyInstance, services: Services, publicUrl: string): Promise<void> {
  // Form bodies are parsed only here, so the XML routes keep answering 415 to them; the app's body limit applies.
  await app.register(async (web) => {
    web.addContentTypeParser(FORM_TYPE, { parseAs: 'string' }, (_request, body, done) => done(null, new URLSearchParams(body as string)));
    web.post(INQUIRY_REPLY_PATH, async (request, reply) => {
      if (!isSameOrigin(request.headers, publicUrl)) {
        throw new ApiError('FORBIDDEN', 'Replies are accepted only from the project page of this service.');
      }
      const { caller, newSession } = await services.auth.authenticateWeb(request.headers.authorization, readWebSessionCookie(request.headers), request.ip, request.id);
      if (newSession) reply.header('Set-Cookie', webSessionSetCookie(newSession.value, publicUrl));
      const programId = idParam(field(request.body, 'ProgramId').trim(), 'ProgramId');
      const projectId = idParam(field(request.body, 'ProjectId').trim(), 'ProjectId');
      const threadId = idParam(field(request.body, 'ThreadId').trim(), 'ThreadId');
      const location = await services.inquiries.reply(caller, programId, projectId, threadId, field(request.body, 'Text'));
      return reply.code(303).header('Location', location).header('Cache-Control', 'no-store').send();
    });
  });
}
