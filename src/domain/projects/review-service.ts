import { pageHistory, requiresReason } from '../workflow/status-reasons.ts';
import type { PageHistoryLine } from '../views.ts';
import { assignableStaff, reachesProject } from './assignable-staff.ts';
import { canChangeOwner, hasPrivilege, isStaff, mayMove, mayReadForm, type Role, roleLabel } from '../roles/access.ts';
import { ApiError } from '../api-error.ts';
import type { Caller } from '../caller.ts';
import { INQUIRY_MOVES, type InquiryStatus } from '../../model/inquiry.ts';
import type { ApprovalStatus, DataField, FieldValue, Project, ProgramModel, ProgramRole, StatusReason } from '../../model/model.ts';
import { overlayDraft } from './current-draft.ts';
import { loadProgram, loadReadableProject, type ProgramContext, statusById } from './project-context.ts';
import type { ServiceDeps } from '../service-deps.ts';
import { shownValue } from './shown-value.ts';
import { isTestProgram } from '../test-program.ts';

/**
 * What the caller may do on the review page: what the role's privileges allow, by the same rules the services
 * enforce (they refuse anyway). Reviewing files, moving the workflow (along the transitions the role may make),
 * inquiries (with internal notes), assigning, handing over and the export each take their privilege.
 */
export interface ReviewPermissions {
  reviewAttachments: boolean; setStatus: boolean; assign: boolean; setOwner: boolean; inquiries: boolean; export: boolean;
}

/** The permissions of a role on a project, as the services decide them. */
export function reviewPermissions(caller: Caller, role: Role, project: Project): ReviewPermissions {
  const may = (p: Parameters<typeof hasPrivilege>[1]) => hasPrivilege(role, p);
  return {
    reviewAttachments: may('reviewAttachments'), setStatus: may('moveStatus'), assign: may('assign'), setOwner: canChangeOwner(caller, role, project),
    inquiries: may('inquiries'), export: may('export'),
  };
}

/** One field of a form: its submitted value and its value in the form's draft as it stands, each masked when sensitive; `differs` when the draft changes it. */
export interface ReviewFieldView { fieldId: string; name: string; submitted: string | null; draft: string | null; differs: boolean }

/** The active file of an attachment definition and its review. */
export interface ReviewAttachmentView {
  attachmentId: string; name: string; formName: string; fileName: string; version: number; size: number; contentType: string;
  uploadedBy: string; uploadedAt: number; approvalStatus: ApprovalStatus; note: string | null; reviewedBy: string | null; reviewedAt: number | null;
}

/** An inquiry thread with the notes the caller may read. */
export interface ReviewThreadView {
  threadId: string; subject: string; status: InquiryStatus; externalId: string | null;
  /** The statuses the thread may move to (for those who may manage inquiries). */
  moves: InquiryStatus[];
  notes: { author: string; at: number; visibleToApplicant: boolean; text: string }[];
}

/** Everything the staff review page of a project shows. */
export interface ReviewView {
  agencyName: string; programId: string; programName: string; role: ProgramRole;
  /** The program is a test copy (src/domain/programs/test-program.ts): every page of it shows the test banner. */
  testProgram: boolean;
  projectId: string; number: string | null; status: string; statusAt: number; createdAt: number; lastChange: number;
  owner: { name: string; email: string }; assignee: { name: string; email: string } | null;
  forms: { formId: string; name: string; submittedAt: number | null; fields: ReviewFieldView[] }[];
  attachments: ReviewAttachmentView[];
  /**
   * The statuses the workflow allows next from the current one and the caller's role may move to (offered only to those
   * who may set the status), with the reasons a move into each may give and whether it must.
   */
  nextStatuses: { statusId: string; name: string; reasons: StatusReason[]; reasonRequired: boolean }[];
  /** True when the workflow allows no move from the current status at all. */
  finalStatus: boolean;
  threads: ReviewThreadView[];
  /** What the program's automations did on the project, newest first (audit action automation.run; src/domain/automations). */
  automations: { at: number; automation: string; trigger: string; outcome: string; details: string }[];
  history: PageHistoryLine[];
  may: ReviewPermissions;
  /** The staff the assignee field suggests (for those who may assign): those whose grant reaches this project. */
  assignees: { email: string; name: string }[];
}

/** How many staff members the review page's assignee field suggests at most. */
export const REVIEW_ASSIGNEE_CHOICES = 500;

// As people read it (choices by label, Yes/No, sensitive values masked), several values joined; null for none.
function shown(model: ProgramModel, field: DataField, v: FieldValue | undefined): string | null {
  if (!v || (v.value === null && v.values === null)) return null;
  return (v.values ?? [v.value ?? '']).map((t) => shownValue(model, field, t)).join('; ');
}

/** One run of an automation as the review page lists it: what ran, what was skipped and why. */
function automationRun(at: number, d: Record<string, unknown>): ReviewView['automations'][number] {
  const actions = Array.isArray(d.actions) ? d.actions as { do?: string; outcome?: string; reason?: string }[] : [];
  const details = typeof d.reason === 'string' ? d.reason
    : actions.map((a) => `${a.do ?? '?'}: ${a.outcome === 'ran' ? 'done' : `skipped (${a.reason ?? ''})`}`).join('; ');
  return { at, automation: String(d.name ?? d.automation ?? ''), trigger: `${String(d.trigger ?? '')}${Number(d.depth) > 1 ? ` (chain link ${String(d.depth)})` : ''}`, outcome: String(d.outcome ?? ''), details };
}

/** The staff review page of one project, assembled from the same rules the API follows. */
export class ReviewService {
  readonly #deps: ServiceDeps<'programs' | 'projects' | 'accounts' | 'attachments' | 'inquiries' | 'audit'>;
  constructor(deps: ServiceDeps<'programs' | 'projects' | 'accounts' | 'attachments' | 'inquiries' | 'audit'>) {
    this.#deps = deps;
  }

  /**
   * The review page of a project for staff of its program; applicants are refused (their page is the landing page).
   * Sensitive values are always masked here. Non-admins see the notes the applicant sees; admins every note.
   */
  async review(caller: Caller, programRef: string, projectId: string): Promise<ReviewView> {
    const { store } = this.#deps;
    const ctx = await loadProgram(this.#deps, caller, programRef);
    if (!isStaff(ctx.role)) throw new ApiError('FORBIDDEN', `The review page of program ${ctx.program.id} is for its staff; applicants follow their projects on the project page.`);
    const project = await loadReadableProject(store, caller, ctx, projectId);
    const may = reviewPermissions(caller, ctx.role, project);
    const [values, history, files, threads, notes, agency, runs, staff] = await Promise.all([
      store.projects.getAllValues(project.id), store.projects.getHistory(project.id), store.attachments.listActiveAttachments(project.id),
      store.inquiries.listThreads(project.id), may.inquiries ? Promise.resolve(null) : store.inquiries.listVisibleNotes(project.id),
      store.accounts.findAgency(caller.user.agencyId),
      store.audit.list({ projectId: project.id, action: 'automation.run', limit: 50 }),
      may.assign ? assignableStaff(store.accounts, ctx.program, REVIEW_ASSIGNEE_CHOICES) : Promise.resolve([]),
    ]);
    const allNotes = notes ?? (await Promise.all(threads.map((t) => store.inquiries.listNotes(t.id)))).flat();
    const forms = await this.#forms(ctx, project, values);
    const users = await store.accounts.usersByIds([...new Set([
      project.ownerId, ...(project.assigneeId ? [project.assigneeId] : []), ...history.map((h) => h.changedBy),
      ...files.flatMap((f) => (f.reviewedBy ? [f.uploadedBy, f.reviewedBy] : [f.uploadedBy])), ...allNotes.map((n) => n.authorId),
    ])]);
    const user = (id: string) => users.find((u) => u.id === id);
    const nameOf = (id: string) => user(id)?.name ?? id;
    const current = statusById(ctx.model, project.statusId);
    return {
      agencyName: agency?.name ?? '', programId: ctx.program.id, programName: ctx.program.name, testProgram: isTestProgram(ctx.program), role: roleLabel(ctx.program, ctx.role),
      projectId: project.id, number: project.number, status: current.name, statusAt: project.statusAt, createdAt: project.createdAt, lastChange: project.updatedAt,
      owner: { name: nameOf(project.ownerId), email: user(project.ownerId)?.email ?? '' },
      assignee: project.assigneeId ? { name: nameOf(project.assigneeId), email: user(project.assigneeId)?.email ?? '' } : null,
      forms,
      attachments: ctx.model.forms.filter((f) => mayReadForm(ctx.role, f)).flatMap((form) => form.attachments.flatMap((a) => {
        const f = files.find((x) => x.definitionId === a.id);
        return f ? [{
          attachmentId: a.id, name: a.name, formName: form.name, fileName: f.fileName, version: f.version, size: f.sizeBytes, contentType: f.contentType,
          uploadedBy: nameOf(f.uploadedBy), uploadedAt: f.uploadedAt, approvalStatus: f.approvalStatus, note: f.note,
          reviewedBy: f.reviewedBy ? nameOf(f.reviewedBy) : null, reviewedAt: f.reviewedAt,
        }] : [];
      })),
      nextStatuses: may.setStatus
        ? current.next.flatMap((id) => ctx.model.statuses.filter((s) => s.id === id && mayMove(ctx.role, current, s))
          .map((s) => ({ statusId: s.id, name: s.name, reasons: s.reasons ?? [], reasonRequired: requiresReason(s, current.id) }))) : [],
      finalStatus: current.next.length === 0,
      threads: threads.map((t) => ({
        threadId: t.id, subject: t.subject, status: t.status, externalId: may.inquiries ? t.externalId : null,
        moves: may.inquiries ? [...INQUIRY_MOVES[t.status]] : [],
        notes: allNotes.filter((n) => n.threadId === t.id).map((n) => ({ author: nameOf(n.authorId), at: n.createdAt, visibleToApplicant: n.visibleToApplicant, text: n.text })),
      })).filter((t) => may.inquiries || t.notes.length > 0),
      automations: runs.sort((a, b) => b.at - a.at || Number(b.detail?.seq) - Number(a.detail?.seq)).map((r) => automationRun(r.at, r.detail ?? {})),
      history: pageHistory(ctx.model, history, nameOf),
      may,
      // Staff limited to access groups this project is not in cannot be assigned it (SetAssignee refuses), so are not offered.
      assignees: staff.filter((s) => !s.user.disabled && reachesProject(s, project)).map(({ user: u }) => ({ email: u.email, name: u.name })),
    };
  }

  async #forms(ctx: ProgramContext, project: Project, values: (FieldValue & { formId: string })[]): Promise<ReviewView['forms']> {
    const { store } = this.#deps;
    const submissions = await store.projects.getSubmissions(project.id);
    const forms = ctx.model.forms.filter((f) => mayReadForm(ctx.role, f));
    // Each form's draft as it stands: its own changes over the project's values (see currentDraft), so a field
    // that no draft changed is never reported as changed.
    const drafts = await Promise.all(forms.map(async (f) => overlayDraft(f, await store.projects.getDraft(project.id, f.id), values)));
    return forms.map((form, i) => ({
      formId: form.id, name: form.name,
      submittedAt: submissions.filter((s) => s.formId === form.id).reduce<number | null>((a, s) => (a === null || s.submittedAt < a ? s.submittedAt : a), null),
      fields: form.fields.map((placed) => {
        const field = ctx.model.fields.find((f) => f.id === placed.fieldId)!;
        const submitted = shown(ctx.model, field, values.find((v) => v.fieldId === field.id));
        const draft = shown(ctx.model, field, drafts[i]!.find((v) => v.fieldId === field.id));
        return { fieldId: field.id, name: field.name, submitted, draft, differs: draft !== null && draft !== submitted };
      }),
    }));
  }
}
