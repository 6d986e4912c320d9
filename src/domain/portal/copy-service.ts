import type { FieldValue, Form } from '../../model/model.ts';
import { ApiError } from '../api-error.ts';
import type { Caller } from '../caller.ts';
import { canCreate, mayUseForm } from '../roles/access.ts';
import { currentDraft } from '../projects/current-draft.ts';
import { findForm, loadProgram, loadReadableProject, type ProgramContext } from '../projects/project-context.ts';
import type { ProjectService } from '../projects/project-service.ts';
import { hasRules } from '../rules/form-rules.ts';
import { calculatedWrites, ruledState } from '../rules/rule-state.ts';
import type { ServiceDeps } from '../service-deps.ts';
import type { AtVersion, NewProjectView } from '../views.ts';
import { isTestProgram } from '../test-program.ts';

/** A form an earlier project can be copied from, for the copy page's checkboxes. */
export interface CopyFormView { formId: string; name: string; fields: number }

/** The copy page's content: the project copied from and its forms that can be copied. */
export interface CopySourceView {
  programId: string; projectId: string; projectNumber: string | null; forms: CopyFormView[];
  /** The program is a test copy: the page shows the test banner. */
  testProgram: boolean;
}

// The fields of a form a copy carries: not calculated ones (the rules compute them again), not sensitive ones (an
// account number belongs to one customer: it is typed again), and not tables' files (files are never copied).
function copiedFields(ctx: ProgramContext, form: Form): Set<string> {
  const fields = new Map(ctx.model.fields.map((f) => [f.id, f]));
  return new Set(form.fields.map((x) => fields.get(x.fieldId)).filter((f) => f !== undefined && !f.sensitive && !f.formula).map((f) => f!.id));
}

/**
 * Copy an application: a new draft prefilled from forms of an earlier project the caller may read. Only the chosen
 * forms' data (as it stands: draft changes over submitted values) is copied, as the new project's draft of each form;
 * never its files, number, questions, status or history. The copy is created by CreateNewProject's own path (one
 * transaction, automations, the audit row, which names the project copied from and the forms).
 */
export class CopyService {
  readonly #deps: ServiceDeps<'programs' | 'projects'>;
  readonly #projects: ProjectService;
  constructor(deps: ServiceDeps<'programs' | 'projects'>, projects: ProjectService) {
    this.#deps = deps;
    this.#projects = projects;
  }

  /** The forms of a readable project the caller may copy into a new application. */
  async source(caller: Caller, programRef: string, projectId: string): Promise<CopySourceView> {
    const ctx = await this.#creator(caller, programRef);
    const project = await loadReadableProject(this.#deps.store, caller, ctx, projectId);
    return {
      programId: ctx.program.id, projectId: project.id, projectNumber: project.number, testProgram: isTestProgram(ctx.program),
      forms: this.#forms(ctx).map((f) => ({ formId: f.id, name: f.name, fields: copiedFields(ctx, f).size })),
    };
  }

  /** Creates the copy: a new draft of the caller's with the chosen forms' data of the project copied from. */
  async copy(caller: Caller, programRef: string, projectId: string, formRefs: string[]): Promise<AtVersion<NewProjectView>> {
    const ctx = await this.#creator(caller, programRef);
    const source = await loadReadableProject(this.#deps.store, caller, ctx, projectId);
    if (formRefs.length === 0) throw new ApiError('INVALID_REQUEST', 'Choose at least one form to copy.');
    const copyable = this.#forms(ctx);
    const forms = [...new Map(formRefs.map((ref) => findForm(ctx.model, ref)).map((f) => [f.id, f])).values()];
    for (const form of forms) {
      if (!copyable.includes(form)) throw new ApiError('FORBIDDEN', `Form ${form.name} is not for your role (${ctx.role.name}) in this program.`);
    }
    const drafts: { form: Form; values: FieldValue[] }[] = [];
    for (const form of forms) {
      const keep = copiedFields(ctx, form);
      drafts.push({ form, values: (await currentDraft(this.#deps.store, source.id, form)).filter((v) => keep.has(v.fieldId)) });
    }
    // A copy of an organization's project stays with the organization while the caller is one of its members.
    const organizationId = source.organizationId != null && (caller.organizationIds ?? []).includes(source.organizationId) ? source.organizationId : null;
    return this.#projects.createProject(caller, ctx.program.id, {
      organizationId,
      seed: async (tx, project, now) => {
        for (const { form, values } of drafts) {
          if (values.length === 0) continue;
          const copied = values.map((v) => ({ ...v, updatedAt: now, updatedBy: caller.user.id }));
          // Calculated fields are not copied but computed over the copied values, as a save of the draft computes them.
          const calculated = hasRules(ctx.model) ? calculatedWrites(await ruledState(tx, ctx.model, ctx.role.name, project, form, 'draft', copied), now, caller.user.id) : [];
          await tx.projects.upsertDraft(project.id, form.id, [...copied, ...calculated]);
        }
        return { copiedFrom: source.id, forms: drafts.map((d) => d.form.id) };
      },
    });
  }

  async #creator(caller: Caller, programRef: string): Promise<ProgramContext> {
    const ctx = await loadProgram(this.#deps, caller, programRef);
    if (!canCreate(ctx.role)) throw new ApiError('FORBIDDEN', `You may read but not create projects in program ${ctx.program.id} (privilege createProjects).`);
    return ctx;
  }

  // The forms the caller may fill in (an applicant's own; staff-only forms are not theirs to carry over).
  #forms(ctx: ProgramContext): Form[] {
    return [...ctx.model.forms].sort((a, b) => a.position - b.position).filter((f) => mayUseForm(ctx.role, f));
  }
}
