import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MAX_PROGRAM_FILE_BYTES } from '../../domain/administration/program-publishing-service.ts';
import { ApiError } from '../../domain/api-error.ts';
import { contentDisposition } from '../../http/content-disposition.ts';
import { drainRequest } from '../../http/drain-request.ts';
import { requestComplete } from '../../http/request-complete.ts';
import { csrfPasses } from '../application-routes.ts';
import { sendInlinePdf } from '../file-response.ts';
import { renderPage } from '../render-page.ts';
import type { WebAppDeps } from '../web-app-deps.ts';
import { type ConsoleRequest, consoleRequest, sendPage } from './console-request.ts';
import { PROGRAM_UPLOAD_PATH, PROGRAMS_PATH, programsPaths } from './programs-paths.ts';
import { listNotice, listUploadRoute, type ProgramPageExtra } from './list-upload-routes.ts';
import {
  CalendarPage, FormPreviewPage, MailsPreviewPage, problemOf, ProgramPage, type ProgramsFrame, ProgramsListPage, ReviewPage, VersionPage,
} from './programs-pages.tsx';

/** Refusals of an uploaded file itself, shown on the page it was uploaded from; anything else goes to the error page. */
const FILE_REFUSALS = new Set(['INVALID_REQUEST', 'PAYLOAD_TOO_LARGE']);

const param = (request: FastifyRequest, name: string): string => (request.params as Record<string, string>)[name] ?? '';

/**
 * The console's Programs area (docs/administration.md, "Programs"): the programs list, a program's page, upload →
 * review → publish, downloads of the live file and of each version, and the previews. Every rule is
 * services.programAdmin's; a route parses, calls and renders.
 */
export function programsRoutes(web: FastifyInstance, deps: WebAppDeps): void {
  const { services, timeZone } = deps;
  const { publishing, previews } = services.programAdmin;
  const secure = new URL(deps.publicUrl).protocol === 'https:';
  const frame = (c: ConsoleRequest, notice: string | null = null): ProgramsFrame => ({ user: c.user, csrfToken: c.csrfToken, agencyAdmin: c.scope.agencyAdmin, timeZone, notice });

  const programPage = async (c: ConsoleRequest, reply: FastifyReply, programId: string, extra: ProgramPageExtra = {}) => {
    const [{ program, versions }, index, lists] = await Promise.all([
      publishing.program(c.caller, programId), previews.index(c.caller, programId), services.listAdmin.lists(c.caller, programId),
    ]);
    const page = ProgramPage({
      ...frame(c, extra.notice ?? null), program, versions, index, problem: extra.problem ? problemOf(extra.problem) : null,
      lists, listProblem: extra.listProblem ?? null,
    });
    return sendPage(reply, renderPage(page), extra.status ?? 200);
  };

  web.get(PROGRAMS_PATH, async (request, reply) => {
    const c = await consoleRequest(request, reply, deps);
    return sendPage(reply, renderPage(ProgramsListPage({ ...frame(c), programs: await publishing.list(c.caller) })));
  });

  web.post(PROGRAM_UPLOAD_PATH, {
    // The token comes first in the multipart body, which is streamed: it is checked in the handler, before the file is read.
    preHandler: (request, reply, done) => (request.isMultipart() ? done() : web.csrfProtection(request, reply, done)),
    onResponse: async (request) => drainRequest(request.raw),
  }, async (request, reply) => {
    const c = await consoleRequest(request, reply, deps);
    if (!request.isMultipart()) throw new ApiError('UNSUPPORTED_MEDIA_TYPE', 'Upload the program file with the form (multipart/form-data).');
    const parts = request.parts({ limits: { fileSize: MAX_PROGRAM_FILE_BYTES, files: 1, fields: 2, parts: 3 } });
    const first = await parts.next();
    const token = !first.done && first.value.type === 'field' && first.value.fieldname === '_csrf' ? String(first.value.value) : '';
    if (!first.done && first.value.type === 'file') first.value.file.resume();
    if (!csrfPasses(web, request, reply, token)) return reply;
    let file: { fileName: string; bytes: Buffer } | null = null;
    let problem: string | null = null;
    try {
      for await (const part of parts) {
        if (part.type !== 'file' || part.fieldname !== 'file' || part.filename === '' || file !== null) {
          if (part.type === 'file') part.file.resume();
          continue;
        }
        file = { fileName: part.filename, bytes: await part.toBuffer() };
      }
      await requestComplete(request.raw);
    } catch (error) {
      // Past the limit, the multipart reader stops with its own error; the rest of the body is read off after the answer.
      if ((error as { code?: unknown }).code !== 'FST_REQ_FILE_TOO_LARGE') throw error;
      problem = `A program file may be at most ${MAX_PROGRAM_FILE_BYTES / 1024 / 1024} MB.`;
    }
    const back = typeof (request.query as { program?: unknown }).program === 'string' ? (request.query as { program: string }).program : null;
    try {
      if (problem !== null) throw new ApiError('PAYLOAD_TOO_LARGE', problem);
      if (file === null) throw new ApiError('INVALID_REQUEST', 'Choose a program file to upload.');
      const uploadId = await publishing.upload(c.caller, file);
      return reply.redirect(programsPaths.review(uploadId), 303);
    } catch (error) {
      if (!(error instanceof ApiError) || !FILE_REFUSALS.has(error.code)) throw error;
      const status = error.code === 'PAYLOAD_TOO_LARGE' ? 413 : 400;
      if (back !== null) return programPage(c, reply, back, { problem: error.message, status });
      return sendPage(reply, renderPage(ProgramsListPage({ ...frame(c), programs: await publishing.list(c.caller), problem: problemOf(error.message) })), status);
    }
  });

  web.get(`${PROGRAMS_PATH}/Uploads/:uploadId`, async (request, reply) => {
    const c = await consoleRequest(request, reply, deps);
    return sendPage(reply, renderPage(ReviewPage({ ...frame(c), review: await publishing.review(c.caller, param(request, 'uploadId')) })));
  });

  web.post(`${PROGRAMS_PATH}/Uploads/:uploadId/Publish`, { preHandler: web.csrfProtection }, async (request, reply) => {
    const c = await consoleRequest(request, reply, deps);
    const body = (request.body ?? {}) as Record<string, unknown>;
    const uploadId = param(request, 'uploadId');
    const expectedVersion = Number(body.version);
    if (typeof body.sha256 !== 'string' || !Number.isSafeInteger(expectedVersion)) throw new ApiError('INVALID_REQUEST', 'Publish from the review page: the file\'s SHA-256 and the reviewed version are missing.');
    try {
      const report = await publishing.publish(c.caller, { uploadId, sha256: body.sha256, expectedVersion });
      const notice = report.version === null ? 'published' : `version-${report.version}`;
      return reply.redirect(`${programsPaths.program(report.programId)}?notice=${notice}`, 303);
    } catch (error) {
      // Someone published first, the import's own guards refused, or its recount of the access groups did not fit in
      // the 30 s of a change (the message says to import it at the command line): the review, as it is now, says why.
      if (!(error instanceof ApiError) || !['CONFLICT', 'INVALID_REQUEST', 'SERVICE_UNAVAILABLE'].includes(error.code)) throw error;
      const review = await publishing.review(c.caller, uploadId);
      return sendPage(reply, renderPage(ReviewPage({ ...frame(c), review, problem: problemOf(error.message) })), error.code === 'CONFLICT' ? 409 : error.code === 'INVALID_REQUEST' ? 400 : 503);
    }
  });

  web.get(`${PROGRAMS_PATH}/:programId`, async (request, reply) => {
    const c = await consoleRequest(request, reply, deps);
    const notice = /^version-(\d+)$/.exec(String((request.query as { notice?: unknown }).notice ?? ''));
    return programPage(c, reply, param(request, 'programId'), { notice: notice ? `Version ${notice[1]} was published.` : listNotice(request.query) });
  });

  listUploadRoute(web, deps, programPage);

  web.get(`${PROGRAMS_PATH}/:programId/File`, async (request, reply) => {
    const c = await consoleRequest(request, reply, deps);
    return sendText(reply, await publishing.liveFile(c.caller, param(request, 'programId')));
  });

  web.get(`${PROGRAMS_PATH}/:programId/Versions/:version`, async (request, reply) => {
    const c = await consoleRequest(request, reply, deps);
    const { program, version } = await publishing.version(c.caller, param(request, 'programId'), Number(param(request, 'version')));
    return sendPage(reply, renderPage(VersionPage({ ...frame(c), program, version })));
  });

  web.get(`${PROGRAMS_PATH}/:programId/Versions/:version/File`, async (request, reply) => {
    const c = await consoleRequest(request, reply, deps);
    return sendText(reply, (await publishing.version(c.caller, param(request, 'programId'), Number(param(request, 'version')))).file);
  });

  web.get(`${PROGRAMS_PATH}/:programId/Forms/:formId`, async (request, reply) => {
    const c = await consoleRequest(request, reply, deps);
    return sendPage(reply, renderPage(FormPreviewPage({ ...frame(c), preview: await previews.form(c.caller, param(request, 'programId'), param(request, 'formId')) })));
  });

  web.get(`${PROGRAMS_PATH}/:programId/Mails`, async (request, reply) => {
    const c = await consoleRequest(request, reply, deps);
    const { program, mails } = await previews.mails(c.caller, param(request, 'programId'));
    return sendPage(reply, renderPage(MailsPreviewPage({ ...frame(c), program, mails })));
  });

  web.get(`${PROGRAMS_PATH}/:programId/Documents/:documentId`, async (request, reply) => {
    const c = await consoleRequest(request, reply, deps);
    const rendered = await previews.document(c.caller, param(request, 'programId'), param(request, 'documentId'));
    return sendInlinePdf(request, reply, rendered.pdf, rendered.fileName, { secure, cacheControl: 'no-store' });
  });

  web.get(`${PROGRAMS_PATH}/:programId/Calendar`, async (request, reply) => {
    const c = await consoleRequest(request, reply, deps);
    return sendPage(reply, renderPage(CalendarPage({ ...frame(c), preview: await previews.calendar(c.caller, param(request, 'programId')) })));
  });
}

/** A program file as a download, never cached. */
function sendText(reply: FastifyReply, file: { fileName: string; text: string }): FastifyReply {
  const type = /\.json$/i.test(file.fileName) ? 'application/json; charset=utf-8' : 'application/yaml; charset=utf-8';
  return reply.type(type).header('Content-Disposition', contentDisposition(file.fileName))
    .header('Cache-Control', 'no-store').header('X-Content-Type-Options', 'nosniff').send(file.text);
}
