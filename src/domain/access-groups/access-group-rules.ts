import type { AccessGroup, FieldValue, ProgramModel, Project } from '../../model/model.ts';
import type { StoreReader } from '../../store/store.ts';
import { snapshot } from '../automations/automation-state.ts';
import type { ProgramContext } from '../projects/project-context.ts';
import { roleNamed } from '../roles/access.ts';
import { compileRule, type CompiledRule, type CompileOptions } from '../rules/compile-rule.ts';
import { bindingsOf, ruleContextOf } from '../rules/form-rules.ts';
import { programRules } from '../rules/program-rules.ts';
import { ruleShapes, ruleVariables, type ScopeField } from '../rules/rule-scope.ts';
import { T, type RuleType } from '../rules/rule-types.ts';

/**
 * The variables an access group's condition may read: the fields and `project` as a form's rules see them, but not
 * `role` (who changed the project must not move it between groups) and not its age in days (which would change while
 * nobody acts, leaving the kept membership stale).
 */
export function groupVariables(fields: ScopeField[]): Map<string, RuleType> {
  const vars = ruleVariables(fields);
  vars.delete('role');
  return vars;
}

/** Compiles one group's condition (a bool over groupVariables), or gives its problems; cost-bounded like every rule. */
export function compileGroupCondition(source: string, fields: ScopeField[], opts: CompileOptions = {}): ReturnType<typeof compileRule> {
  return compileRule(source, groupVariables(fields), T.bool, { shapes: ruleShapes(fields), ...opts });
}

const compiledByModel = new WeakMap<ProgramModel, Map<string, CompiledRule>>();

// The compiled conditions of a program version, once per definition (the store caches the model while it stands).
function compiledOf(model: ProgramModel, groups: readonly AccessGroup[]): { group: AccessGroup; rule: CompiledRule }[] {
  let byId = compiledByModel.get(model);
  if (!byId) compiledByModel.set(model, (byId = new Map()));
  return groups.map((group) => {
    const key = `${group.customId}\u0000${group.if}`;
    let rule = byId.get(key);
    if (!rule) {
      const result = compileGroupCondition(group.if, model.fields, { stored: true });
      // The import checked the condition with this compiler: a failure means a damaged definition.
      if ('problems' in result) throw new Error(`access group ${group.customId}: "${group.if}" does not compile: ${result.problems[0]!.message}`);
      byId.set(key, (rule = result.rule));
    }
    return { group, rule };
  });
}

// The project members a page of projects gives without a read per project.
const ROW_MEMBERS = new Set(['status', 'number']);

/**
 * The access groups of each of a page of projects (as groupsOfProject gives them): when the conditions read only
 * fields that are not sensitive (their stored values are sealed) and the project's status and number, the page's
 * values are read in one statement and every condition runs over them; otherwise each project is read as the change
 * step reads it. What a recount of a program's membership runs, page by page.
 */
export async function groupsOfProjects(reader: Pick<StoreReader, 'projects' | 'attachments' | 'envelopes' | 'programs' | 'relations'>, ctx: Pick<ProgramContext, 'program' | 'model'>, projects: Project[], now: number): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  const groups = ctx.program.accessGroups ?? [];
  if (groups.length === 0) {
    for (const p of projects) out.set(p.id, []);
    return out;
  }
  const compiled = compiledOf(ctx.model, groups);
  const names = new Set(compiled.flatMap((c) => [...c.rule.names]));
  const read = ctx.model.fields.filter((f) => f.customId !== null && names.has(f.customId));
  const batched = compiled.every((c) => [...c.rule.projectMembers].every((m) => ROW_MEMBERS.has(m))) && read.every((f) => !f.sensitive);
  if (!batched) {
    for (const p of projects) out.set(p.id, await groupsOfProject(reader, ctx, p, now));
    return out;
  }
  const rows = await reader.projects.valuesOfProjects(projects.map((p) => p.id), read.map((f) => f.id));
  const byProject = new Map<string, Map<string, FieldValue>>();
  for (const r of rows) {
    let values = byProject.get(r.projectId);
    if (!values) byProject.set(r.projectId, (values = new Map()));
    values.set(r.fieldId, { fieldId: r.fieldId, value: r.value, values: r.values, updatedAt: 0, updatedBy: '' });
  }
  const rules = programRules(ctx.model);
  for (const p of projects) {
    const bindings = bindingsOf(ctx.model, rules, byProject.get(p.id) ?? new Map(), ruleContextOf(ctx.model, p, 'admin', [], [], []));
    out.set(p.id, holding(compiled, bindings));
  }
  return out;
}

// The customIds of the groups whose condition is true over the bindings (one that fails as it runs: not a member).
function holding(compiled: { group: AccessGroup; rule: CompiledRule }[], bindings: Parameters<CompiledRule['evaluate']>[0]): string[] {
  return compiled.filter((c) => {
    try {
      return c.rule.evaluate(bindings) === true;
    } catch {
      return false;
    }
  }).map((c) => c.group.customId);
}

/**
 * The access groups (customIds, in the file's order) the project is in as `reader` sees it: those whose condition is
 * true. A condition that cannot be decided (an empty field) or that fails as it runs (its cost limit on these values)
 * leaves the project out of that group: limited grants then do not see it, unlimited ones always do.
 */
export async function groupsOfProject(reader: Pick<StoreReader, 'projects' | 'attachments' | 'envelopes' | 'programs' | 'relations'>, ctx: Pick<ProgramContext, 'program' | 'model'>, project: Project, now: number): Promise<string[]> {
  const groups = ctx.program.accessGroups ?? [];
  if (groups.length === 0) return [];
  const compiled = compiledOf(ctx.model, groups);
  const reads = new Set(compiled.flatMap((c) => [...c.rule.projectMembers]));
  const role = roleNamed(ctx.program, 'admin')!;
  const { bindings } = await snapshot({ tx: reader, ctx: { ...ctx, role }, state: { project }, now }, reads);
  return holding(compiled, bindings);
}
