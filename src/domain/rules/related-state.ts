import type { CelInput } from '@bufbuild/cel';
import { type ProgramModel, type Project, readsOnly } from '../../model/model.ts';
import type { StoreReader } from '../../store/store.ts';
import { statusById } from '../projects/project-context.ts';
import { fieldInput } from './form-rules.ts';
import { readableFields } from './rule-scope.ts';

/**
 * What a rule sees of one related project: its status (customId, else name) and number; and, for field rules, its
 * submitted values by field customId (`values`: none when the project is not this one's owner's).
 */
export interface RelatedFacts { status: string; number: string; values?: ReadonlyMap<string, CelInput> }

/**
 * The related project each of the program's relations names for a project's rules (`related.<customId>`): for a
 * relation that creates projects, the newest project this one made by it; for `parent` and `predecessor`, the newest
 * project of the relation's program that this one was made from as its child or successor. A relation with none is
 * left out (the rules then see an empty status and number). `values`: also read its submitted values (field rules).
 */
export async function relatedFacts(
  reader: Pick<StoreReader, 'relations' | 'programs' | 'projects'>, model: ProgramModel, project: Project, opts: { values?: boolean } = {},
): Promise<Map<string, RelatedFacts>> {
  const out = new Map<string, RelatedFacts>();
  const declared = model.program.relations ?? [];
  if (declared.length === 0) return out;
  const rows = (await reader.relations.listProjectRelations(project.id)).reverse();
  for (const r of declared) {
    let found: { programId: string; projectId: string } | undefined;
    if (readsOnly(r.kind)) {
      const made = r.kind === 'parent' ? 'child' : 'successor';
      for (const row of rows.filter((x) => x.toProjectId === project.id && x.kind === made)) {
        const program = await reader.programs.findProgram(row.fromProgramId, model.program.agencyId);
        if (program?.customId === r.program) {
          found = { programId: row.fromProgramId, projectId: row.fromProjectId };
          break;
        }
      }
    } else {
      const row = rows.find((x) => x.fromProjectId === project.id && x.relation === r.customId);
      if (row) found = { programId: row.toProgramId, projectId: row.toProjectId };
    }
    if (!found) continue;
    const program = await reader.programs.findProgram(found.programId, model.program.agencyId);
    const other = program ? await reader.projects.getProject(program.id, found.projectId) : null;
    if (!program || !other) continue;
    const otherModel = await reader.programs.loadProgramModel(program);
    const status = statusById(otherModel, other.statusId);
    const facts: RelatedFacts = { status: status.customId ?? status.name, number: other.number ?? '' };
    out.set(r.customId, opts.values && other.ownerId === project.ownerId ? { ...facts, values: await valuesOf(reader, otherModel, other) } : facts);
  }
  return out;
}

/**
 * A related project's submitted values of its readable fields (not sensitive) by customId. Only for a project of the
 * same owner: what a rule decides shows to this project's applicant, who may read the other project only when it is
 * theirs (docs/programs.md, "Related projects").
 */
async function valuesOf(reader: Pick<StoreReader, 'projects'>, model: ProgramModel, project: Project): Promise<Map<string, CelInput>> {
  const fields = readableFields(model.fields);
  const stored = new Map((await reader.projects.getValues(project.id, fields.map((f) => f.id))).map((v) => [v.fieldId, v]));
  const out = new Map<string, CelInput>();
  for (const f of fields) {
    const v = stored.get(f.id);
    const input = v ? fieldInput(f, v) : undefined;
    if (input !== undefined) out.set(f.customId, input);
  }
  return out;
}
