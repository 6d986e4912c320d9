import type { Program, ProgramModel, ProgramRole, Project } from '../model/model.ts';
import { isStaff, roleIn } from './access.ts';
import { draftComplete, formWaiting } from './application-service.ts';
import type { Caller } from './caller.ts';
import { statusById } from './project-context.ts';
import type { ServiceDeps } from './service-deps.ts';

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

  /** The caller's programs (where they have a role) and, in those where they apply, the projects they own. */
  async home(caller: Caller): Promise<PortalHomeView> {
    const { store } = this.#deps;
    const agency = await store.accounts.findAgency(caller.user.agencyId);
    const programs: { program: Program; role: ProgramRole }[] = [];
    for (const program of await store.programs.listPrograms(caller.user.agencyId)) {
      const role = roleIn(caller, program);
      if (role) programs.push({ program, role });
    }
    const myProjects: PortalProjectView[] = [];
    for (const { program } of programs.filter((p) => p.role === 'applicant')) {
      const model = await store.programs.loadProgramModel(program);
      const rows = await store.projects.listProjects({ programId: program.id, ownerId: caller.user.id, limit: HOME_PROJECTS_PER_PROGRAM, offset: 0 });
      for (const p of rows) {
        myProjects.push({
          programId: program.id, programName: program.name, projectId: p.id, projectNumber: p.number,
          status: statusById(model, p.statusId).name, statusAt: p.statusAt, lastChange: p.updatedAt, waiting: await this.#waiting(model, p),
        });
      }
    }
    myProjects.sort((a, b) => b.lastChange - a.lastChange);
    return {
      agencyName: agency?.name ?? '',
      programs: programs.map(({ program, role }) => ({ programId: program.id, name: program.name, role, staff: isStaff(role), canStart: role === 'applicant' })),
      myProjects,
    };
  }

  /** The applicant's to-do on one of their projects: open forms (complete or not) and threads awaiting their answer. */
  async #waiting(model: ProgramModel, project: Project): Promise<string[]> {
    const { store } = this.#deps;
    const out: string[] = [];
    const open = model.forms.filter((f) => formWaiting('applicant', f, project));
    const files = open.length > 0 ? await store.attachments.listActiveAttachments(project.id) : [];
    for (const form of open) {
      const draft = await store.projects.getDraft(project.id, form.id);
      out.push(draftComplete(model, form, draft, files) ? `${form.name}: ready to submit` : `${form.name}: to complete`);
    }
    // A thread shows on the project page only with a note the applicant may see, so only such threads wait for them.
    const awaiting = (await store.inquiries.listThreads(project.id)).filter((t) => t.status === 'AwaitingResponse');
    if (awaiting.length > 0) {
      const visible = new Set((await store.inquiries.listVisibleNotes(project.id)).map((n) => n.threadId));
      for (const t of awaiting.filter((x) => visible.has(x.id))) out.push(`Question to answer: ${t.subject}`);
    }
    return out;
  }
}
