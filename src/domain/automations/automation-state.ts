import type { CelInput } from '@bufbuild/cel';
import type { Automation } from '../../model/automation.ts';
import type { FieldValue, Project } from '../../model/model.ts';
import type { StoreReader, StoreWriter } from '../../store/store.ts';
import type { Caller } from '../caller.ts';
import type { ProgramContext } from '../projects/project-context.ts';
import type { FollowUpRecord, ProjectChanges, ReactionDeps } from '../projects/change-reaction.ts';
import type { Role } from '../roles/access.ts';
import type { CompiledRule } from '../rules/compile-rule.ts';
import { bindingsOf, ruleContextOf, type RuleContext } from '../rules/form-rules.ts';
import { programRules } from '../rules/program-rules.ts';
import { relatedFacts } from '../rules/related-state.ts';
import { daysBetween, localDateOf } from '../calendar/local-date.ts';
import { DEFAULT_CALENDAR } from '../calendar/working-days.ts';

/**
 * The access groups a project is in as the transaction sees it: the access groups' own rules (groupsOfProject,
 * src/domain/access-groups), given where the reactions are composed, since that capability reads this one's snapshot.
 */
export type GroupsOf = (tx: StoreWriter, ctx: ProgramContext, project: Project, now: number) => Promise<string[]>;

/** What one automation's run works with: the transaction, the project as the change and earlier actions left it, and where its results go. */
export interface AutomationEnv {
  tx: StoreWriter; deps: ReactionDeps; caller: Caller; ctx: ProgramContext; now: number;
  /** The project as it stands within the change (its row is written once, after every automation ran). */
  state: { project: Project };
  automation: Automation;
  /** The compiled value of each setField action, by its position in `then`. */
  compiled: ReadonlyMap<number, CompiledRule>;
  records: FollowUpRecord[]; role: Role; changes: ProjectChanges;
  /** The project's access groups again after an earlier action moved it (its `accessGroups` are as the change left them). */
  groupsOf: GroupsOf;
}

/** The project's values and the rules' view of it as they stand in the transaction, with the variables of a rule over them. */
export interface Snapshot { values: Map<string, FieldValue>; ruleContext: RuleContext; bindings: Record<string, CelInput> }

/**
 * Reads what a condition or value sees, in the transaction: the project's submitted values (as the change and earlier
 * actions left them), its submitted forms, active files and envelopes; `role` is the triggering user's role. `reads`:
 * the `project` members the rule reads, when known (the envelopes are read only for `project.signed`).
 */
export async function snapshot(
  env: Pick<AutomationEnv, 'ctx' | 'state' | 'now'> & { tx: Pick<StoreReader, 'projects' | 'attachments' | 'envelopes' | 'relations' | 'programs'> }, reads?: ReadonlySet<string>,
): Promise<Snapshot> {
  const { tx, ctx, state } = env;
  const rules = programRules(ctx.model);
  const [stored, submissions, files, envelopes, related] = await Promise.all([
    tx.projects.getValues(state.project.id, ctx.model.fields.map((f) => f.id)),
    tx.projects.getSubmissions(state.project.id),
    tx.attachments.listActiveAttachments(state.project.id),
    reads === undefined || reads.has('signed') ? tx.envelopes.listProjectEnvelopes(state.project.id) : Promise.resolve([]),
    (ctx.program.relations ?? []).length > 0 ? relatedFacts(tx, ctx.model, state.project) : Promise.resolve(undefined),
  ]);
  const values = new Map(stored.map((v) => [v.fieldId, v]));
  const ruleContext = { ...ruleContextOf(ctx.model, state.project, ctx.role.name, submissions.map((s) => s.formId), files, envelopes), ...(related ? { related } : {}) };
  const bindings = bindingsOf(ctx.model, rules, values, ruleContext);
  const project = bindings.project as Map<string, CelInput>;
  const days = projectDays(ctx, state.project, env.now);
  project.set('ageDays', BigInt(days.ageDays)).set('daysInStatus', BigInt(days.daysInStatus));
  return { values, ruleContext, bindings };
}

/** The project's age and time in its status, in whole days of the program's calendar (`project.ageDays`, `project.daysInStatus`). */
export function projectDays(ctx: Pick<ProgramContext, 'program'>, project: Pick<Project, 'createdAt' | 'statusAt'>, now: number): { ageDays: number; daysInStatus: number } {
  const zone = (ctx.program.calendar ?? DEFAULT_CALENDAR).timeZone;
  const today = localDateOf(now, zone);
  return { ageDays: daysBetween(localDateOf(project.createdAt, zone), today), daysInStatus: daysBetween(localDateOf(project.statusAt, zone), today) };
}
