import type { Kysely, Selectable } from 'kysely';
import type { RelationKind } from '../model/model.ts';
import { bindDb } from './bind-db.ts';
import type { Database, ProjectRelationTable } from './tables.ts';

type Db = Kysely<Database>;

/** A relation from one project to another: the other is the from-project's child, successor or link. */
export interface ProjectRelation {
  id: string; agencyId: string; fromProgramId: string; fromProjectId: string; toProgramId: string; toProjectId: string;
  kind: RelationKind;
  /** The customId of the from-program's relation (`relations:`) it was made by; null for one made by hand. */
  relation: string | null;
  createdAt: number; createdBy: string;
}

function toRelation(r: Selectable<ProjectRelationTable>): ProjectRelation {
  return {
    id: r.id, agencyId: r.agency_id, fromProgramId: r.from_program_id, fromProjectId: r.from_project_id, toProgramId: r.to_program_id,
    toProjectId: r.to_project_id, kind: r.kind as RelationKind, relation: r.relation, createdAt: Number(r.created_at), createdBy: r.created_by,
  };
}

/** Every relation from or to a project, oldest first. */
export async function listProjectRelations(db: Db, projectId: string): Promise<ProjectRelation[]> {
  const rows = await db.selectFrom('project_relations').selectAll()
    .where((eb) => eb.or([eb('from_project_id', '=', projectId), eb('to_project_id', '=', projectId)]))
    .orderBy('created_at').orderBy('id').execute();
  return rows.map(toRelation);
}

/** The relations a project has made by one of its program's relations (`relation`'s customId), oldest first. */
export async function findRelationsBy(db: Db, fromProjectId: string, relation: string): Promise<ProjectRelation[]> {
  const rows = await db.selectFrom('project_relations').selectAll().where('from_project_id', '=', fromProjectId).where('relation', '=', relation)
    .orderBy('created_at').orderBy('id').execute();
  return rows.map(toRelation);
}

/** Records a relation; the pair must not be related yet (the unique index refuses a second row). */
export async function insertRelation(db: Db, r: ProjectRelation): Promise<void> {
  await db.insertInto('project_relations').values({
    id: r.id, agency_id: r.agencyId, from_program_id: r.fromProgramId, from_project_id: r.fromProjectId, to_program_id: r.toProgramId,
    to_project_id: r.toProjectId, kind: r.kind, relation: r.relation, created_at: r.createdAt, created_by: r.createdBy,
  }).execute();
}

/** Removes a relation; true when there was one of that id. */
export async function deleteRelation(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom('project_relations').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

const READS = { listProjectRelations, findRelationsBy };

/** The project relations' reads. */
export type RelationReader = ReturnType<typeof relationReader>;

/** The project relations inside a transaction. */
export type RelationRepository = ReturnType<typeof relationRepository>;

/** The project relations' reads over a database. */
export function relationReader(db: Db) {
  return bindDb(db, READS);
}

/** The project relations over a transaction. */
export function relationRepository(db: Db) {
  return bindDb(db, { ...READS, insertRelation, deleteRelation });
}
