import type { FastifyInstance } from 'fastify';
import { MAX_PAGE } from '../../domain/project-service.ts';
import { ProjectByDataRequest, projectByDataInput } from '../../wire/documents/projects.ts';
import { sendProjectXml } from '../conditional.ts';
import { boolParam, idParam, intParam, type RawQuery, versionParam } from '../query-params.ts';
import { callerOf } from '../request-caller.ts';
import type { RouteDeps } from '../route-deps.ts';
import { PROJECTS_RESPONSES, sendProjects, VERSION_PARAMETER } from './project-routes.ts';
import { projectTarget } from './workflow-routes.ts';

/** GetAllProjectData, GetExportProject and GetProjectsByData: whole projects and searches over them. */
export function exportRoutes(app: FastifyInstance, { services, codec }: RouteDeps): void {
  app.get('/Programs/:ProgramId/Projects/:ProjectId/Data', async (request, reply) => {
    const t = projectTarget(request);
    const reveal = boolParam(request.query as RawQuery, 'reveal_sensitive_data', false);
    return sendProjectXml(request, reply, await services.exports.getAllProjectData(callerOf(request), t.programId, t.projectId, reveal), codec.allProjectData);
  });
  app.get('/Programs/:ProgramId/Projects/:ProjectId/Export', async (request, reply) => {
    const t = projectTarget(request);
    const version = versionParam(request.query as RawQuery, [1, 2]);
    return sendProjectXml(request, reply, await services.exports.getExport(callerOf(request), t.programId, t.projectId, version), codec.exportProject);
  });
  app.post('/Programs/:ProgramId/Projects/ByData', {
    config: {
      operation: {
        operationId: 'GetProjectsByData', tags: ['Projects'], request: ProjectByDataRequest, response: PROJECTS_RESPONSES,
        summary: 'GetProjectsByData: the projects the caller may read that match filters on status, status times and submitted values.',
        query: [
          { name: 'limit', type: 'integer', description: 'Projects per page, 1–1000 (default 1000).' },
          { name: 'offset', type: 'integer', description: 'Projects to skip (default 0).' },
          VERSION_PARAMETER,
        ],
      },
    },
  }, async (request, reply) => {
    const programId = idParam((request.params as { ProgramId?: string }).ProgramId, 'ProgramId');
    const q = request.query as RawQuery;
    const page = { limit: intParam(q, 'limit', MAX_PAGE, 1, MAX_PAGE), offset: intParam(q, 'offset', 0, 0, 1_000_000_000), version: versionParam(q, [1, 2]) };
    const query = projectByDataInput(codec.read(request, ProjectByDataRequest));
    return sendProjects(codec, request, reply, await services.search.getProjectsByData(callerOf(request), programId, query, page));
  });
}
