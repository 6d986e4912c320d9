import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../domain/api-error.ts';
import type { Caller } from '../domain/caller.ts';
import { INQUIRY_STATUSES, type InquiryStatus } from '../model/inquiry.ts';
import { contentDisposition } from '../http/content-disposition.ts';
import { idParam } from '../http/query-params.ts';
import { exportValueV2, ProjectExportDataGetResponseV2 } from '../wire/documents/project-export.ts';
import { writeXmlDocument } from '../wire/wire-xml-writer.ts';
import type { FormProblem } from './components/error-summary.tsx';
import { ReviewPage, type StatusFormValues } from './pages/review-page.tsx';
import { reviewPath } from './pages/work-queue-page.tsx';
import { renderPage } from './render-page.ts';
import type { WebAppDeps } from './web-app-deps.ts';
import { pageUser, webCaller } from './web-session-request.ts';
import { csrfToken } from './csrf.ts';
import { sendFile, sendInlinePdf, wantsView } from './file-response.ts';
import { visitOf } from '../http/routes/envelope-routes.ts';

/** The review page's path pattern; its actions are POSTs below it. */
export const REVIEW_ROUTE = '/MvcProjects/Programs/:programId/Projects/:projectId/Review';

// What the page says after each action; the redirect carries only the key, so no text of the URL reaches the page.
const NOTICES: Record<string, string> = {
  status: 'The status was changed.', assignee: 'The assignee was changed.', owner: 'The owner was changed.', attachment: 'The file review was saved.',
  deadline: 'The deadline was changed.', document: 'The document was asked for; it is generated in a moment (reload to see it).', note: 'The note was added.', thread: 'The thread was started.', threadStatus: 'The thread status was changed.', externalId: 'The external id was saved.',
  relation: 'The related project was created.', linked: 'The project was linked.', unlinked: 'The link was removed.', envelopeVoided: 'The envelope was voided; nobody may sign it any more.', envelopeResent: 'The signer was sent a new link; the earlier one no longer works.',
};

// Refusals that the page explains beside the control of the action; anything else (403, 404, …) goes to the error handler.
const FORM_ERRORS = new Set(['INVALID_REQUEST', 'INVALID_PARAMETER', 'TRANSITION_NOT_ALLOWED', 'UNKNOWN_USER', 'CONFLICT', 'THREAD_CLOSED', 'NOT_FOUND']);

type Params = { programId?: string; projectId?: string; attachmentId?: string; documentId?: string };
type Form = Record<string, unknown>;

function target(request: FastifyRequest): { programId: string; projectId: string } {
  const p = request.params as Params;
  return { programId: idParam(p.programId, 'programId'), projectId: idParam(p.projectId, 'projectId') };
}

function field(request: FastifyRequest, name: string): string {
  const body = request.body;
  if (body === null || typeof body !== 'object' || 'unsupportedContentType' in body) throw new ApiError('UNSUPPORTED_MEDIA_TYPE', 'Send the form as application/x-www-form-urlencoded.');
  const value = (body as Form)[name];
  if (value === undefined) return '';
  if (typeof value !== 'string') throw new ApiError('INVALID_PARAMETER', `Send the form field ${name} once.`);
  return value;
}

/** One action of the review page: what it does with the form, the control its refusals link to, its notice. */
interface ReviewAction {
  path: string;
  control: (request: FastifyRequest) => string;
  run: (caller: Caller, programId: string, projectId: string, request: FastifyRequest) => Promise<string>;
}

/** The review page of a project for staff, its actions, its files and its export. */
export function reviewRoutes(web: FastifyInstance, deps: WebAppDeps): void {
  const { services, publicUrl, timeZone, codec } = deps;

  async function show(request: FastifyRequest, reply: FastifyReply, caller: Caller, status: number, notice: string | null, problems: FormProblem[], statusForm?: StatusFormValues) {
    const t = target(request);
    const view = await services.review.review(caller, t.programId, t.projectId);
    const deadlines = await services.deadlines.board(caller, t.programId, t.projectId);
    const mails = await services.projectMail.ownerMails(caller, t.programId, t.projectId);
    const documents = { ...await services.generation.list(caller, t.programId, t.projectId), mayPreview: await services.documentPreview.mayPreview(caller, t.programId) };
    const envelopes = { views: await services.signing.listForProject(caller, t.programId, t.projectId), mayManage: await services.signing.mayManage(caller, t.programId) };
    const relations = await services.relations.listRelations(caller, t.programId, t.projectId);
    const page = renderPage(ReviewPage({ view, deadlines, mails, documents, envelopes, relations, notice, problems, user: await pageUser(services, caller), csrfToken: csrfToken(reply), timeZone, statusForm }));
    return reply.code(status).type('text/html; charset=utf-8').header('Cache-Control', 'no-store').send(page);
  }

  web.get(REVIEW_ROUTE, async (request, reply) => {
    const caller = await webCaller(request, reply, services, publicUrl);
    const key = (request.query as Form).notice;
    return show(request, reply, caller, 200, typeof key === 'string' ? (NOTICES[key] ?? null) : null, []);
  });

  const actions: ReviewAction[] = [
    {
      path: 'Status', control: () => 'review-status',
      run: async (caller, programId, projectId, request) => {
        const reason = { reasonId: field(request, 'ReasonId'), message: field(request, 'Message') };
        await services.workflow.setStatus(caller, programId, projectId, idParam(field(request, 'StatusId').trim(), 'StatusId'), reason);
        return 'status';
      },
    },
    {
      path: 'Assignee', control: () => 'review-assignee',
      run: async (caller, programId, projectId, request) => {
        const email = field(request, 'Email').trim();
        await services.workflow.setAssignee(caller, programId, projectId, email === '' ? null : email);
        return 'assignee';
      },
    },
    {
      path: 'Owner', control: () => 'review-owner',
      run: async (caller, programId, projectId, request) => {
        const email = field(request, 'Email').trim();
        if (email === '') throw new ApiError('INVALID_REQUEST', 'Enter the e-mail address of the new owner.');
        await services.projects.setOwner(caller, programId, projectId, email);
        return 'owner';
      },
    },
    {
      path: 'Deadline', control: (request) => `deadline-${field(request, 'DeadlineId')}`,
      run: async (caller, programId, projectId, request) => {
        const deadlineId = idParam(field(request, 'DeadlineId'), 'DeadlineId');
        const action = field(request, 'Action');
        if (action === 'Start') await services.deadlines.start(caller, programId, projectId, deadlineId);
        else if (action === 'Satisfy') await services.deadlines.satisfy(caller, programId, projectId, deadlineId);
        else if (action === 'Cancel') await services.deadlines.cancel(caller, programId, projectId, deadlineId);
        else throw new ApiError('INVALID_REQUEST', 'Choose Start, Satisfy or Cancel.');
        return 'deadline';
      },
    },
    {
      path: 'Document', control: (request) => `document-${field(request, 'DocumentId')}`,
      run: async (caller, programId, projectId, request) => {
        await services.generation.generate(caller, programId, projectId, idParam(field(request, 'DocumentId'), 'DocumentId'));
        return 'document';
      },
    },
    {
      path: 'Relation', control: (request) => `relation-${field(request, 'RelationId')}`,
      run: async (caller, programId, projectId, request) => {
        await services.relations.createRelated(caller, programId, projectId, idParam(field(request, 'RelationId'), 'RelationId'));
        return 'relation';
      },
    },
    {
      path: 'Link', control: () => 'link-number',
      run: async (caller, programId, projectId, request) => {
        const number = field(request, 'ProjectNumber').trim();
        if (number === '') throw new ApiError('INVALID_REQUEST', 'Enter the number of the project to link.');
        const kind = field(request, 'Kind');
        if (kind !== 'link' && kind !== 'child' && kind !== 'successor') throw new ApiError('INVALID_REQUEST', 'Choose link, child or successor.');
        await services.relations.linkProject(caller, programId, projectId, { programRef: idParam(field(request, 'ProgramId'), 'ProgramId'), projectRef: number, kind });
        return 'linked';
      },
    },
    {
      path: 'Unlink', control: (request) => `unlink-${field(request, 'RelationId')}`,
      run: async (caller, programId, projectId, request) => {
        await services.relations.unlinkProject(caller, programId, projectId, idParam(field(request, 'RelationId'), 'RelationId'));
        return 'unlinked';
      },
    },
    {
      path: 'Attachment', control: (request) => `review-note-${field(request, 'AttachmentId')}`,
      run: async (caller, programId, projectId, request) => {
        const action = field(request, 'Action');
        if (action !== 'Approve' && action !== 'Reject') throw new ApiError('INVALID_REQUEST', 'Choose Approve or Reject.');
        const attachmentRef = idParam(field(request, 'AttachmentId'), 'AttachmentId');
        await services.attachments.setMetadata(caller, { programRef: programId, projectId, attachmentRef }, { action, note: field(request, 'Note') });
        return 'attachment';
      },
    },
    {
      path: 'InquiryNote', control: (request) => (field(request, 'ThreadId') === '' ? (field(request, 'Subject').trim() === '' ? 'thread-subject' : 'thread-text') : `note-text-${field(request, 'ThreadId')}`),
      run: async (caller, programId, projectId, request) => {
        const threadId = field(request, 'ThreadId');
        const subject = field(request, 'Subject').trim();
        await services.inquiries.addNote(caller, programId, projectId, {
          threadId: threadId === '' ? null : idParam(threadId, 'ThreadId'), subject: threadId === '' ? subject : null,
          visibleToApplicant: field(request, 'Visible') === 'true', text: field(request, 'Text'),
        });
        return threadId === '' ? 'thread' : 'note';
      },
    },
    {
      path: 'InquiryStatus', control: (request) => `thread-${field(request, 'ThreadId')}`,
      run: async (caller, programId, projectId, request) => {
        const status = field(request, 'Status');
        if (!(INQUIRY_STATUSES as readonly string[]).includes(status)) throw new ApiError('INVALID_REQUEST', `"${status}" is not a thread status.`);
        await services.inquiries.setStatus(caller, programId, projectId, idParam(field(request, 'ThreadId'), 'ThreadId'), status as InquiryStatus);
        return 'threadStatus';
      },
    },
    {
      path: 'EnvelopeVoid', control: (request) => `void-${field(request, 'EnvelopeId')}`,
      run: async (caller, programId, projectId, request) => {
        const ref = { programRef: programId, projectId, envelopeId: idParam(field(request, 'EnvelopeId'), 'EnvelopeId') };
        await services.signing.void(caller, ref, field(request, 'Reason'), visitOf(request));
        return 'envelopeVoided';
      },
    },
    {
      path: 'EnvelopeResend', control: (request) => `envelope-${field(request, 'EnvelopeId')}`,
      run: async (caller, programId, projectId, request) => {
        const ref = { programRef: programId, projectId, envelopeId: idParam(field(request, 'EnvelopeId'), 'EnvelopeId') };
        await services.signing.resend(caller, ref, idParam(field(request, 'SignerId'), 'SignerId'), visitOf(request));
        return 'envelopeResent';
      },
    },
    {
      path: 'InquiryExternalId', control: (request) => `external-${field(request, 'ThreadId')}`,
      run: async (caller, programId, projectId, request) => {
        const externalId = field(request, 'ExternalId').trim();
        await services.inquiries.setExternalId(caller, programId, projectId, idParam(field(request, 'ThreadId'), 'ThreadId'), externalId === '' ? null : externalId);
        return 'externalId';
      },
    },
  ];

  for (const action of actions) {
    web.post(`${REVIEW_ROUTE}/${action.path}`, { preHandler: web.csrfProtection }, async (request, reply) => {
      const caller = await webCaller(request, reply, services, publicUrl);
      const t = target(request);
      try {
        const notice = await action.run(caller, t.programId, t.projectId, request);
        return reply.code(303).header('Cache-Control', 'no-store').redirect(`${reviewPath(t.programId, t.projectId)}?notice=${notice}`, 303);
      } catch (error) {
        if (!(error instanceof ApiError) || !FORM_ERRORS.has(error.code)) throw error;
        // The page is shown again with the refusal beside the control; a project the caller may not see fails here too.
        // A refused status change keeps what was chosen and typed, so that a message is not lost.
        const statusForm = action.path === 'Status'
          ? { statusId: field(request, 'StatusId').trim(), reasonId: field(request, 'ReasonId'), message: field(request, 'Message') } : undefined;
        return show(request, reply, caller, error.status, null, [{ fieldId: action.control(request), message: error.message }], statusForm);
      }
    });
  }

  web.get(`${REVIEW_ROUTE}/Attachments/:attachmentId`, async (request, reply) => {
    const caller = await webCaller(request, reply, services, publicUrl);
    const t = target(request);
    const attachmentRef = idParam((request.params as Params).attachmentId, 'attachmentId');
    const file = await services.attachments.getActiveFile(caller, { programRef: t.programId, projectId: t.projectId, attachmentRef });
    // A download, or shown inline when asked and safe to (file-response.ts): a file's content must not run as a page of
    // this site. Kept in no cache (the project page's files alike): a shared computer's browser must not keep an applicant's files.
    return sendFile(request, reply, file, { view: wantsView(request.query), secure: new URL(publicUrl).protocol === 'https:', cacheControl: 'no-store' });
  });

  web.get(`${REVIEW_ROUTE}/Documents/:documentId/Preview`, async (request, reply) => {
    const caller = await webCaller(request, reply, services, publicUrl);
    const t = target(request);
    const preview = await services.documentPreview.preview(caller, t.programId, t.projectId, idParam((request.params as Params).documentId, 'documentId'));
    // Shown in the browser as a viewed PDF file is, ranges and ETag alike; rendered for this answer alone, so kept in no cache.
    return sendInlinePdf(request, reply, preview.pdf, preview.fileName, { secure: new URL(publicUrl).protocol === 'https:', cacheControl: 'no-store' });
  });

  web.get(`${REVIEW_ROUTE}/Export`, async (request, reply) => {
    const caller = await webCaller(request, reply, services, publicUrl);
    const t = target(request);
    const view = await services.exports.getExport(caller, t.programId, t.projectId, 2);
    const xml = writeXmlDocument(ProjectExportDataGetResponseV2, exportValueV2(view), codec.ns);
    return reply.type('application/xml; charset=utf-8').header('Content-Disposition', contentDisposition(`${view.number ?? view.projectId}-export.xml`))
      .header('Cache-Control', 'no-store').send(Readable.from([xml]));
  });
}
