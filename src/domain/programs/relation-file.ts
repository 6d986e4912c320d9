import type { ProgramRelationKind } from '../../model/model.ts';

// The program file's `relations:` as it is read (program-relations.ts plans, exports and compares it).

/** A relation as a program file writes it, every default filled in: `copy` pairs the new project's field with one of this program's (both references). */
export interface RelationSpec { customId: string; name: string; kind: ProgramRelationKind; program: string; copy: { to: string; from: string }[] }

/** The raw `relations:` items the schema accepted. */
export interface RawRelation { customId: string; name?: string; kind: ProgramRelationKind; program: string; copy?: Record<string, string> }

/** The file's relations with the name defaulted and `copy` as pairs in file order, so that a stored copy compares equal. */
export function normaliseRelations(raw: RawRelation[] | undefined): RelationSpec[] {
  return (raw ?? []).map((r) => ({
    customId: r.customId, name: r.name ?? r.customId, kind: r.kind, program: r.program,
    copy: Object.entries(r.copy ?? {}).map(([to, from]) => ({ to, from })),
  }));
}
