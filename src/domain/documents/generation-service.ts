import type { DocumentRequest, DocumentRequestState } from '../../store/document-request-queries.ts';
import type { Caller } from '../caller.ts';
import { changeProject } from '../projects/change-project.ts';
import type { ReactingDeps } from '../projects/change-reaction.ts';
import { loadProgram, loadProgramWith, loadReadableProject, versionOf } from '../projects/project-context.ts';
import { hasPrivilege, isStaff } from '../roles/access.ts';
import type { ServiceDeps } from '../service-deps.ts';
import type { AtVersion } from '../views.ts';
import { documentTemplates, findTemplate } from '../document-templates.ts';
import { REQUEST_ACTION, requestDocument } from '../document-request.ts';

/** One request to generate a document, as the API and the review page show it. */
export interface DocumentRequestView {
  requestId: string; documentId: string; state: DocumentRequestState; requestedAt: number; finishedAt: number | null;
  attempts: number;
  /** Why the last attempt failed (staff only; null for applicants and when none failed). */
  error: string | null;
  /** The attachment definition the generated files are versions of, and the version this request made (null until it has). */
  attachmentId: string; attachmentVersion: number | null;
}

/** A project's documents: each template the caller may see with its newest request, and whether the caller may generate. */
export interface ProjectDocumentsView {
  projectId: string; canGenerate: boolean;
  documents: { documentId: string; name: string; attachmentId: string; latest: DocumentRequestView | null }[];
}

/** The view of a stored request; the failure's text only for staff. */
export function requestView(r: DocumentRequest, attachmentId: string, staff: boolean): DocumentRequestView {
  return {
    requestId: r.id, documentId: r.documentId, state: r.state, requestedAt: r.requestedAt, finishedAt: r.finishedAt, attempts: r.attempts,
    error: staff ? r.lastError : null, attachmentId, attachmentVersion: r.attachmentVersion,
  };
}

/**
 * GenerateDocument and GetProjectDocuments: staff with the privilege generateDocuments ask for one of the program's
 * documents; the request is recorded in the change step (one transaction, project locked, audit row), and the
 * generation task renders it after the commit (document-generation-task.ts).
 */
export class GenerationService {
  readonly #deps: ServiceDeps<'programs' | 'projects' | 'documents'> & ReactingDeps;
  constructor(deps: ServiceDeps<'programs' | 'projects' | 'documents'> & ReactingDeps) {
    this.#deps = deps;
  }

  /** GenerateDocument (privilege generateDocuments): queues a request to generate the document; answers with it, queued. */
  async generate(caller: Caller, programRef: string, projectId: string, documentRef: string): Promise<AtVersion<DocumentRequestView>> {
    const ctx = await loadProgramWith(this.#deps, caller, programRef, 'generateDocuments', 'GenerateDocument');
    const template = findTemplate(ctx.model, documentRef);
    // A project the caller may not read is answered as missing before anything is locked; checked again inside.
    await loadReadableProject(this.#deps.store, caller, ctx, projectId);
    return changeProject(this.#deps, caller, ctx, projectId, {
      action: REQUEST_ACTION, access: 'read',
      act: async ({ tx, project, now }) => {
        const { request, detail } = await requestDocument(tx, this.#deps.ids, {
          programId: ctx.program.id, projectId: project.id, template, requestedBy: caller.user.id, now, automation: null,
        });
        return { detail, result: (updated) => ({ ...requestView(request, template.attachmentId, true), projectVersion: versionOf(updated) }) };
      },
    });
  }

  /** GetProjectDocuments: the program's documents on a project with their newest request (applicants: those shown to them). */
  async list(caller: Caller, programRef: string, projectId: string): Promise<AtVersion<ProjectDocumentsView>> {
    const ctx = await loadProgram(this.#deps, caller, programRef);
    const project = await loadReadableProject(this.#deps.store, caller, ctx, projectId);
    const staff = isStaff(ctx.role);
    const requests = await this.#deps.store.documents.listProjectDocumentRequests(project.id);
    const documents = documentTemplates(ctx.model).filter((t) => staff || t.visibleToApplicant).map((t) => {
      const latest = requests.find((r) => r.documentId === t.customId);
      return { documentId: t.customId, name: t.name, attachmentId: t.attachmentId, latest: latest ? requestView(latest, t.attachmentId, staff) : null };
    });
    return { projectId: project.id, canGenerate: hasPrivilege(ctx.role, 'generateDocuments'), documents, projectVersion: versionOf(project) };
  }
}
