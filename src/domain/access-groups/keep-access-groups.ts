import type { IdGenerator } from '../../model/ids.ts';
import type { Program, ProgramGrant, Project, User } from '../../model/model.ts';
import type { StoreWriter } from '../../store/store.ts';
import type { Caller } from '../caller.ts';
import { systemCaller, SYSTEM_USER_ID } from '../deadlines/deadline-poller.ts';
import { recordChange } from '../projects/change-project.ts';
import type { ChangeReaction, FollowStep, FollowUpRecord, FollowUps } from '../projects/change-reaction.ts';
import type { ProgramContext } from '../projects/project-context.ts';
import { roleNamed } from '../roles/access.ts';
import { userReaches } from '../roles/user-reaches.ts';
import { groupsOfProject, groupsOfProjects } from './access-group-rules.ts';

/** How many projects a recount reads and writes at a time. */
export const REGROUP_PAGE = 500;

/**
 * The project's access groups kept as a reaction of the change step, in the change's own transaction, so a list never
 * filters by a stale membership: first as a follow-up after the change's own writes (so that the automations after
 * it, mail to a role's members among them, see the project's groups as the change leaves them), again as a follow-up
 * after the automations (accessGroupsAfterAutomations), then after every audit row. Each evaluates the conditions on
 * the project as the transaction sees it and writes the membership when it moved.
 */
export const accessGroupsReaction: ChangeReaction = {
  name: 'access groups',
  follow: keepFollowing,
  recorded: async (tx, _deps, _caller, ctx, record) => {
    if ((ctx.program.accessGroups ?? []).length === 0) return;
    await keepProjectGroups(tx, ctx, record.projectId, record.at);
  },
};

/**
 * The access groups once more after the automations (listed after them in src/domain/wiring/change-reactions.ts): an
 * automation that moves the project's status or sets a value may take it out of its assignee's groups after the first
 * follow-up ran, so the membership is written again and the assignee cleared as there, in the same change (one
 * version; the clearing recorded after the automations' rows). Only when an automation changed something (its records
 * name it): a change that started none costs nothing more.
 */
export const accessGroupsAfterAutomations: ChangeReaction = {
  name: 'access groups after automations',
  follow: async (s) => ((s.earlier ?? []).some(automationsChange) ? keepFollowing(s) : { changes: {}, records: [] }),
};

// An automation's own change of the project: its records name the automation; the record of each run does not count.
function automationsChange(r: FollowUpRecord): boolean {
  return r.action !== 'automation.run' && typeof r.detail.automation === 'string';
}

// The follow-up's work: the groups of the project as the change has left it so far, written when they moved, and the
// assignee cleared when the move took it out of their reach.
async function keepFollowing(s: FollowStep): Promise<FollowUps> {
  if ((s.ctx.program.accessGroups ?? []).length === 0) return { changes: {}, records: [] };
  const groups = await groupsOfProject(s.tx, s.ctx, s.project, s.now);
  const moved = await s.tx.projects.setProjectAccessGroups(s.ctx.program.id, s.project.id, groups, s.project.accessGroups ?? []);
  const unassigned = moved ? await unassignUnreached(s, groups) : null;
  return unassigned ?? { changes: { accessGroups: groups }, records: [] };
}

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
  return { changes: { accessGroups: groups, assigneeId: null }, records: [{ ...clearing(assigneeId), role }] };
}

/**
 * Why the access groups cleared an assignee: the project moved out of their groups (`accessGroups`), their grant was
 * narrowed or removed (`grant`), or they were disabled (`disabled`).
 */
export type ClearingReason = 'accessGroups' | 'grant' | 'disabled';

/** The audit row of a clearing for the access groups: SetAssignee's action and detail, with its reason. */
function clearing(assigneeId: string, reason: ClearingReason = 'accessGroups'): Pick<FollowUpRecord, 'action' | 'detail'> {
  return { action: 'project.assignee.set', detail: { from: assigneeId, to: null, reason } };
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
 * What a recount needs to clear assignees as the change step would: new ids, the change step's reactions (the audit
 * row's event, counts and queue columns), and who imports (null: the operator at the command line) in which request.
 */
export interface RegroupDeps { ids: IdGenerator; reactions: readonly ChangeReaction[]; actorId: string | null; requestId: string | null }

/**
 * Recounts the membership of every project of a program, in the import's transaction (so no reader sees the new
 * conditions with the old membership): REGROUP_PAGE projects at a time in id order, their values read for the page at
 * once where the conditions allow it (groupsOfProjects), and those that moved written for the page at once
 * (setPageAccessGroups). Its cost is linear in the
 * program's projects and each evaluation is bounded by the rules' cost limit. A project that moved is noted for the
 * dashboards' counts of its groups, and one that moved out of its assignee's reach is unassigned with the page
 * (unassignPage). Gives how many projects moved.
 */
export async function regroupProgram(tx: StoreWriter, programId: string, now: number, deps: RegroupDeps): Promise<number> {
  const program = await tx.programs.findProgram(programId);
  if (!program) return 0;
  const ctx = { program, model: await tx.programs.loadProgramModel(program), role: roleNamed(program, 'admin')! };
  const reaches = reachOf(tx, program);
  let moved = 0;
  let after: string | null = null;
  for (;;) {
    const page = await tx.projects.projectGroupsPage(programId, after, REGROUP_PAGE);
    const groups = await groupsOfProjects(tx, ctx, page, now);
    const left: Project[] = [];
    // The page's moved memberships in a few statements (not three per project: round trips on PostgreSQL).
    const written = new Set(await tx.projects.setPageAccessGroups(programId, page.map((p) => ({ projectId: p.id, groups: groups.get(p.id) ?? [], before: p.accessGroups ?? [] }))));
    for (const project of page) {
      if (!written.has(project.id)) continue;
      moved++;
      // Its dashboard counts move to its new set of groups (counted for the grants limited to them) before the commit.
      tx.dashboards.touch(project.id);
      if (project.assigneeId !== null && !(await reaches(project.assigneeId, groups.get(project.id) ?? []))) left.push(project);
    }
    await unassignPage(tx, deps, ctx, left, now);
    if (page.length < REGROUP_PAGE) return moved;
    after = page.at(-1)!.id;
  }
}

/**
 * Clears the assignee of each of a page's projects that the recount moved out of their assignee's reach (or that a
 * grant change left them unable to read, `reason` grant), as the change step's follow-up does: in one statement per
 * assignee for the page (each project a version of its own, stamped at the import's time by who imports; one that
 * someone assigned meanwhile to another is left alone), then per project its audit row (with `reason`) and
 * event, written by recordChange with the change step's reactions. Gives how many it cleared.
 */
export async function unassignPage(tx: StoreWriter, deps: RegroupDeps, ctx: ProgramContext, left: Project[], now: number, reason: ClearingReason = 'accessGroups'): Promise<number> {
  if (left.length === 0) return 0;
  // The service acting for who imports: their id on the rows (the system's for the operator), the program's admin role.
  const system = systemCaller(ctx.program);
  const caller: Caller = { ...system, user: { ...system.user, id: deps.actorId ?? SYSTEM_USER_ID }, ...(deps.requestId === null ? {} : { requestId: deps.requestId }) };
  // The recount has just written the membership: only the other reactions follow the audit row.
  const recording = { ids: deps.ids, reactions: deps.reactions.filter((r) => r !== accessGroupsReaction) };
  const byAssignee = new Map<string, string[]>();
  for (const p of left) {
    const ids = byAssignee.get(p.assigneeId!);
    if (ids) ids.push(p.id);
    else byAssignee.set(p.assigneeId!, [p.id]);
  }
  let count = 0;
  for (const [assigneeId, projectIds] of byAssignee) {
    const cleared = await tx.projects.clearAssignee(ctx.program.id, assigneeId, projectIds, now, caller.user.id);
    for (const project of cleared) {
      await recordChange(tx, recording, caller, ctx, { ...clearing(assigneeId, reason), projectId: project.id, ownerId: project.ownerId, at: now });
    }
    count += cleared.length;
  }
  return count;
}

/** Whether a user reaches a project in these groups; their user and grant read once per recount (staff are few). */
type Reaches = (userId: string, groups: string[]) => Promise<boolean>;

function reachOf(tx: StoreWriter, program: Program): Reaches {
  const users = new Map<string, Promise<User | null>>();
  const grants = new Map<string, Promise<ProgramGrant | null>>();
  const accounts = {
    findGrant: (userId: string, programId: string) => {
      let grant = grants.get(userId);
      if (!grant) grants.set(userId, (grant = tx.accounts.findGrant(userId, programId)));
      return grant;
    },
  };
  return async (userId, groups) => {
    let user = users.get(userId);
    if (!user) users.set(userId, (user = tx.accounts.findUserById(userId)));
    const found = await user;
    // As the follow-up: a user who is gone is nobody to unassign.
    return !found || userReaches(accounts, found, program, { accessGroups: groups });
  };
}
