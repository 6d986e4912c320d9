import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MAX_PAGE } from '../../domain/project-service.ts';
import { idParam, intParam, type RawQuery, timeParam, versionParam } from '../query-params.ts';
import { callerOf } from '../request-caller.ts';
import type { RouteDeps } from '../route-deps.ts';
import { sendXml, xmlBody } from '../xml-reply.ts';

type ProgramParams = { ProgramId?: string };
type ProjectParams = ProgramParams & { ProjectId?: string };

/** GetProjects, GetProjectsByNumber (and its 1.1 URL), CreateNewProject, SetProjectOwner. */
export function projectRoutes(app: FastifyInstance, { services, codec }: RouteDeps): void {
  app.get('/Programs/:ProgramId/Projects', async (request, reply) => {
    const programId = idParam((request.params as ProgramParams).ProgramId, 'ProgramId');
    const query = request.query as RawQuery;
    const options = {
      changedSince: timeParam(query, 'changed_since'),
      limit: intParam(query, 'limit', MAX_PAGE, 1, MAX_PAGE),
      offset: intParam(query, 'offset', 0, 0, 1_000_000_000),
      version: versionParam(query, [1, 2]),
    };
    const view = await services.projects.getProjects(callerOf(request), programId, options);
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
    return sendXml(reply, codec.newProject(view));
  });

  app.post('/Programs/:ProgramId/Projects/:ProjectId/Owner', async (request, reply) => {
    const params = request.params as ProjectParams;
    const programId = idParam(params.ProgramId, 'ProgramId');
    const projectId = idParam(params.ProjectId, 'ProjectId');
    const { ownerEmail } = codec.readOwner(xmlBody(request, 'SetProjectOwnerRequest'));
    const view = await services.projects.setOwner(callerOf(request), programId, projectId, ownerEmail);
    return sendXml(reply, codec.owner(view));
  });
}
