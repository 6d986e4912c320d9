import type { Form, ProgramModel, Project } from '../../model/model.ts';
import type { StoreReader } from '../../store/store.ts';
import type { Role } from '../roles/access.ts';
import { draftComplete, formWaiting } from '../projects/application-service.ts';
import { overlayDraft } from '../projects/current-draft.ts';
import { ruleContextOf } from '../rules/form-rules.ts';

/** A project of the applicant, with its program's model and the applicant's role there. */
export interface OwnedProject { model: ProgramModel; role: Role; project: Project }

function group<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const item of items) {
    const list = map.get(key(item));
    if (list) list.push(item);
    else map.set(key(item), [item]);
  }
  return map;
}

/**
 * What waits for the applicant on each project (by project id), for people: the forms open to them now ("to complete"
 * or "ready to submit") and the agency's questions awaiting their answer. The reads do not grow with the number of
 * projects: one each for the open forms' drafts, values and active files, and the waiting questions, for all at once.
 */
export async function waitingForApplicant(store: Pick<StoreReader, 'projects' | 'attachments' | 'inquiries'>, owned: OwnedProject[]): Promise<Map<string, string[]>> {
  const withForms = owned.map((o) => ({ ...o, open: o.model.forms.filter((f): f is Form => formWaiting(o.role, f, o.project)) }));
  const withOpen = withForms.filter((o) => o.open.length > 0).map((o) => o.project.id);
  const openFormIds = [...new Set(withForms.flatMap((o) => o.open.map((f) => f.id)))];
  const openFieldIds = [...new Set(withForms.flatMap((o) => o.open.flatMap((f) => f.fields.map((x) => x.fieldId))))];
  const [files, drafts, values, awaiting] = owned.length === 0 ? [[], [], [], []] : await Promise.all([
    withOpen.length > 0 ? store.attachments.activeAttachmentsOfProjects(withOpen) : [],
    withOpen.length > 0 ? store.projects.draftsOfProjects(withOpen, openFormIds) : [],
    withOpen.length > 0 ? store.projects.valuesOfProjects(withOpen, openFieldIds) : [],
    // A thread shows on the project page only with a note the applicant may see, so only such threads wait for them.
    store.inquiries.threadsWithVisibleNote(owned.map((o) => o.project.id), 'AwaitingResponse'),
  ]);
  const filesOf = group(files, (f) => f.projectId);
  const draftOf = group(drafts, (d) => `${d.projectId} ${d.formId}`);
  const valuesOf = group(values, (v) => v.projectId);
  const questionsOf = group(awaiting, (t) => t.projectId);
  const out = new Map<string, string[]>();
  for (const { model, project: p, open } of withForms) {
    const waiting = open.map((form) => {
      // The draft as it stands: the form's changes over the project's values (see currentDraft).
      const submitted = (valuesOf.get(p.id) ?? []).map((v) => ({ fieldId: v.fieldId, value: v.value, values: v.values, updatedAt: 0, updatedBy: '' }));
      const draft = overlayDraft(form, (draftOf.get(`${p.id} ${form.id}`) ?? []).map((d) => d.value), submitted);
      // A label, not a gate: the project's submissions and envelopes are not read for it (SubmitProject decides for real).
      const ctx = ruleContextOf(model, p, 'applicant', [], filesOf.get(p.id) ?? [], []);
      return draftComplete(model, form, draft, filesOf.get(p.id) ?? [], { ctx, others: submitted }) ? `${form.name}: ready to submit` : `${form.name}: to complete`;
    });
    for (const t of questionsOf.get(p.id) ?? []) waiting.push(`Question to answer: ${t.subject}`);
    out.set(p.id, waiting);
  }
  return out;
}
