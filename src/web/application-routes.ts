import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Multipart } from '@fastify/multipart';
import { ApiError } from '../domain/api-error.ts';
import type { FormPageView, FormTarget } from '../domain/projects/application-service.ts';
import type { StagedUpload } from '../domain/projects/attachment-service.ts';
import type { RawFormValues } from '../domain/projects/draft-inputs.ts';
import type { Caller } from '../domain/caller.ts';
import { drainRequest } from '../http/drain-request.ts';
import { requestComplete } from '../http/request-complete.ts';
import { idParam } from '../http/query-params.ts';
import { refusedTypeMessage } from './file-type-names.ts';
import { sendFile, wantsView } from './file-response.ts';
import { FILE_FIELD_PREFIX, FormPage, type FormStep, type PageProblem } from './pages/form-page.tsx';
import { renderPage } from './render-page.ts';
import type { WebAppDeps } from './web-app-deps.ts';
import { formPagePath, projectPagePath } from './web-paths.ts';
import { pageUser, webCaller } from './web-session-request.ts';
import { csrfToken } from './csrf.ts';
import { tableAction } from '../domain/projects/table-inputs.ts';
import { controlId, listSearchName } from './components/field-control.tsx';

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
  return error.fields.map((f) => ({
    targetId: f.dataFieldId, attachment: f.code === 'ATTACHMENT_REQUIRED', message: f.message,
    ...(f.row !== undefined ? { row: f.row } : {}), ...(f.column !== undefined ? { column: f.column } : {}),
  }));
}

const NOTICES: Record<string, string> = { saved: 'Your draft was saved.', uploaded: 'Your draft was saved and the file was uploaded.' };

// A form page posts its fields and files together; busboy's defaults (1 file, few fields) would refuse a long form.
const MULTIPART_LIMITS = { fileSize: Number.MAX_SAFE_INTEGER, files: 50, fields: 5000, parts: 5050, fieldSize: 1024 * 1024 };

/** The outcome of one file of a form page's post: stored, or refused for a reason about the file itself. */
interface FileOutcome { attachmentRef: string; error: ApiError | null }

function addValue(body: Record<string, unknown>, name: string, value: string): void {
  const had = body[name];
  body[name] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
}

/**
 * Checks a multipart post's CSRF token with the app's CSRF rules. The token travels in the body, as the first part
 * (the form page puts its hidden _csrf input first), never in the address, where it would land in history and logs:
 * it is checked before any file is read or stored. False when refused (the answer is then sent).
 */
export function csrfPasses(web: FastifyInstance, request: FastifyRequest, reply: FastifyReply, token: string): boolean {
  // An empty string, not undefined: a token in the query must not stand in for the missing body field.
  request.body = { _csrf: token };
  let passed = false;
  web.csrfProtection(request, reply, () => {
    passed = true;
  });
  return passed;
}

/**
 * The form pages of a project: GET shows the form with the draft as it stands; POST saves the draft ("Save draft"),
 * saves it and stores the chosen files ("Upload …", one multipart post, so nothing typed is lost), or saves and
 * submits it ("Submit"); downloads of attachments. Every rule is the domain services', as for the API.
 */
export function applicationRoutes(web: FastifyInstance, deps: WebAppDeps): void {
  const { services, publicUrl, timeZone } = deps;

  const page = async (reply: FastifyReply, caller: Caller, view: FormPageView, status: number, extra: { typed?: RawFormValues | null; problems?: PageProblem[]; problemTitle?: string; notice?: string | null }) => {
    const [user, forms] = await Promise.all([pageUser(services, caller), services.applications.projectForms(caller, view.programId, view.projectId)]);
    const steps = forms.forms.map((f): FormStep => ({ formId: f.formId, name: f.name, state: f.formId === view.form.formId ? 'current' : f.submitted ? 'complete' : 'incomplete' }));
    const html = renderPage(FormPage({
      view, user, csrfToken: csrfToken(reply), timeZone, typed: extra.typed ?? null, problems: extra.problems ?? [],
      problemTitle: extra.problemTitle ?? 'There is a problem', notice: extra.notice ?? null, steps,
    }));
    return reply.code(status).type('text/html; charset=utf-8').header('Cache-Control', 'no-store').send(html);
  };

  web.get(FORM, async (request, reply) => {
    const caller = await webCaller(request, reply, services, publicUrl);
    const view = await services.applications.formPage(caller, formTarget(request));
    const query = request.query as Record<string, unknown>;
    const notice = Object.keys(NOTICES).find((k) => query[k] !== undefined);
    const files = Number(query.uploaded);
    const text = notice === 'uploaded' && Number.isInteger(files) && files > 1 ? `Your draft was saved and ${files} files were uploaded.` : notice ? NOTICES[notice] : null;
    return page(reply, caller, view, 200, { notice: text ?? null });
  });

  /**
   * Reads a multipart post after its CSRF token: the fields, and each chosen file stored as it streams in (staged, not
   * yet a version). Only once the whole post has arrived are the files made versions: a post that broke off stores nothing.
   */
  const readMultipart = async (request: FastifyRequest, caller: Caller, target: FormTarget, parts: AsyncIterable<Multipart>) => {
    // No prototype: a part named like an Object property ("__proto__") is just an unknown control.
    const body: Record<string, unknown> = Object.create(null);
    const files: FileOutcome[] = [];
    const staged: { attachmentRef: string; upload: StagedUpload }[] = [];
    try {
      for await (const part of parts) {
        if (part.type === 'field') {
          addValue(body, part.fieldname, String(part.value));
          continue;
        }
        const attachmentRef = part.fieldname.startsWith(FILE_FIELD_PREFIX) ? part.fieldname.slice(FILE_FIELD_PREFIX.length) : '';
        // A file input left empty still sends a part, with no file name and no bytes.
        if (part.filename === '') {
          part.file.resume();
          continue;
        }
        try {
          if (attachmentRef === '') throw new ApiError('INVALID_REQUEST', `The form has no file input named "${part.fieldname}".`);
          const upload = await services.attachments.stage(caller, { ...target, attachmentRef: idParam(attachmentRef, 'AttachmentId') }, {
            body: part.file, contentType: part.mimetype, contentLength: null, fileName: part.filename,
          });
          staged.push({ attachmentRef, upload });
        } catch (error) {
          part.file.resume();
          files.push({ attachmentRef, error: await fileRefusal(caller, target, attachmentRef, part.mimetype, error) });
        }
      }
      await requestComplete(request.raw);
    } catch (error) {
      await Promise.all(staged.map((s) => s.upload.discard()));
      throw error;
    }
    // The checks were made when the files were staged; what fails now (the project changed meanwhile) is the page's error.
    for (const [i, { attachmentRef, upload }] of staged.entries()) {
      try {
        await upload.commit();
      } catch (error) {
        await Promise.all(staged.slice(i + 1).map((s) => s.upload.discard()));
        throw error;
      }
      files.push({ attachmentRef, error: null });
    }
    return { body: body as RawFormValues, files };
  };

  /** A file's refusal as its input shows it; any error that is not about the file itself is thrown on. */
  const fileRefusal = async (caller: Caller, target: FormTarget, attachmentRef: string, sent: string | null, error: unknown): Promise<ApiError> => {
    if (!(error instanceof ApiError) || !FILE_ERRORS.has(error.code) || attachmentRef === '') throw error;
    // For people, the refused type in words ("a text file", "only PDF"), not media types.
    const message = error.code === 'UNSUPPORTED_MEDIA_TYPE' ? await typeMessage(caller, target, attachmentRef, sent) : null;
    return message ? new ApiError(error.code, message) : error;
  };

  const typeMessage = async (caller: Caller, target: FormTarget, attachmentRef: string, sent: string | null): Promise<string | null> => {
    const view = await services.applications.formPage(caller, target);
    const definition = view.attachments.find((a) => a.attachmentId === attachmentRef || a.customId === attachmentRef);
    return definition ? refusedTypeMessage(sent, definition.allowedTypes) : null;
  };

  web.post(FORM, {
    // A multipart post carries its token in the body, which is streamed, so it is checked in the handler (csrfPasses).
    preHandler: (request, reply, done) => (request.isMultipart() ? done() : web.csrfProtection(request, reply, done)),
    // A post refused before its body was read leaves the rest unread; read it off so the answer arrives.
    onResponse: async (request) => drainRequest(request.raw),
  }, async (request, reply) => {
    const caller = await webCaller(request, reply, services, publicUrl);
    const target = formTarget(request);
    let body: RawFormValues;
    let files: FileOutcome[] = [];
    if (request.isMultipart()) {
      const parts = request.parts({ limits: MULTIPART_LIMITS });
      const first = await parts.next();
      const token = !first.done && first.value.type === 'field' && first.value.fieldname === '_csrf' ? String(first.value.value) : '';
      if (!first.done && first.value.type === 'file') first.value.file.resume();
      if (!csrfPasses(web, request, reply, token)) return reply;
      ({ body, files } = await readMultipart(request, caller, target, parts));
    } else {
      body = formBody(request.body);
    }
    const action = typeof body.action === 'string' ? body.action : 'save';
    const submitting = action === 'submit';
    // "Upload …" pressed with no file chosen for it: said beside that input (the fields are saved all the same).
    const pressed = action.startsWith('upload:') ? action.slice('upload:'.length) : null;
    if (pressed !== null && !files.some((f) => f.attachmentRef === pressed)) files.push({ attachmentRef: pressed, error: new ApiError('INVALID_REQUEST', 'Choose a file to upload.') });
    const refusedFiles = files.filter((f) => f.error !== null);
    const stored = files.length - refusedFiles.length;
    // "Search" of a field's long list: the page comes back with the matches to choose from and everything typed, unsaved.
    if (action.startsWith('search:') && refusedFiles.length === 0) {
      const fieldId = action.slice('search:'.length);
      const query = body[listSearchName(fieldId)];
      const view = await services.applications.formPage(caller, target, body, { fieldId, query: typeof query === 'string' ? query : '' });
      const notice = stored > 0 ? `${stored === 1 ? 'The file was' : `${stored} files were`} uploaded.` : null;
      return page(reply, caller, view, 200, { typed: body, notice });
    }
    let saved = false;
    let problems: PageProblem[] = [];
    let status = 200;
    try {
      const draft = await services.applications.saveDraft(caller, target, body);
      saved = true;
      if (refusedFiles.length === 0) {
        // "Add row" and "Remove" of a table saved the draft with the change; the page comes back at that table.
        const rows = tableAction(body);
        const anchor = rows ? `#${controlId(rows.fieldId)}` : '';
        if (!submitting) return reply.redirect(`${formPagePath(draft.programId, draft.projectId, draft.formId)}?${stored > 0 ? `uploaded=${stored}` : 'saved=1'}${anchor}`, 303);
        const done = await services.submit.submit(caller, target.programRef, target.projectId, target.formRef);
        return reply.redirect(projectPagePath(done.programId, done.projectId, { Submitted: draft.formId }), 303);
      }
    } catch (error) {
      if (!(error instanceof ApiError) || !FIELD_ERRORS.has(error.code)) throw error;
      problems = problemsOf(error);
      status = error.status;
    }
    // Only once the project is known to be the caller's does the answer show its form page; the rules decide it over
    // what a refused save typed.
    const view = await services.applications.formPage(caller, target, saved ? undefined : body);
    for (const f of refusedFiles) {
      const definition = view.attachments.find((a) => a.attachmentId === f.attachmentRef || a.customId === f.attachmentRef);
      if (!definition) throw f.error!;
      problems.push({ targetId: definition.attachmentId, attachment: true, message: f.error!.message });
      if (status === 200) status = f.error!.status;
    }
    const title = !saved ? 'Your draft was not saved: correct these problems'
      : refusedFiles.length > 0 ? `${refusedFiles.length === 1 ? 'The file was' : 'Some files were'} not uploaded; your draft was saved`
      : `${view.form.name} cannot be submitted yet: your draft was saved, but this is missing or wrong`;
    // A refused draft saved nothing, so the page shows what was typed; files that were stored say so.
    const notice = stored > 0 ? `${stored === 1 ? 'The file was' : `${stored} files were`} uploaded.` : null;
    return page(reply, caller, view, status, { typed: saved ? null : body, problems, problemTitle: title, notice });
  });

  web.get(`${PROJECT}/Attachments/:attachmentId`, async (request, reply) => {
    const caller = await webCaller(request, reply, services, publicUrl);
    const p = request.params as Params;
    const file = await services.attachments.getActiveFile(caller, {
      programRef: idParam(p.programId, 'ProgramId'), projectId: idParam(p.projectId, 'ProjectId'), attachmentRef: idParam(p.attachmentId, 'AttachmentId'),
    });
    // A download, or shown inline when asked and safe to (file-response.ts): the file's bytes are whatever the applicant sent.
    return sendFile(request, reply.code(200), file, { view: wantsView(request.query), secure: new URL(publicUrl).protocol === 'https:', cacheControl: 'private, no-store' });
  });
}
