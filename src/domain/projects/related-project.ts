import { type FieldValue, type Program, type ProgramModel, type ProgramRelation, type Project, readsOnly } from '../../model/model.ts';
import type { StoreReader, StoreWriter } from '../../store/store.ts';
import type { ProjectRelation } from '../../store/relation-queries.ts';
import { ApiError } from '../api-error.ts';
import type { Caller } from '../caller.ts';
import type { ReactingDeps, ReactionDeps } from './change-reaction.ts';
import type { ProgramContext } from './project-context.ts';
import { createProjectIn } from './project-service.ts';
import { recordChange } from './change-project.ts';
import { checkValue } from './value-check.ts';
import { roleIn, roleNamed, type Role } from '../roles/access.ts';
import { hasRules } from '../rules/form-rules.ts';
import { isTestProgram } from '../test-program.ts';
import { calculatedWrites, ruledState } from '../rules/rule-state.ts';

/** Who creates the related project: a person (who needs createProjects in its program) or the from-program's automation. */
export type RelatedCreator = 'caller' | 'automation';

/** What a related project's creation did: the new project and its relation, and what the from-project's audit row says. */
export interface RelatedCreation { project: Project; relation: ProjectRelation; detail: Record<string, unknown> }

/** The most related projects one transaction creates: a relation's new project may create its own, but not without end. */
export const MAX_RELATED_PER_CHANGE = 10;

// Counted per transaction (a transaction's writer is its own object), so that programs whose automations create
// related projects of each other on creation stop after a few instead of looping until the transaction times out.
const createdIn = new WeakMap<StoreWriter, number>();

/**
 * The program a relation names, in the agency of the program it is made from, or why there is none. A test copy's
 * relations make projects in the test copy of the program they name (its tests send no mail and touch no live
 * project), and a live program's never in a test copy.
 */
export async function relationTarget(tx: Pick<StoreReader, 'programs'>, from: Program, relation: ProgramRelation): Promise<{ program: Program; model: ProgramModel } | string> {
  let program = await tx.programs.findProgram(relation.program, from.agencyId);
  if (!program || program.agencyId !== from.agencyId) return `The program "${relation.program}" of relation ${relation.customId} was not found in the agency.`;
  if (isTestProgram(from) && !isTestProgram(program)) {
    const live = program;
    program = (await tx.programs.listPrograms(from.agencyId)).find((p) => p.testOf === live.id) ?? null;
    if (!program) return `Program ${live.customId} has no test copy: a test copy creates related projects only in test copies.`;
  } else if (!isTestProgram(from) && isTestProgram(program)) {
    return `The program "${relation.program}" of relation ${relation.customId} is a test copy: a live program creates no projects there.`;
  }
  return { program, model: await tx.programs.loadProgramModel(program) };
}

/**
 * Creates the project a program relation describes from `from` (locked by the change step it runs in), in the same
 * transaction: a project of the relation's program in its initial status, owned by `from`'s owner, its drafts prefilled
 * from `from`'s submitted values as `copy` says (values the new field refuses are left out and named), the relation row,
 * and on the new project its creation's audit row and `project.relation.add`. The from-project's own audit row (with the
 * returned detail) is its change step's. ApiError when it cannot be made (the caller's path answers it; an automation skips).
 */
export async function createRelatedIn(
  tx: StoreWriter, deps: ReactionDeps & ReactingDeps, caller: Caller, from: { ctx: ProgramContext; project: Project }, relation: ProgramRelation,
  now: number, creator: RelatedCreator,
): Promise<RelatedCreation> {
  const kind = relation.kind;
  if (readsOnly(kind)) throw new ApiError('INVALID_REQUEST', `Relation ${relation.customId} names the project this one was made from (${kind}); it creates no project.`);
  const count = createdIn.get(tx) ?? 0;
  if (count >= MAX_RELATED_PER_CHANGE) throw new ApiError('CONFLICT', `One change creates at most ${MAX_RELATED_PER_CHANGE} related projects.`);
  const target = await relationTarget(tx, from.ctx.program, relation);
  if (typeof target === 'string') throw new ApiError('NOT_FOUND', target);
  const role = creatorRole(caller, target.program, creator);
  const ownerId = await ownerIn(tx, from.project, target.program);
  const ctx: ProgramContext = { program: target.program, model: target.model, role };
  const notCopied: string[] = [];
  const seed = async (seedTx: StoreWriter, project: Project, at: number) => {
    const copied = await copiedValues(seedTx, from, target.model, relation, at, caller.user.id, notCopied);
    for (const [formId, values] of copied) {
      const form = target.model.forms.find((f) => f.id === formId)!;
      const calculated = hasRules(target.model) ? calculatedWrites(await ruledState(seedTx, target.model, role.name, project, form, 'draft', values), at, caller.user.id) : [];
      await seedTx.projects.upsertDraft(project.id, formId, [...values, ...calculated]);
    }
    return { relatedFrom: from.project.id, relation: relation.customId, ...(notCopied.length > 0 ? { notCopied } : {}) };
  };
  createdIn.set(tx, count + 1);
  const project = await createProjectIn(tx, deps, caller, ctx, { ownerId, organization: null, now, seed });
  const row: ProjectRelation = {
    id: deps.ids.next(), agencyId: from.ctx.program.agencyId, fromProgramId: from.ctx.program.id, fromProjectId: from.project.id,
    toProgramId: target.program.id, toProjectId: project.id, kind, relation: relation.customId, createdAt: now, createdBy: caller.user.id,
  };
  await tx.relations.insertRelation(row);
  await recordChange(tx, deps, caller, ctx, { action: 'project.relation.add', projectId: project.id, ownerId, detail: relationDetail(row, 'to'), at: now });
  return { project, relation: row, detail: { ...relationDetail(row, 'from'), toProgramId: target.program.id, toProjectId: project.id, ...(notCopied.length > 0 ? { notCopied } : {}) } };
}

/** A relation row's audit detail as one of its projects records it (`side`: which end that project is). */
export function relationDetail(r: ProjectRelation, side: 'from' | 'to'): Record<string, unknown> {
  return { relationId: r.id, kind: r.kind, side, ...(r.relation === null ? {} : { relation: r.relation }) };
}

// A person needs createProjects in the new project's program; the automation acts as the program, as its admin.
function creatorRole(caller: Caller, program: Program, creator: RelatedCreator): Role {
  if (creator === 'automation') return roleNamed(program, 'admin')!;
  const role = roleIn(caller, program);
  if (!role?.privileges.has('createProjects')) {
    throw new ApiError('FORBIDDEN', `You may not create projects in program ${program.customId} (privilege createProjects), so you cannot create this related project.`);
  }
  return role;
}

// The new project is the applicant's, as the one it comes from is: its owner must have access to the new project's program.
async function ownerIn(tx: Pick<StoreWriter, 'accounts'>, from: Project, program: Program): Promise<string> {
  const owner = await tx.accounts.findUserById(from.ownerId);
  const grants = owner ? await tx.accounts.listGrants(owner.id) : [];
  if (!owner || owner.disabled || !roleIn({ user: owner, apiKeyId: '', grants }, program)) {
    throw new ApiError('INVALID_REQUEST', `The project's owner has no access to program ${program.customId}; grant them a role there first, then create the related project.`);
  }
  return owner.id;
}

/** The values `copy` carries, by the new program's form whose draft they go to; fields it cannot take are named in `notCopied`. */
async function copiedValues(
  tx: StoreWriter, from: { ctx: ProgramContext; project: Project }, model: ProgramModel, relation: ProgramRelation, now: number, by: string, notCopied: string[],
): Promise<Map<string, FieldValue[]>> {
  const stored = new Map((await tx.projects.getValues(from.project.id, relation.copy.map((c) => c.from))).map((v) => [v.fieldId, v]));
  const out = new Map<string, FieldValue[]>();
  for (const c of relation.copy) {
    const field = model.fields.find((f) => f.customId === c.to) ?? model.fields.find((f) => f.name === c.to);
    const source = stored.get(c.from);
    if (!source || (source.value === null && (source.values ?? []).length === 0)) continue;
    const form = field ? model.forms.find((f) => f.fields.some((p) => p.fieldId === field.id)) : undefined;
    if (!field || !form || field.formula || field.type === 'table') {
      notCopied.push(c.to);
      continue;
    }
    const texts = source.values ?? (source.value === null ? [] : [source.value]);
    const list = model.lists.find((l) => l.id === field.listId);
    if ((!field.multiValue && texts.length > 1) || texts.some((t) => checkValue(field, list, t) !== null)) {
      notCopied.push(c.to);
      continue;
    }
    const value: FieldValue = field.multiValue
      ? { fieldId: field.id, value: null, values: texts, updatedAt: now, updatedBy: by }
      : { fieldId: field.id, value: texts[0] ?? null, values: null, updatedAt: now, updatedBy: by };
    out.set(form.id, [...(out.get(form.id) ?? []), value]);
  }
  return out;
}
