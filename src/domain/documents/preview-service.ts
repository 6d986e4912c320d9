import type { DocumentRenderer, RenderedDocument } from '../../model/document.ts';
import { ApiError } from '../api-error.ts';
import type { Caller } from '../caller.ts';
import { findTemplate } from '../document-templates.ts';
import { loadProgram, loadReadableProject } from '../projects/project-context.ts';
import type { Role } from '../roles/access.ts';
import type { ServiceDeps } from '../service-deps.ts';
import { createDocumentRenderer } from './document-renderer.ts';
import { previewTime } from './preview-time.ts';

/** A document previewed over a project: the PDF and the name to show it under. */
export interface DocumentPreview extends RenderedDocument { fileName: string }

/** True when the role is the program's admin (agency admins are admins of their agency's programs: roleIn). */
export function mayPreviewDocuments(role: Role): boolean {
  return role.name === 'admin';
}

/**
 * PreviewDocument: a program's admin sees one of its documents rendered over a project's data as it is now, to check
 * a template. Nothing is written (no request, no version, no audit row); rendering runs outside any transaction. It is
 * rendered at the quarter hour's time (previewTime), so that the same data gives the same bytes on every request.
 */
export class DocumentPreviewService {
  readonly #deps: ServiceDeps;
  #renderer: DocumentRenderer | null;
  constructor(deps: ServiceDeps, renderer?: DocumentRenderer) {
    this.#deps = deps;
    this.#renderer = renderer ?? null;
  }

  /** True when the caller may preview the program's documents (the review page shows its Preview links then). */
  async mayPreview(caller: Caller, programRef: string): Promise<boolean> {
    return mayPreviewDocuments((await loadProgram(this.#deps, caller, programRef)).role);
  }

  /** The document rendered over the project; NOT_FOUND for a project the caller may not read, FORBIDDEN for non-admins. */
  async preview(caller: Caller, programRef: string, projectId: string, documentRef: string): Promise<DocumentPreview> {
    const ctx = await loadProgram(this.#deps, caller, programRef);
    const project = await loadReadableProject(this.#deps.store, caller, ctx, projectId);
    if (!mayPreviewDocuments(ctx.role)) {
      throw new ApiError('FORBIDDEN', `Previewing a document is for the admins of program ${ctx.program.id}; your role there is ${ctx.role.name}.`);
    }
    const template = findTemplate(ctx.model, documentRef);
    // The fonts are parsed on the first preview, not when the app starts.
    this.#renderer ??= createDocumentRenderer({ store: this.#deps.store });
    // At the quarter hour's time, so that a viewer's ranges of one preview are parts of the same bytes (preview-time.ts).
    const rendered = await this.#renderer.renderForProject({
      programId: ctx.program.id, templateId: template.customId, projectId: project.id, now: previewTime(this.#deps.clock.now()),
    });
    return { ...rendered, fileName: `${project.number ?? project.id}-${template.customId}-preview.pdf` };
  }
}
