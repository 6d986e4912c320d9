import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LinkProjectRequest, linkOf, ProjectRelationsResponse, RelatedProjectResponse, relatedProjectValue, relationsValue } from '../../wire/documents/relations.ts';
import { sendProjectAnswer } from '../conditional.ts';
import { idParam } from '../query-params.ts';
import { callerOf } from '../request-caller.ts';
import type { RouteDeps } from '../route-deps.ts';
import { projectTarget } from './workflow-routes.ts';

function relationRef(request: FastifyRequest): string {
  return idParam((request.params as { RelationId?: string }).RelationId, 'RelationId');
}

/** GetProjectRelations, LinkProject, UnlinkProject and CreateRelatedProject (src/domain/relations). */
export function relationRoutes(app: FastifyInstance, { services, codec }: RouteDeps): void {
  const base = '/Programs/:ProgramId/Projects/:ProjectId/Relations';
  app.get(base, {
    config: {
      operation: {
        operationId: 'GetProjectRelations', tags: ['Relations'], projectNumber: true, response: ProjectRelationsResponse,
        summary: 'GetProjectRelations: the project\'s related projects (children, parents, successors, predecessors, links) that the caller may read; others are left out.',
      },
    },
  }, async (request, reply) => {
    const t = projectTarget(request);
    const view = await services.relations.listRelations(callerOf(request), t.programId, t.projectId);
    return codec.send(request, reply, ProjectRelationsResponse, relationsValue(view));
  });
  app.post(base, {
    config: {
      idempotent: true,
      operation: {
        operationId: 'LinkProject', tags: ['Relations'], etag: true, request: LinkProjectRequest, response: RelatedProjectResponse,
        summary: 'LinkProject: relates another existing project to this one as its child, successor or a link (staff who may change this project and read the other).',
      },
    },
  }, async (request, reply) => {
    const t = projectTarget(request);
    const view = await services.relations.linkProject(callerOf(request), t.programId, t.projectId, linkOf(codec.read(request, LinkProjectRequest)));
    return sendProjectAnswer(codec, request, reply, view, RelatedProjectResponse, relatedProjectValue);
  });
  app.delete(`${base}/:RelationId`, {
    config: {
      idempotent: true,
      operation: {
        operationId: 'UnlinkProject', tags: ['Relations'], etag: true, response: RelatedProjectResponse,
        summary: 'UnlinkProject: removes a link (kind link) between this project and another; child and successor relations are fixed (staff who may change this project and read the other).',
      },
    },
  }, async (request, reply) => {
    const t = projectTarget(request);
    const view = await services.relations.unlinkProject(callerOf(request), t.programId, t.projectId, relationRef(request));
    return sendProjectAnswer(codec, request, reply, view, RelatedProjectResponse, relatedProjectValue);
  });
  app.post(`${base}/:RelationId/Create`, {
    config: {
      idempotent: true,
      operation: {
        operationId: 'CreateRelatedProject', tags: ['Relations'], etag: true, response: RelatedProjectResponse,
        summary: 'CreateRelatedProject: creates the project one of the program\'s relations describes from this one, prefilled from its fields (staff who may change the project and create projects in the other program).',
      },
    },
  }, async (request, reply) => {
    const t = projectTarget(request);
    const view = await services.relations.createRelated(callerOf(request), t.programId, t.projectId, relationRef(request));
    return sendProjectAnswer(codec, request, reply, view, RelatedProjectResponse, relatedProjectValue);
  });
}
