import type { Program, ProgramModel, ProgramRole, Project } from '../../model/model.ts';
import { canCreate, holdsRoleAnywhere, isStaff, ownerFilter, type Role, roleIn, roleLabel } from '../roles/access.ts';
import type { Caller } from '../caller.ts';
import { waitingForApplicant } from './waiting-for-applicant.ts';
import { statusById } from '../projects/project-context.ts';
import type { ServiceDeps } from '../service-deps.ts';
import { isTestProgram } from '../test-program.ts';

/** One of the caller's programs on the home page, with the caller's role in it. */
export interface PortalProgramView {
  programId: string; name: string; role: ProgramRole; staff: boolean; canStart: boolean;
  /** A test copy of a program: the home page tags it. */
  testProgram: boolean;
}

/** One project of the caller on the home page. */
export interface PortalProjectView {
  programId: string; programName: string; projectId: string; projectNumber: string | null; status: string; statusAt: number; lastChange: number;
  /** The project is a test program's: the home page tags it. */
  testProgram: boolean;
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
    return holdsRoleAnywhere(caller, () => this.#deps.store.programs.listPrograms(caller.user.agencyId), isStaff);
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
    const owned: { program: Program; model: ProgramModel; role: Role; project: Project }[] = [];
    for (const { program, role } of programs.filter((p) => !isStaff(p.role))) {
      const model = await store.programs.loadProgramModel(program);
      const rows = await store.projects.listProjects({ programId: program.id, owner: ownerFilter(caller, role), limit: HOME_PROJECTS_PER_PROGRAM, offset: 0 });
      for (const project of rows) owned.push({ program, model, role, project });
    }
    const waiting = await waitingForApplicant(store, owned);
    const myProjects: PortalProjectView[] = owned.map(({ program, model, project: p }) => ({
      programId: program.id, programName: program.name, testProgram: isTestProgram(program), projectId: p.id, projectNumber: p.number,
      status: statusById(model, p.statusId).name, statusAt: p.statusAt, lastChange: p.updatedAt, waiting: waiting.get(p.id) ?? [],
    }));
    myProjects.sort((a, b) => b.lastChange - a.lastChange);
    return {
      agencyName: agency?.name ?? '',
      programs: programs.map(({ program, role }) => ({ programId: program.id, name: program.name, role: roleLabel(program, role), staff: isStaff(role), canStart: canCreate(role) && !isStaff(role), testProgram: isTestProgram(program) })),
      myProjects,
    };
  }
}
