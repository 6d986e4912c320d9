import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../domain/api-error.ts';
import { MAX_PAGE } from '../../domain/projects/project-service.ts';
import type { ProjectsView } from '../../domain/views.ts';
import { isoTimestamp } from '../../model/clock.ts';
import { isIdLike } from '../../model/ids.ts';
import {
  NewProjectResponse, newProjectValue, ownerValue, ProjectByNumberRequest, ProjectsResponse, ProjectsResponseExtended,
  projectNumbersInput, SetProjectOwnerRequest, SetProjectOwnerResponse,
} from '../../wire/documents/projects.ts';
import { projectsAnswer } from '../../wire/documents/projects-answer.ts';
import type { ApiCodec } from '../api-codec.ts';
import { sendProjectAnswer } from '../conditional.ts';
import type { QueryParameter } from '../operation-table.ts';
import { idParam, intParam, optionalParam, type RawQuery, timeParam, versionParam } from '../query-params.ts';
import { callerOf } from '../request-caller.ts';
import type { RouteDeps } from '../route-deps.ts';

type ProgramParams = { ProgramId?: string };
type ProjectParams = ProgramParams & { ProjectId?: string };

/** The two ProjectsResponse variants, which the `version` parameter chooses between. */
export const PROJECTS_RESPONSES = [ProjectsResponse, ProjectsResponseExtended] as const;

/** The `version` query parameter of the project lists. */
export const VERSION_PARAMETER: QueryParameter = {
  name: 'version', type: 'integer', description: 'The answer variant: 1 (default) is ProjectsResponse, 2 the extended variant with StatusCustomId and StatusPublicId.',
};

/**
 * Sends a list of projects as the variant its view was made for (XML in chunks, or JSON, by Accept), written straight
 * from the view: the same bytes as ProjectsResponse(Extended)'s value through codec.send, at a fraction of the CPU.
 */
export function sendProjects(codec: ApiCodec, request: FastifyRequest, reply: FastifyReply, view: ProjectsView): FastifyReply {
  return codec.sendWritten(request, reply, projectsAnswer(view));
}

/** GetProjects, GetProjectsByNumber (and its 1.1 URL), CreateNewProject, SetProjectOwner. */
export function projectRoutes(app: FastifyInstance, { services, codec, apiUrl }: RouteDeps): void {
  app.get('/Programs/:ProgramId/Projects', {
    config: {
      operation: {
        operationId: 'GetProjects', tags: ['Projects'], response: PROJECTS_RESPONSES,
        summary: 'GetProjects: a page of the projects of the program the caller may read, in creation order; a Link header names the next page.',
        query: [
          { name: 'limit', type: 'integer', description: 'Projects per page, 1–1000 (default 1000).' },
          { name: 'offset', type: 'integer', description: 'Projects to skip (default 0); not together with after.' },
          { name: 'after', type: 'string', description: "A cursor from the previous page's Link header: the page starts just after that project." },
          { name: 'changed_since', type: 'string', description: 'Only projects whose last change is strictly later than this time: yyyy-MM-dd or an ISO 8601 date-time.' },
          VERSION_PARAMETER,
        ],
      },
    },
  }, async (request, reply) => {
    const programId = idParam((request.params as ProgramParams).ProgramId, 'ProgramId');
    const query = request.query as RawQuery;
    const after = optionalParam(query, 'after');
    if (after !== undefined && query.offset !== undefined) {
      throw new ApiError('INVALID_PARAMETER', 'Send either offset or after, not both: after already says where the page starts.');
    }
    const options = {
      changedSince: timeParam(query, 'changed_since'),
      limit: intParam(query, 'limit', MAX_PAGE, 1, MAX_PAGE),
      offset: intParam(query, 'offset', 0, 0, 1_000_000_000),
      ...(after === undefined ? {} : { after }),
      version: versionParam(query, [1, 2]),
    };
    const view = await services.projects.getProjects(callerOf(request), programId, options);
    if (view.nextCursor !== null) {
      // The next page by keyset (RFC 8288), with the same filter, page size and response version as this one.
      const next = new URLSearchParams({ limit: String(options.limit) });
      if (options.changedSince !== undefined) next.set('changed_since', isoTimestamp(options.changedSince));
      if (query.version !== undefined) next.set('version', String(options.version));
      next.set('after', view.nextCursor);
      reply.header('Link', `<${apiUrl}/Programs/${encodeURIComponent(programId)}/Projects?${next.toString()}>; rel="next"`);
    }
    return sendProjects(codec, request, reply, view);
  });

  const byNumber = async (request: FastifyRequest, reply: FastifyReply) => {
    const programId = idParam((request.params as ProgramParams).ProgramId, 'ProgramId');
    const version = versionParam(request.query as RawQuery, [1, 2]);
    const numbers = projectNumbersInput(codec.read(request, ProjectByNumberRequest));
    return sendProjects(codec, request, reply, await services.projects.getProjectsByNumber(callerOf(request), programId, numbers, version));
  };
  const byNumberOperation = (operationId: string, summary: string) => ({
    operation: { operationId, tags: ['Projects'], summary, request: ProjectByNumberRequest, response: PROJECTS_RESPONSES, query: [VERSION_PARAMETER] },
  });
  app.post('/Programs/:ProgramId/Projects/ByNumber', {
    config: byNumberOperation('GetProjectsByNumber', 'GetProjectsByNumber: the projects with the listed numbers that the caller may read, in creation order.'),
  }, byNumber);
  // The 1.1 URL of GetProjectsByNumber, still accepted so that older integrations keep working.
  app.post('/Programs/:ProgramId/ProjectsByNumber', {
    config: byNumberOperation('GetProjectsByNumberLegacy', 'GetProjectsByNumber at its 1.1 URL, still accepted for older integrations.'),
  }, byNumber);

  app.post('/Programs/:ProgramId/NewProject', {
    config: {
      idempotent: true,
      operation: {
        operationId: 'CreateNewProject', tags: ['Projects'], etag: true, response: NewProjectResponse,
        summary: 'CreateNewProject: creates an empty project owned by the caller, in the initial status (no body).',
        query: [
          { name: 'OrganizationId', type: 'string', description: "Start the project for this organization of the caller's: its members share it, its defaults prefill the forms." },
        ],
      },
    },
  }, async (request, reply) => {
    const programId = idParam((request.params as ProgramParams).ProgramId, 'ProgramId');
    const organizationId = optionalParam(request.query as RawQuery, 'OrganizationId');
    if (organizationId !== undefined && !isIdLike(organizationId)) throw new ApiError('INVALID_PARAMETER', 'OrganizationId is not a valid identifier.');
    const options = organizationId === undefined ? {} : { organizationId };
    const view = await services.projects.createProject(callerOf(request), programId, options);
    return sendProjectAnswer(codec, request, reply, view, NewProjectResponse, newProjectValue);
  });

  app.post('/Programs/:ProgramId/Projects/:ProjectId/Owner', {
    config: {
      operation: {
        operationId: 'SetProjectOwner', tags: ['Projects'], etag: true, request: SetProjectOwnerRequest, response: SetProjectOwnerResponse,
        summary: 'SetProjectOwner: hands the project to another user of the program.',
      },
    },
  }, async (request, reply) => {
    const params = request.params as ProjectParams;
    const programId = idParam(params.ProgramId, 'ProgramId');
    const projectId = idParam(params.ProjectId, 'ProjectId');
    const { OwnerEmail } = codec.read(request, SetProjectOwnerRequest);
    const view = await services.projects.setOwner(callerOf(request), programId, projectId, OwnerEmail);
    return sendProjectAnswer(codec, request, reply, view, SetProjectOwnerResponse, ownerValue);
  });
}
