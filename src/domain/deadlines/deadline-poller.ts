import type { Clock } from '../../model/clock.ts';
import type { IdGenerator } from '../../model/ids.ts';
import type { Program } from '../../model/model.ts';
import type { Store } from '../../store/store.ts';
import type { Caller } from '../caller.ts';
import type { BackgroundTask, WorkLog } from '../events/background-work.ts';
import { changeProject } from '../projects/change-project.ts';
import type { ProgramContext } from '../projects/project-context.ts';
import type { ReactingDeps } from '../projects/change-reaction.ts';
import { roleIn } from '../roles/access.ts';

/** How often running deadlines are checked (ms): a deadline fires within this of its due time (well within a minute). */
export const DEADLINE_POLL_MS = 15_000;

/** Due deadlines fired per round; a full round runs again at once. */
export const DEADLINE_BATCH = 50;

/** The user id the service's own changes are stamped and audited with (no account has it: ids are generated). */
export const SYSTEM_USER_ID = 'system';

/** What firing deadlines needs; each firing is a change of its project, with the change step's reactions. */
export interface DeadlinePollerDeps extends ReactingDeps { store: Store; clock: Clock; ids: IdGenerator; log?: WorkLog }

/** The service itself acting on a program: an agency admin of the program's agency, so its role there is admin. */
export function systemCaller(program: Program): Caller {
  return {
    user: { id: SYSTEM_USER_ID, agencyId: program.agencyId, email: 'apas', name: 'apas', agencyAdmin: true, disabled: false },
    apiKeyId: SYSTEM_USER_ID, grants: [],
  };
}

/**
 * Fires the running deadlines whose due time has come, each in its own project change (changeProject: project
 * locked, one transaction, audit row `project.deadline.pass`, event deadline.passed). Inside the change the row is
 * read again: a deadline another instance fired, or staff ended, a moment ago is left alone, so each fires exactly
 * once; a change that dies before its commit leaves the row running for the next round. Returns how many it found.
 */
export async function fireDueDeadlines(deps: DeadlinePollerDeps, limit = DEADLINE_BATCH): Promise<number> {
  const due = await deps.store.deadlines.findDueDeadlines(deps.clock.now(), limit);
  const contexts = new Map<string, ProgramContext | null>();
  for (const d of due) {
    if (!contexts.has(d.programId)) contexts.set(d.programId, await systemContext(deps.store, d.programId));
    const ctx = contexts.get(d.programId);
    if (!ctx) continue;
    try {
      await changeProject(deps, systemCaller(ctx.program), ctx, d.projectId, {
        action: 'project.deadline.pass', access: 'read',
        act: async ({ tx, project, now }) => {
          const row = (await tx.deadlines.listProjectDeadlines(project.id)).find((x) => x.id === d.id);
          if (!row || row.state !== 'running' || row.dueAt > now) return { changed: false, result: () => false };
          await tx.deadlines.endProjectDeadline(row.id, 'passed', now, null);
          const def = (ctx.program.deadlines ?? []).find((x) => x.customId === row.deadlineId);
          return {
            detail: { deadlineId: row.deadlineId, dueAt: row.dueAt, dueDate: row.dueDate, shownToApplicant: def?.shownToApplicant ?? true },
            result: () => true,
          };
        },
      });
    } catch (error) {
      // One project's failure (a lock timeout, a database hiccup) must not hold up the others; the row stays running.
      deps.log?.warn({ err: error, projectId: d.projectId, deadlineId: d.deadlineId }, 'firing a deadline failed; trying again next round');
    }
  }
  return due.length;
}

/** A program as the service itself acts on it (its role there is admin); null when the program is gone. */
export async function systemContext(store: Pick<Store, 'programs'>, programId: string): Promise<ProgramContext | null> {
  const program = await store.programs.findProgram(programId);
  if (!program) return null;
  const role = roleIn(systemCaller(program), program);
  if (!role) return null;
  return { program, model: await store.programs.loadProgramModel(program), role };
}

/** The background task that fires due deadlines every DEADLINE_POLL_MS (or `intervalMs`). */
export function deadlineTask(deps: DeadlinePollerDeps, intervalMs = DEADLINE_POLL_MS): BackgroundTask {
  return { what: 'deadline poller', intervalMs, run: async () => (await fireDueDeadlines(deps)) === DEADLINE_BATCH };
}
