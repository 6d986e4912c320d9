import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../domain/api-error.ts';
import { MAX_PAGE } from '../../domain/project-service.ts';
import { isoTimestamp } from '../../model/clock.ts';
import { sendProjectXml } from '../conditional.ts';
import { idParam, intParam, optionalParam, type RawQuery, timeParam, versionParam } from '../query-params.ts';
import { callerOf } from '../request-caller.ts';
import type { RouteDeps } from '../route-deps.ts';
import { sendXml, xmlBody } from '../xml-reply.ts';

type ProgramParams = { ProgramId?: string };
type ProjectParams = ProgramParams & { ProjectId?: string };

/** GetProjects, GetProjectsByNumber (and its 1.1 URL), CreateNewProject, SetProjectOwner. */
export function projectRoutes(app: FastifyInstance, { services, codec, apiUrl }: RouteDeps): void {
  app.get('/Programs/:ProgramId/Projects', async (request, reply) => {
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
    return sendXml(reply, codec.projects(view));
  });

  const byNumber = async (request: FastifyRequest) => {
    const programId = idParam((request.params as ProgramParams).ProgramId, 'ProgramId');
    const version = versionParam(request.query as RawQuery, [1, 2]);
    const numbers = codec.readProjectNumbers(xmlBody(request, 'ProjectByNumberRequest'));
    return services.projects.getProjectsByNumber(callerOf(request), programId, numbers, version);
  };
  app.post('/Programs/:ProgramId/Projects/ByNumber', async (request, reply) => sendXml(reply, codec.projects(await byNumber(request))));
  // The 1.1 URL of GetProjectsByNumber, still accepted so that older integrations keep working.
  app.post('/Programs/:ProgramId/ProjectsByNumber', async (request, reply) => sendXml(reply, codec.projects(await byNumber(request))));

  app.post('/Programs/:ProgramId/NewProject', async (request, reply) => {
    const programId = idParam((request.params as ProgramParams).ProgramId, 'ProgramId');
    const view = await services.projects.createProject(callerOf(request), programId);
    return sendProjectXml(request, reply, view, codec.newProject);
  });

  app.post('/Programs/:ProgramId/Projects/:ProjectId/Owner', async (request, reply) => {
    const params = request.params as ProjectParams;
    const programId = idParam(params.ProgramId, 'ProgramId');
    const projectId = idParam(params.ProjectId, 'ProjectId');
    const { ownerEmail } = codec.readOwner(xmlBody(request, 'SetProjectOwnerRequest'));
    const view = await services.projects.setOwner(callerOf(request), programId, projectId, ownerEmail);
    return sendProjectXml(request, reply, view, codec.owner);
  });
}
