import type { Automation } from '../../model/automation.ts';
import type { ProgramModel, Project } from '../../model/model.ts';
import type { StoreReader, StoreWriter } from '../../store/store.ts';
import type { Caller } from '../caller.ts';
import type { ProgramContext } from '../projects/project-context.ts';
import { statusById } from '../projects/project-context.ts';
import type { ChangeReaction, FollowUps, ReactionDeps } from '../projects/change-reaction.ts';
import { isStaff, roleNamed, type Role } from '../roles/access.ts';
import { compileRule, type CompiledRule } from '../rules/compile-rule.ts';
import { AUTOMATION_PROJECT_TYPE, ruleVariables } from '../rules/rule-scope.ts';
import { fieldType, T } from '../rules/rule-types.ts';
import { runAction, type ActionOutcome } from './automation-actions.ts';
import { type GroupsOf, snapshot } from './automation-state.ts';
import { describeTrigger, matchesTrigger, type Trigger, triggersOfChange } from './triggers-of-change.ts';

/** How many links a chain of automations may have: a trigger of an automation's action of depth 3 runs nothing more. */
export const MAX_CHAIN_DEPTH = 3;

/**
 * The program's automations as a reaction of the change step: they follow each change inside its transaction.
 * `groupsOf`: the access groups' rules, by which an `assign` after a move checks the groups the move gives the project.
 */
export function automationsReaction(groupsOf: GroupsOf): ChangeReaction {
  return {
    name: 'automations',
    follow: (s) => runAutomations(s.tx, s.deps, s.caller, s.ctx, s.project, s.now, s.action, s.detail, groupsOf),
  };
}

/** The compiled conditions and values of a program version's automations, by automation customId. */
interface Compiled { if: CompiledRule | null; values: Map<number, CompiledRule> }

const compiledByModel = new WeakMap<ProgramModel, Map<string, Compiled>>();

function compiledOf(model: ProgramModel, a: Automation): Compiled {
  let all = compiledByModel.get(model);
  if (!all) compiledByModel.set(model, (all = new Map()));
  let c = all.get(a.customId);
  if (!c) {
    const vars = ruleVariables(model.fields, AUTOMATION_PROJECT_TYPE, model.lists, model.program.relations ?? []);
    const compile = (source: string, want: Parameters<typeof compileRule>[2]) => {
      const result = compileRule(source, vars, want, { stored: true });
      // The import checked each expression with this compiler: a failure means a damaged definition.
      if ('problems' in result) throw new Error(`automation ${a.customId}: "${source}" does not compile: ${result.problems[0]!.message}`);
      return result.rule;
    };
    const values = new Map<number, CompiledRule>();
    a.actions.forEach((x, k) => {
      if (x.do !== 'setField') return;
      const field = model.fields.find((f) => f.id === x.fieldId);
      if (field) values.set(k, compile(x.value, fieldType(field)));
    });
    c = { if: a.if === null ? null : compile(a.if, T.bool), values };
    all.set(a.customId, c);
  }
  return c;
}

/**
 * True when an automation's condition holds for a project as `reader` sees it (an automation without one always
 * holds): how the daily schedule picks its projects, before and again inside each project's change.
 */
export async function conditionHolds(reader: Pick<StoreReader, 'projects' | 'attachments' | 'envelopes' | 'relations' | 'programs'>, ctx: ProgramContext, a: Automation, project: Project, now: number): Promise<boolean> {
  const compiled = compiledOf(ctx.model, a);
  if (compiled.if === null) return true;
  return compiled.if.evaluate((await snapshot({ tx: reader, ctx: { ...ctx, role: automationRole(ctx) }, state: { project }, now }, compiled.if.projectMembers)).bindings) === true;
}

/** The role an automation's own changes are recorded with: they are the program's, made as its staff would. */
function automationRole(ctx: ProgramContext): Role {
  return roleNamed(ctx.program, 'admin')!;
}

/**
 * Runs the program's automations that a change triggers, inside the change's transaction and after its own writes
 * (docs/programs.md, "Automations"). Triggers are taken in order (those of the change, then those of each action), and
 * for each, the automations that wait for it in file order: the condition is evaluated on the state in the
 * transaction, then the actions run one by one. An action that cannot run is skipped and recorded, and the rest of its
 * automation with it; the person's change is never refused for it. Each run, including one skipped for its condition
 * or the chain's depth, is recorded (audit action `automation.run`).
 */
export async function runAutomations(
  tx: StoreWriter, deps: ReactionDeps, caller: Caller, ctx: ProgramContext, project: Project, now: number,
  action: string, detail: Record<string, unknown>, groupsOf: GroupsOf,
): Promise<FollowUps> {
  const automations = ctx.program.automations ?? [];
  const result: FollowUps = { changes: {}, records: [] };
  if (automations.length === 0) return result;
  const queue: { trigger: Trigger; depth: number }[] = triggersOfChange(action, detail, isStaff(ctx.role)).map((trigger) => ({ trigger, depth: 1 }));
  const state = { project: { ...project } };
  const role = automationRole(ctx);
  const refOf = refsOf(ctx.model);
  let seq = 0;
  while (queue.length > 0) {
    const { trigger, depth } = queue.shift()!;
    for (const a of automations) {
      if (!matchesTrigger(a.when, trigger, a.customId)) continue;
      // `seq` orders the runs of one change: its audit rows share one time, and ids need not grow.
      const run: Record<string, unknown> = { seq: ++seq, automation: a.customId, name: a.name, trigger: describeTrigger(trigger, refOf), depth };
      const record = (outcome: string, extra: Record<string, unknown> = {}) => result.records.push({ action: 'automation.run', detail: { ...run, outcome, ...extra }, role });
      if (depth > MAX_CHAIN_DEPTH) {
        record('skipped', { reason: `the chain of automations is deeper than ${MAX_CHAIN_DEPTH}` });
        continue;
      }
      const compiled = compiledOf(ctx.model, a);
      const env = { tx, deps, caller, ctx, now, state, automation: a, compiled: compiled.values, records: result.records, role, changes: result.changes, groupsOf };
      if (compiled.if !== null) {
        const value = compiled.if.evaluate((await snapshot(env, compiled.if.projectMembers)).bindings);
        if (value !== true) {
          record('skipped', { reason: value === false ? 'the condition is not met' : 'the condition cannot be decided (it reads an empty field or fails)' });
          continue;
        }
      }
      const actions: Record<string, unknown>[] = [];
      let stopped: string | null = null;
      for (const [k, x] of a.actions.entries()) {
        if (stopped !== null) {
          actions.push({ do: x.do, outcome: 'skipped', reason: `an earlier action could not run (${stopped})` });
          continue;
        }
        const outcome: ActionOutcome = await runAction(env, x, k);
        if (outcome.ran) {
          actions.push({ do: x.do, outcome: 'ran', ...outcome.summary });
          for (const t of outcome.triggers) queue.push({ trigger: t, depth: depth + 1 });
        } else {
          actions.push({ do: x.do, outcome: 'skipped', reason: outcome.reason });
          stopped = x.do;
        }
      }
      record(stopped === null ? 'ran' : 'partly ran', { actions });
    }
  }
  return result;
}

/** How records name a program's parts: statuses, fields, forms and attachments by customId (else name). */
function refsOf(model: ProgramModel): (id: string) => string {
  const refs = new Map<string, string>();
  for (const part of [...model.statuses, ...model.fields, ...model.forms, ...model.forms.flatMap((f) => f.attachments)]) refs.set(part.id, part.customId ?? part.name);
  return (id) => refs.get(id) ?? (model.retired.statuses.some((s) => s.id === id) ? statusById(model, id).name : id);
}
