import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type {} from '@fastify/multipart';
import { ApiError } from '../domain/api-error.ts';
import type { FormPageView, FormTarget } from '../domain/application-service.ts';
import type { RawFormValues } from '../domain/draft-inputs.ts';
import type { Caller } from '../domain/caller.ts';
import { contentDisposition } from '../http/content-disposition.ts';
import { drainRequest } from '../http/drain-request.ts';
import { idParam } from '../http/query-params.ts';
import { FormPage, type PageProblem } from './pages/form-page.tsx';
import { renderPage } from './render-page.ts';
import type { WebAppDeps } from './web-app.ts';
import { formPagePath, projectPagePath } from './web-paths.ts';
import { pageUser, webCaller } from './web-session-request.ts';
import { csrfToken } from './csrf.ts';

const PROJECT = '/MvcProjects/Programs/:programId/Projects/:projectId';
const FORM = `${PROJECT}/Forms/:formId`;

type Params = { programId?: string; projectId?: string; formId?: string; attachmentId?: string };

function formTarget(request: FastifyRequest): FormTarget {
  const p = request.params as Params;
  return { programRef: idParam(p.programId, 'ProgramId'), projectId: idParam(p.projectId, 'ProjectId'), formRef: idParam(p.formId, 'FormId') };
}

// The form parser gives an object of strings; any other body (another content type) is not a form page's post.
function formBody(body: unknown): RawFormValues {
  if (body === null || typeof body !== 'object' || 'unsupportedContentType' in body) {
    throw new ApiError('UNSUPPORTED_MEDIA_TYPE', 'Send the form as application/x-www-form-urlencoded.');
  }
  return body as RawFormValues;
}

// The refusals a form page shows beside its fields; every other error is the app's error page.
const FIELD_ERRORS = new Set(['VALIDATION_FAILED', 'FORM_INCOMPLETE']);
// The refusals of an upload that are about the file itself (its type, size, emptiness), shown beside its input.
const FILE_ERRORS = new Set(['UNSUPPORTED_MEDIA_TYPE', 'PAYLOAD_TOO_LARGE', 'INVALID_REQUEST']);

function problemsOf(error: ApiError): PageProblem[] {
  return error.fields.map((f) => ({ targetId: f.dataFieldId, attachment: f.code === 'ATTACHMENT_REQUIRED', message: f.message }));
}

const NOTICES: Record<string, string> = { saved: 'Your draft was saved.', uploaded: 'The file was uploaded.' };

/**
 * The form pages of a project: GET shows the form with the draft; POST saves the draft ("Save draft") or saves and
 * submits it ("Submit"); uploads and downloads of attachments. Every rule is the domain services', as for the API.
 */
export function applicationRoutes(web: FastifyInstance, deps: WebAppDeps): void {
  const { services, publicUrl, timeZone } = deps;

  const page = async (reply: FastifyReply, caller: Caller, view: FormPageView, status: number, extra: { typed?: RawFormValues | null; problems?: PageProblem[]; problemTitle?: string; notice?: string | null }) => {
    const html = renderPage(FormPage({
      view, user: pageUser(caller), csrfToken: csrfToken(reply), timeZone, typed: extra.typed ?? null, problems: extra.problems ?? [],
      problemTitle: extra.problemTitle ?? 'There is a problem', notice: extra.notice ?? null,
    }));
    return reply.code(status).type('text/html; charset=utf-8').header('Cache-Control', 'no-store').send(html);
  };

  web.get(FORM, async (request, reply) => {
    const caller = await webCaller(request, reply, services, publicUrl);
    const view = await services.applications.formPage(caller, formTarget(request));
    const query = request.query as Record<string, unknown>;
    const notice = Object.keys(NOTICES).find((k) => query[k] !== undefined);
    return page(reply, caller, view, 200, { notice: notice ? NOTICES[notice] : null });
  });

  web.post(FORM, { preHandler: web.csrfProtection }, async (request, reply) => {
    const caller = await webCaller(request, reply, services, publicUrl);
    const target = formTarget(request);
    const body = formBody(request.body);
    const submitting = body.action === 'submit';
    let saved = false;
    try {
      const draft = await services.applications.saveDraft(caller, target, body);
      saved = true;
      if (!submitting) return reply.redirect(`${formPagePath(draft.programId, draft.projectId, draft.formId)}?saved=1`, 303);
      const done = await services.submit.submit(caller, target.programRef, target.projectId, target.formRef);
      return reply.redirect(projectPagePath(done.programId, done.projectId, { Submitted: draft.formId }), 303);
    } catch (error) {
      if (!(error instanceof ApiError) || !FIELD_ERRORS.has(error.code)) throw error;
      const view = await services.applications.formPage(caller, target);
      // A refused draft saved nothing, so the page shows what was typed; a refused submit saved the draft first.
      return page(reply, caller, view, error.status, {
        typed: saved ? null : body, problems: problemsOf(error),
        problemTitle: saved ? `${view.form.name} cannot be submitted yet: your draft was saved, but this is missing or wrong` : 'Your draft was not saved: correct these problems',
      });
    }
  });

  web.post(`${FORM}/Attachments/:attachmentId`, {
    preHandler: web.csrfProtection,
    // An upload refused before its file was read leaves the rest of the body unread; read it off so the answer arrives.
    onResponse: async (request) => drainRequest(request.raw),
  }, async (request, reply) => {
    const caller = await webCaller(request, reply, services, publicUrl);
    const target = formTarget(request);
    const attachmentRef = idParam((request.params as Params).attachmentId, 'AttachmentId');
    if (!request.isMultipart()) throw new ApiError('UNSUPPORTED_MEDIA_TYPE', 'Send the file as multipart/form-data.');
    const part = await request.file();
    try {
      // A file input left empty still sends a part, with no file name and no bytes.
      if (!part || part.filename === '') throw new ApiError('INVALID_REQUEST', 'Choose a file to upload.');
      const uploaded = await services.attachments.upload(caller, { ...target, attachmentRef }, {
        body: part.file, contentType: part.mimetype, contentLength: null, fileName: part.filename,
      });
      const view = await services.applications.formPage(caller, target);
      return reply.redirect(`${formPagePath(view.programId, view.projectId, view.form.formId)}?uploaded=${encodeURIComponent(uploaded.attachmentId)}`, 303);
    } catch (error) {
      part?.file.resume();
      if (!(error instanceof ApiError) || !FILE_ERRORS.has(error.code)) throw error;
      // Only once the project is known to be the caller's does the answer show its form page.
      const view = await services.applications.formPage(caller, target);
      const definition = view.attachments.find((a) => a.attachmentId === attachmentRef || a.customId === attachmentRef);
      if (!definition) throw error;
      return page(reply, caller, view, error.status, {
        problems: [{ targetId: definition.attachmentId, attachment: true, message: error.message }], problemTitle: 'The file was not uploaded',
      });
    }
  });

  web.get(`${PROJECT}/Attachments/:attachmentId`, async (request, reply) => {
    const caller = await webCaller(request, reply, services, publicUrl);
    const p = request.params as Params;
    const file = await services.attachments.getActiveFile(caller, {
      programRef: idParam(p.programId, 'ProgramId'), projectId: idParam(p.projectId, 'ProjectId'), attachmentRef: idParam(p.attachmentId, 'AttachmentId'),
    });
    // Always a download, never shown inline: a file's bytes are whatever the applicant sent (nosniff is set for the web pages).
    return reply.code(200).type(file.contentType).header('Content-Length', String(file.size)).header('Content-Disposition', contentDisposition(file.fileName))
      .header('Cache-Control', 'private, no-store').send(await file.open());
  });
}
