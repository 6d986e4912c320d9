import type { IdGenerator } from '../../model/ids.ts';
import type { Project } from '../../model/model.ts';
import type { StoreWriter } from '../../store/store.ts';
import type { Caller } from '../caller.ts';
import type { Role } from '../roles/access.ts';
import type { ProgramContext } from './project-context.ts';

/**
 * The project fields a change may set besides its stamp (updatedAt, updatedBy) and version, which the step sets;
 * `accessGroups` only as the access groups' follow-up tells later follow-ups (it writes the membership itself).
 */
export type ProjectChanges = Partial<Pick<Project, 'number' | 'statusId' | 'statusAt' | 'ownerId' | 'assigneeId' | 'accessGroups'>>;

/**
 * What one audit row of a project says besides who did it: the action, the project, the details and when; and the
 * project's owner after the change, whom its events' notifications go to.
 */
export interface ChangeRecord { action: string; projectId: string; ownerId: string; detail: Record<string, unknown>; at: number }

/**
 * What a reaction is given besides the change: new ids and the public address (for links in mails and notes); the
 * change step also passes its reactions, for a follow-up that creates a project of its own (a related project).
 */
export interface ReactionDeps { ids: IdGenerator; publicUrl?: string; reactions?: readonly ChangeReaction[] }

/** A change as its follow-ups see it: after its own writes and before its stamp, `project` with its changes merged. */
export interface FollowStep {
  tx: StoreWriter; deps: ReactionDeps; caller: Caller; ctx: ProgramContext; project: Project; now: number;
  action: string; detail: Record<string, unknown>;
  /** What the follow-ups before this one recorded (the automations' changes, for the access groups after them). */
  earlier?: readonly FollowUpRecord[];
}

/** A change a follow-up made, audited (and reacted to) as the change's own are, with the role it acted in. */
export interface FollowUpRecord { action: string; detail: Record<string, unknown>; role: Role }

/** What follow-ups did: project fields to merge into the change's one stamp and version bump, and what to record. */
export interface FollowUps { changes: ProjectChanges; records: FollowUpRecord[] }

/**
 * Something that reacts to every change of a project inside the change's transaction, so that it commits or rolls
 * back with it. The change step iterates the list it is given (composed at start-up, src/domain/wiring) and names none
 * of them. Slow or outside work (mail, webhooks) is not a reaction: it runs after the commit, from the outbox that the
 * events reaction writes.
 */
export interface ChangeReaction {
  /** What reacts, for the docs and for a fault's message. */
  readonly name: string;
  /** Runs after the change's own writes and before its stamp; what it changes joins the stamp (automations). */
  follow?(step: FollowStep): Promise<FollowUps>;
  /** Runs for every audit row of the change (its own, then its follow-ups'), after the row (read models, events). */
  recorded?(tx: StoreWriter, deps: ReactionDeps, caller: Caller, ctx: ProgramContext, record: ChangeRecord): Promise<void> | void;
}

/** What a service that changes projects is given besides its repositories: the reactions, in the order they run. */
export interface ReactingDeps { reactions: readonly ChangeReaction[] }

/** Runs every follow-up of a change in list order, each seeing the project as the ones before it left it. */
export async function followUps(reactions: readonly ChangeReaction[], step: FollowStep): Promise<FollowUps> {
  const result: FollowUps = { changes: {}, records: [] };
  for (const r of reactions) {
    if (!r.follow) continue;
    const done = await r.follow({ ...step, project: { ...step.project, ...result.changes }, earlier: result.records });
    Object.assign(result.changes, done.changes);
    result.records.push(...done.records);
  }
  return result;
}
