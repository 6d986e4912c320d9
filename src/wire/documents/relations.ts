import type { ProjectRelationsView, RelatedProjectView, RelationView } from '../../domain/relations/relation-service.ts';
import { isoTimestamp } from '../../model/clock.ts';
import { complex, type DocumentValue, dateTime, enumeration, many, one, optional, required, requestDocument, responseDocument, restrict, string, token } from '../wire-type.ts';

const RelationKind = enumeration('RelationKind', ['child', 'successor', 'link'], 'What the project a relation was made to is to the one it was made from.');

const Relationship = enumeration('Relationship', ['child', 'parent', 'successor', 'predecessor', 'link'],
  'What the related project is to the project read: its child or parent, its successor or predecessor, or a link.');

const Relation = complex({
  name: 'Relation',
  doc: 'A related project the caller may read; a relation to a project the caller may not read is not listed at all.',
  attributes: {
    RelationId: required(string),
    Kind: required(RelationKind),
    Relationship: required(Relationship),
    RelationName: optional(string, { doc: 'The customId of the program relation (relations:) it was made by; absent for one made otherwise.' }),
    ProgramId: required(string, { doc: 'The related project\'s program (its customId).' }),
    ProjectId: required(string),
    ProjectNumber: optional(string, { doc: 'Absent while the related project is unsubmitted.' }),
    Status: required(string, { doc: 'The related project\'s current status.' }),
    CreatedAt: required(dateTime),
    CreatedBy: optional(string, { doc: 'Who made the relation (e-mail address); for the program\'s staff only.' }),
  },
});

/** GetProjectRelations: the project's relations the caller may see, oldest first. */
export const ProjectRelationsResponse = responseDocument('ProjectRelationsResponse', complex({
  children: {
    Project: one(complex({
      attributes: { ProjectId: required(string) },
      children: { Relation: many(Relation) },
    })),
  },
}), 'GetProjectRelations: the project\'s related projects that the caller may read, oldest relation first.');

/** CreateRelatedProject: the new project and its relation. */
export const RelatedProjectResponse = responseDocument('RelatedProjectResponse', complex({
  children: {
    Relation: one(complex({
      attributes: {
        RelationId: required(string), Kind: required(RelationKind),
        ProgramId: required(string, { doc: 'The new project\'s program (its id).' }), ProjectId: required(string, { doc: 'The new project.' }),
      },
    })),
  },
}), 'CreateRelatedProject: the project made from this one by the program relation, and the relation; the ETag is this project\'s.');

/** LinkProject: the other project to relate this one to, and what it is to this one. */
export const LinkProjectRequest = requestDocument('LinkProjectRequest', complex({
  attributes: {
    ProgramId: required(restrict(token, { maxLength: 200 }), { doc: 'The other project\'s program (id or customId) in the agency.' }),
    ProjectId: required(restrict(token, { maxLength: 200 }), { doc: 'The other project (id or number).' }),
    Kind: optional(RelationKind, { doc: 'What the other project is to this one: child, successor, or link (the default).' }),
  },
}), 'LinkProject request: the project to relate to this one, and what it is to this one.');

/** LinkProject's request as the service takes it. */
export function linkOf(value: DocumentValue<typeof LinkProjectRequest>): { programRef: string; projectRef: string; kind: 'child' | 'successor' | 'link' } {
  return { programRef: value.ProgramId, projectRef: value.ProjectId, kind: value.Kind ?? 'link' };
}

function relationValue(r: RelationView) {
  return {
    RelationId: r.relationId, Kind: r.kind, Relationship: r.relationship, RelationName: r.relation ?? undefined,
    ProgramId: r.programCustomId, ProjectId: r.projectId, ProjectNumber: r.projectNumber ?? undefined, Status: r.statusName,
    CreatedAt: isoTimestamp(r.createdAt), CreatedBy: r.createdBy ?? undefined,
  };
}

/** GetProjectRelations' answer. */
export function relationsValue(view: ProjectRelationsView): DocumentValue<typeof ProjectRelationsResponse> {
  return { Project: { ProjectId: view.projectId, Relation: view.relations.map(relationValue) } };
}

/** CreateRelatedProject's answer. */
export function relatedProjectValue(view: RelatedProjectView): DocumentValue<typeof RelatedProjectResponse> {
  return { Relation: { RelationId: view.relationId, Kind: view.kind, ProgramId: view.programId, ProjectId: view.projectId } };
}
