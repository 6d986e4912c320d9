import { canWrite, requireFormUse } from '../access.ts';
import { withTableCells } from './table-values.ts';
import { ApiError } from '../api-error.ts';
import { attachmentProblems } from './attachment-rules.ts';
import type { Caller } from '../caller.ts';
import { completenessProblems } from './field-rules.ts';
import type { Program, } from '../../model/model.ts';
import { changeProject } from './change-project.ts';
import { overlayDraft } from './current-draft.ts';
import { findForm, loadProgram, loadReadableProject, projectHeader, requireAvailable } from './project-context.ts';
import type { ServiceDeps } from '../service-deps.ts';
import type { AtVersion, SubmitView } from '../views.ts';

/** A project number: the program's prefix and the sequence number padded to the program's digits. */
export function formatProjectNumber(program: Program, n: number): string {
  return `${program.numberPrefix}-${String(n).padStart(program.numberDigits, '0')}`;
}

/** Submits a form's draft: validates it, copies it to the submitted data, numbers the project and moves its status. */
export class SubmitService {
  readonly #deps: ServiceDeps<'programs' | 'projects'>;
  constructor(deps: ServiceDeps<'programs' | 'projects'>) {
    this.#deps = deps;
  }

  /**
   * SubmitProject. Concurrent submissions of one project queue: each sees the one before, so a form that its submission
   * made unavailable refuses the next with FORM_NOT_AVAILABLE.
   */
  async submit(caller: Caller, programRef: string, projectId: string, formRef: string): Promise<AtVersion<SubmitView>> {
    const { store, ids } = this.#deps;
    const ctx = await loadProgram(this.#deps, caller, programRef);
    const seen = await loadReadableProject(store, caller, ctx, projectId);
    if (!canWrite(caller, ctx.role, seen)) throw new ApiError('FORBIDDEN', `You may read but not submit project ${seen.id}.`);
    const form = findForm(ctx.model, formRef);
    requireFormUse(ctx.role, form);
    return changeProject(this.#deps, caller, ctx, seen.id, {
      action: 'project.submit', access: 'write', forbidden: `You may read but not submit project ${seen.id}.`,
      act: async ({ tx, project, now }) => {
        requireAvailable(ctx.model, form, project);
        const [changes, values] = await Promise.all([tx.projects.getDraft(project.id, form.id), tx.projects.getValues(project.id, form.fields.map((f) => f.fieldId))]);
        const draft = overlayDraft(form, changes, values);
        const uploaded = new Set((await tx.attachments.listActiveAttachments(project.id)).map((a) => a.definitionId));
        const problems = [...completenessProblems(ctx.model, form, new Map(draft.map((v) => [v.fieldId, v]))), ...attachmentProblems(form, uploaded)];
        if (problems.length > 0) throw new ApiError('FORM_INCOMPLETE', `Form ${form.name} is not complete.`, { fields: problems });
        // Only the draft's own changes are written: a field it did not change keeps the project's value, and another
        // form's unsubmitted change of it stays a change.
        const onForm = new Set(form.fields.map((f) => f.fieldId));
        const written = changes.filter((v) => onForm.has(v.fieldId)).map((v) => ({ ...v, updatedAt: now, updatedBy: caller.user.id }));
        await tx.projects.upsertValues(project.id, form.id, withTableCells(ctx.model, written));
        await tx.projects.insertSubmission({ id: ids.next(), projectId: project.id, formId: form.id, at: now, by: caller.user.id });
        const number = project.number ?? formatProjectNumber(ctx.program, await tx.projects.takeProjectNumber(ctx.program.id));
        const moves = form.leadsToStatusId !== null && form.leadsToStatusId !== project.statusId;
        const statusId = moves ? form.leadsToStatusId! : project.statusId;
        const statusAt = moves ? now : project.statusAt;
        if (moves) await tx.projects.insertHistory({ id: ids.next(), projectId: project.id, statusId, changedAt: now, changedBy: caller.user.id, reportAs: 'normal' });
        return {
          changes: { number, statusId, statusAt },
          detail: { formId: form.id, number, fromStatus: project.statusId, toStatus: statusId },
          result: (updated) => ({ ...projectHeader(this.#deps, ctx.model, updated), projectNumber: number }),
        };
      },
    });
  }
}
