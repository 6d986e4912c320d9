import type { Program, ProgramRole } from '../model/model.ts';
import { isStaff, roleIn } from './access.ts';
import type { Caller } from './caller.ts';
import { statusById } from './project-context.ts';
import type { ServiceDeps } from './service-deps.ts';

/** One of the caller's programs on the home page, with the caller's role in it. */
export interface PortalProgramView { programId: string; name: string; role: ProgramRole; staff: boolean; canStart: boolean }

/** One project of the caller on the home page. */
export interface PortalProjectView {
  programId: string; programName: string; projectId: string; projectNumber: string | null; status: string; statusAt: number; lastChange: number;
}

/** The home page of the web application: the agency, the caller's programs, and the projects the caller owns. */
export interface PortalHomeView { agencyName: string; programs: PortalProgramView[]; myProjects: PortalProjectView[] }

/** The most of their own projects the home page lists per program (newest first). */
export const HOME_PROJECTS_PER_PROGRAM = 200;

/** What the web application's home page shows, decided for the caller. */
export class PortalService {
  readonly #deps: ServiceDeps<'accounts' | 'programs' | 'projects'>;
  constructor(deps: ServiceDeps<'accounts' | 'programs' | 'projects'>) {
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
          status: statusById(model, p.statusId).name, statusAt: p.statusAt, lastChange: p.updatedAt,
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
}
