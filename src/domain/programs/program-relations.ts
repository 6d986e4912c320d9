import type { Program, ProgramRelation } from '../../model/model.ts';
import type { StoreReader } from '../../store/store.ts';
import type { ProgramFile } from './program-file.ts';
import type { RelatedField, ResolvedProgram } from './program-parts.ts';
import type { RelationSpec } from './relation-file.ts';

// The program file's `relations:` as programs reads, plans, exports and compares it, like documents; the checks
// (unique customIds, this program's fields) are the relations capability's checker (src/domain/relations/relation-check.ts),
// which gives the field indexes it resolved under the part `relations`.

/** The relations to store: this program's fields (`from`) as ids, the new project's fields kept as references (its program changes apart). */
export function planRelations(resolved: ResolvedProgram, fieldIds: string[]): ProgramRelation[] {
  const fields = (resolved.parts.relations as number[][] | undefined) ?? [];
  return (resolved.file.relations ?? []).map((r, i) => ({ ...r, copy: r.copy.map((c, j) => ({ to: c.to, from: fieldIds[fields[i]![j]!]! })) }));
}

/** The stored relations as the file writes them, field ids as references. */
export function relationSpecsOf(program: Program, refOf: (fieldId: string) => string): RelationSpec[] {
  return (program.relations ?? []).map((r) => ({ ...r, copy: r.copy.map((c) => ({ to: c.to, from: refOf(c.from) })) }));
}

/** A relation as written by hand: the name only when it differs from the customId, `copy` as a map. */
export function compactRelation(r: RelationSpec): Record<string, unknown> {
  return {
    customId: r.customId, ...(r.name === r.customId ? {} : { name: r.name }), kind: r.kind, program: r.program,
    ...(r.copy.length > 0 ? { copy: Object.fromEntries(r.copy.map((c) => [c.to, c.from])) } : {}),
  };
}

/**
 * Per relation of the file: the fields of the program it names, as the agency holds it now (this file's own fields for
 * one naming this program; null when the agency has no such program), so that the import type-checks the rules that
 * read a related project's values. Nothing is read for a file without relations or an unknown agency.
 */
export async function relatedFieldsOf(
  reader: Pick<StoreReader, 'accounts' | 'programs'>, agencyRef: string, file: ProgramFile,
): Promise<Map<string, readonly RelatedField[] | null>> {
  const out = new Map<string, readonly RelatedField[] | null>();
  const relations = file.relations ?? [];
  const agency = relations.length > 0 ? await reader.accounts.findAgency(agencyRef) : null;
  if (!agency) return out;
  const programs = await reader.programs.listPrograms(agency.id);
  for (const r of relations) {
    if (r.program === file.customId) {
      out.set(r.customId, file.fields);
      continue;
    }
    const program = programs.find((p) => p.customId === r.program);
    out.set(r.customId, program ? (await reader.programs.loadProgramModel(program)).fields : null);
  }
  return out;
}
