import type { Form, Program, ProgramModel, ProgramRole, Project } from '../../model/model.ts';
import { canCreate, isStaff, ownerFilter, type Role, roleIn, roleLabel, roleNamed } from '../roles/access.ts';
import { draftComplete, formWaiting } from './application-service.ts';
import type { Caller } from '../caller.ts';
import { overlayDraft } from './current-draft.ts';
import { ruleContextOf } from '../rules/form-rules.ts';
import { statusById } from './project-context.ts';
import type { ServiceDeps } from '../service-deps.ts';

/** One of the caller's programs on the home page, with the caller's role in it. */
export interface PortalProgramView { programId: string; name: string; role: ProgramRole; staff: boolean; canStart: boolean }

/** One project of the caller on the home page. */
export interface PortalProjectView {
  programId: string; programName: string; projectId: string; projectNumber: string | null; status: string; statusAt: number; lastChange: number;
  /** What waits for the applicant, for people: forms open to them now, questions from the agency awaiting their answer. */
  waiting: string[];
}

/** The home page of the web application: the agency, the caller's programs, and the projects the caller owns. */
export interface PortalHomeView { agencyName: string; programs: PortalProgramView[]; myProjects: PortalProjectView[] }

/** The most of their own projects the home page lists per program (newest first). */
export const HOME_PROJECTS_PER_PROGRAM = 200;

/** What the web application's home page shows, decided for the caller. */
export class PortalService {
  readonly #deps: ServiceDeps<'accounts' | 'programs' | 'projects' | 'attachments' | 'inquiries'>;
  constructor(deps: ServiceDeps<'accounts' | 'programs' | 'projects' | 'attachments' | 'inquiries'>) {
    this.#deps = deps;
  }

  /** True when the caller is staff (holds readProjects) in some program: the page header then offers work queues. */
  async isStaffAnywhere(caller: Caller): Promise<boolean> {
    if (caller.user.agencyAdmin) return true;
    // A built-in role says by its name alone; only a program's own roles need the program, which defines them.
    if (caller.grants.some((g) => isStaff(roleNamed({}, g.role)))) return true;
    if (caller.grants.every((g) => roleNamed({}, g.role) !== null)) return false;
    const programs = await this.#deps.store.programs.listPrograms(caller.user.agencyId);
    return programs.some((p) => isStaff(roleIn(caller, p)));
  }

  /**
   * The caller's programs (where they have a role) and, in those where they apply, the projects they own. The reads
   * do not grow with the number of projects: per program the model and a page of projects, then one read each for
   * the open forms' drafts, the active files and the questions waiting for the applicant, for all projects at once.
   */
  async home(caller: Caller): Promise<PortalHomeView> {
    const { store } = this.#deps;
    const agency = await store.accounts.findAgency(caller.user.agencyId);
    const programs: { program: Program; role: Role }[] = [];
    for (const program of await store.programs.listPrograms(caller.user.agencyId)) {
      const role = roleIn(caller, program);
      if (role) programs.push({ program, role });
    }
    const owned: { program: Program; model: ProgramModel; project: Project; open: Form[] }[] = [];
    for (const { program, role } of programs.filter((p) => !isStaff(p.role))) {
      const model = await store.programs.loadProgramModel(program);
      const rows = await store.projects.listProjects({ programId: program.id, owner: ownerFilter(caller, role), limit: HOME_PROJECTS_PER_PROGRAM, offset: 0 });
      for (const project of rows) owned.push({ program, model, project, open: model.forms.filter((f) => formWaiting(role, f, project)) });
    }
    const withOpen = owned.filter((o) => o.open.length > 0).map((o) => o.project.id);
    const openFormIds = [...new Set(owned.flatMap((o) => o.open.map((f) => f.id)))];
    const openFieldIds = [...new Set(owned.flatMap((o) => o.open.flatMap((f) => f.fields.map((x) => x.fieldId))))];
    const [files, drafts, values, awaiting] = owned.length === 0 ? [[], [], [], []] : await Promise.all([
      withOpen.length > 0 ? store.attachments.activeAttachmentsOfProjects(withOpen) : [],
      withOpen.length > 0 ? store.projects.draftsOfProjects(withOpen, openFormIds) : [],
      withOpen.length > 0 ? store.projects.valuesOfProjects(withOpen, openFieldIds) : [],
      // A thread shows on the project page only with a note the applicant may see, so only such threads wait for them.
      store.inquiries.threadsWithVisibleNote(owned.map((o) => o.project.id), 'AwaitingResponse'),
    ]);
    const group = <T>(items: T[], key: (item: T) => string) => {
      const map = new Map<string, T[]>();
      for (const item of items) {
        const list = map.get(key(item));
        if (list) list.push(item);
        else map.set(key(item), [item]);
      }
      return map;
    };
    const filesOf = group(files, (f) => f.projectId);
    const draftOf = group(drafts, (d) => `${d.projectId} ${d.formId}`);
    const valuesOf = group(values, (v) => v.projectId);
    const questionsOf = group(awaiting, (t) => t.projectId);
    const myProjects: PortalProjectView[] = owned.map(({ program, model, project: p, open }) => {
      const waiting = open.map((form) => {
        // The draft as it stands: the form's changes over the project's values (see currentDraft).
        const submitted = (valuesOf.get(p.id) ?? []).map((v) => ({ fieldId: v.fieldId, value: v.value, values: v.values, updatedAt: 0, updatedBy: '' }));
        const draft = overlayDraft(form, (draftOf.get(`${p.id} ${form.id}`) ?? []).map((d) => d.value), submitted);
        // A label, not a gate: the project's submissions are not read for it (SubmitProject decides for real).
        const ctx = ruleContextOf(model, p, 'applicant', [], filesOf.get(p.id) ?? []);
        return draftComplete(model, form, draft, filesOf.get(p.id) ?? [], { ctx, others: submitted }) ? `${form.name}: ready to submit` : `${form.name}: to complete`;
      });
      for (const t of questionsOf.get(p.id) ?? []) waiting.push(`Question to answer: ${t.subject}`);
      return {
        programId: program.id, programName: program.name, projectId: p.id, projectNumber: p.number,
        status: statusById(model, p.statusId).name, statusAt: p.statusAt, lastChange: p.updatedAt, waiting,
      };
    });
    myProjects.sort((a, b) => b.lastChange - a.lastChange);
    return {
      agencyName: agency?.name ?? '',
      programs: programs.map(({ program, role }) => ({ programId: program.id, name: program.name, role: roleLabel(program, role), staff: isStaff(role), canStart: canCreate(role) && !isStaff(role) })),
      myProjects,
    };
  }
}
