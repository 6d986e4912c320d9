import { type ProgramModel, type Project, readsOnly } from '../../model/model.ts';
import type { StoreReader } from '../../store/store.ts';
import { statusById } from '../projects/project-context.ts';

/** What a rule sees of one related project: its status (customId, else name) and number. */
export interface RelatedFacts { status: string; number: string }

/**
 * The related project each of the program's relations names for a project's rules (`related.<customId>`): for a
 * relation that creates projects, the newest project this one made by it; for `parent` and `predecessor`, the newest
 * project of the relation's program that this one was made from as its child or successor. A relation with none is
 * left out (the rules then see an empty status and number).
 */
export async function relatedFacts(reader: Pick<StoreReader, 'relations' | 'programs' | 'projects'>, model: ProgramModel, project: Project): Promise<Map<string, RelatedFacts>> {
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
    const status = statusById(await reader.programs.loadProgramModel(program), other.statusId);
    out.set(r.customId, { status: status.customId ?? status.name, number: other.number ?? '' });
  }
  return out;
}
