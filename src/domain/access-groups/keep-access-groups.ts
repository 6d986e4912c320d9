import type { Program } from '../../model/model.ts';
import type { StoreWriter } from '../../store/store.ts';
import type { ChangeReaction, FollowStep, FollowUps } from '../projects/change-reaction.ts';
import type { ProgramContext } from '../projects/project-context.ts';
import { roleNamed } from '../roles/access.ts';
import { userReaches } from '../roles/user-reaches.ts';
import { groupsOfProject, groupsOfProjects } from './access-group-rules.ts';

/** How many projects a recount reads and writes at a time. */
export const REGROUP_PAGE = 500;

/**
 * The project's access groups kept as a reaction of the change step, in the change's own transaction, so a list never
 * filters by a stale membership: first as a follow-up after the change's own writes (so that the automations after
 * it, mail to a role's members among them, see the project's groups as the change leaves them), then after every
 * audit row (an automation's move may change them again). Each evaluates the conditions on the project as the
 * transaction sees it and writes the membership when it moved.
 */
export const accessGroupsReaction: ChangeReaction = {
  name: 'access groups',
  follow: async (s) => {
    if ((s.ctx.program.accessGroups ?? []).length === 0) return { changes: {}, records: [] };
    const groups = await groupsOfProject(s.tx, s.ctx, s.project, s.now);
    const moved = await s.tx.projects.setProjectAccessGroups(s.ctx.program.id, s.project.id, groups, s.project.accessGroups ?? []);
    const unassigned = moved ? await unassignUnreached(s, groups) : null;
    return unassigned ?? { changes: { accessGroups: groups }, records: [] };
  },
  recorded: async (tx, _deps, _caller, ctx, record) => {
    if ((ctx.program.accessGroups ?? []).length === 0) return;
    await keepProjectGroups(tx, ctx, record.projectId, record.at);
  },
};

/**
 * A project that left the groups its assignee's grant is limited to is unassigned in the same change: nobody is left
 * holding a project they can no longer open, and it waits in the unassigned queue for someone who can. Recorded as
 * SetAssignee's clearing is (`project.assignee.set`, to null, and its project.assignee_changed event), made as the
 * program's (the role automations act in) with `reason: 'accessGroups'`; the automations after this see it unassigned.
 * Null when the project has no assignee or they still reach it (unlimited, an agency admin, or in one of its groups).
 */
async function unassignUnreached(s: FollowStep, groups: string[]): Promise<FollowUps | null> {
  const assigneeId = s.project.assigneeId;
  if (assigneeId === null) return null;
  const assignee = await s.tx.accounts.findUserById(assigneeId);
  if (!assignee || (await userReaches(s.tx.accounts, assignee, s.ctx.program, { accessGroups: groups }))) return null;
  const role = roleNamed(s.ctx.program, 'admin')!;
  return {
    changes: { accessGroups: groups, assigneeId: null },
    records: [{ action: 'project.assignee.set', detail: { from: assigneeId, to: null, reason: 'accessGroups' }, role }],
  };
}

/** Evaluates a project's groups and writes them when they moved; nothing for a project that is gone (a removed draft). */
export async function keepProjectGroups(tx: StoreWriter, ctx: Pick<ProgramContext, 'program' | 'model'>, projectId: string, now: number): Promise<void> {
  const project = await tx.projects.getProject(ctx.program.id, projectId);
  if (!project) return;
  const groups = await groupsOfProject(tx, ctx, project, now);
  await tx.projects.setProjectAccessGroups(ctx.program.id, project.id, groups, project.accessGroups ?? []);
}

/** True when an import changes what decides membership: a group added, removed, or its condition changed. */
export function groupsChanged(before: Pick<Program, 'accessGroups'> | null, after: Pick<Program, 'accessGroups'>): boolean {
  const key = (p: Pick<Program, 'accessGroups'> | null) => JSON.stringify((p?.accessGroups ?? []).map((g) => [g.customId, g.if]));
  return key(before) !== key(after);
}

/**
 * Recounts the membership of every project of a program, in the import's transaction (so no reader sees the new
 * conditions with the old membership): REGROUP_PAGE projects at a time in id order, their values read for the page at
 * once where the conditions allow it (groupsOfProjects), and written only when it moved. Its cost is linear in the
 * program's projects and each evaluation is bounded by the rules' cost limit. A project that moved is noted for the
 * dashboards' counts of its groups. Gives how many projects moved.
 */
export async function regroupProgram(tx: StoreWriter, programId: string, now: number): Promise<number> {
  const program = await tx.programs.findProgram(programId);
  if (!program) return 0;
  const ctx = { program, model: await tx.programs.loadProgramModel(program) };
  let moved = 0;
  let after: string | null = null;
  for (;;) {
    const page = await tx.projects.projectGroupsPage(programId, after, REGROUP_PAGE);
    const groups = await groupsOfProjects(tx, ctx, page, now);
    for (const project of page) {
      if (!(await tx.projects.setProjectAccessGroups(programId, project.id, groups.get(project.id) ?? [], project.accessGroups ?? []))) continue;
      moved++;
      // Its dashboard counts move to its new set of groups (counted for the grants limited to them) before the commit.
      tx.dashboards.touch(project.id);
    }
    if (page.length < REGROUP_PAGE) return moved;
    after = page.at(-1)!.id;
  }
}
