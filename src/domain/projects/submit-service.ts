import { canWrite, requireFormUse } from '../roles/access.ts';
import { withTableCells } from './table-values.ts';
import { ApiError } from '../api-error.ts';
import { attachmentProblems } from './attachment-rules.ts';
import type { Caller } from '../caller.ts';
import { completenessProblems } from './field-rules.ts';
import type { Program, } from '../../model/model.ts';
import { changeProject } from './change-project.ts';
import { overlayDraft } from './current-draft.ts';
import { hasRules } from '../rules/form-rules.ts';
import { rulesBeforeLock, rulesInLock } from '../rules/rule-state.ts';
import { findForm, loadProgram, loadReadableProject, projectHeader, requireAvailable } from './project-context.ts';
import type { ServiceDeps } from '../service-deps.ts';
import type { ReactingDeps } from './change-reaction.ts';
import type { AtVersion, SubmitView } from '../views.ts';

/** A project number: the program's prefix and the sequence number padded to the program's digits. */
export function formatProjectNumber(program: Program, n: number): string {
  return `${program.numberPrefix}-${String(n).padStart(program.numberDigits, '0')}`;
}

/** Submits a form's draft: validates it, copies it to the submitted data, numbers the project and moves its status. */
export class SubmitService {
  readonly #deps: ServiceDeps<'programs' | 'projects' | 'attachments' | 'envelopes' | 'relations'> & ReactingDeps;
  constructor(deps: ServiceDeps<'programs' | 'projects' | 'attachments' | 'envelopes' | 'relations'> & ReactingDeps) {
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
    if (!canWrite(caller, ctx.role, seen)) throw new ApiError('FORBIDDEN', `You may read but not submit project ${seen.id} (privilege editData, or editOwnProjects on your own projects).`);
    const form = findForm(ctx.model, formRef);
    requireFormUse(ctx.role, form);
    // The rules run before the lock is taken; inside, they run again only if the project changed in between.
    const early = hasRules(ctx.model) ? await rulesBeforeLock(store, ctx.model, ctx.role.name, seen, form, 'draft', [], { files: true }) : null;
    return changeProject(this.#deps, caller, ctx, seen.id, {
      action: 'project.submit', access: 'write', forbidden: `You may read but not submit project ${seen.id} (privilege editData, or editOwnProjects on your own projects).`,
      act: async ({ tx, project, now }) => {
        requireAvailable(ctx.model, form, project);
        // With rules, the rules' reads serve the submission too.
        const ruled = hasRules(ctx.model) ? await rulesInLock(early, tx, ctx.model, ctx.role.name, project, form, 'draft', [], { files: true }) : null;
        const [changes, values, files] = ruled ? [ruled.changes, [], ruled.files] : await Promise.all([
          tx.projects.getDraft(project.id, form.id), tx.projects.getValues(project.id, form.fields.map((f) => f.fieldId)), tx.attachments.listActiveAttachments(project.id),
        ]);
        const state = ruled?.after ?? new Map(overlayDraft(form, changes, values).map((v) => [v.fieldId, v]));
        const uploaded = new Set(files.map((a) => a.definitionId));
        const problems = [...completenessProblems(ctx.model, form, state, ruled?.decision), ...attachmentProblems(form, uploaded)];
        if (problems.length > 0) throw new ApiError('FORM_INCOMPLETE', `Form ${form.name} is not complete.`, { fields: problems });
        // Only the draft's own changes are written: a field it did not change keeps the project's value, and another
        // form's unsubmitted change of it stays a change.
        const onForm = new Set(form.fields.map((f) => f.fieldId));
        const by = { updatedAt: now, updatedBy: caller.user.id };
        const hidden = ruled?.decision.hidden ?? new Set<string>();
        const calculated = ruled?.decision.calculated ?? new Map<string, string | null>();
        const written = changes.filter((v) => onForm.has(v.fieldId) && !hidden.has(v.fieldId) && !calculated.has(v.fieldId)).map((v) => ({ ...v, ...by }));
        // A hidden field's value is not submitted: the submission clears it (its draft change goes with it).
        for (const fieldId of hidden) if (ruled?.after.get(fieldId)) written.push({ fieldId, value: null, values: null, ...by });
        // Calculated values are computed again from what is submitted, whatever the draft held.
        for (const [fieldId, value] of calculated) written.push({ fieldId, value, values: null, ...by });
        await tx.projects.upsertValues(project.id, form.id, withTableCells(ctx.model, written));
        await tx.projects.insertSubmission({ id: ids.next(), projectId: project.id, formId: form.id, at: now, by: caller.user.id });
        const number = project.number ?? formatProjectNumber(ctx.program, await tx.projects.takeProjectNumber(ctx.program.id));
        const moves = form.leadsToStatusId !== null && form.leadsToStatusId !== project.statusId;
        const statusId = moves ? form.leadsToStatusId! : project.statusId;
        const statusAt = moves ? now : project.statusAt;
        if (moves) await tx.projects.insertHistory({ id: ids.next(), projectId: project.id, statusId, changedAt: now, changedBy: caller.user.id, reportAs: 'normal' });
        return {
          changes: { number, statusId, statusAt },
          detail: { formId: form.id, number, fromStatus: project.statusId, toStatus: statusId, fields: written.map((v) => v.fieldId) },
          result: (updated) => ({ ...projectHeader(this.#deps, ctx.model, updated), projectNumber: number }),
        };
      },
    });
  }
}
