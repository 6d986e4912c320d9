import type { FastifyInstance } from 'fastify';
import { MAX_PAGE } from '../../domain/projects/project-service.ts';
import { AllProjectDataResponse, allProjectDataValue } from '../../wire/documents/all-project-data.ts';
import { exportValue, exportValueV2, ProjectExportDataGetResponse, ProjectExportDataGetResponseV2 } from '../../wire/documents/project-export.ts';
import { ProjectByDataRequest, projectByDataInput } from '../../wire/documents/projects.ts';
import { sendProjectAnswer } from '../conditional.ts';
import { boolParam, idParam, intParam, type RawQuery, versionParam } from '../query-params.ts';
import { callerOf } from '../request-caller.ts';
import type { RouteDeps } from '../route-deps.ts';
import { PROJECTS_RESPONSES, sendProjects, VERSION_PARAMETER } from './project-routes.ts';
import { projectTarget } from './workflow-routes.ts';

/** GetAllProjectData, GetExportProject and GetProjectsByData: whole projects and searches over them. */
export function exportRoutes(app: FastifyInstance, { services, codec }: RouteDeps): void {
  app.get('/Programs/:ProgramId/Projects/:ProjectId/Data', {
    config: {
      operation: {
        operationId: 'GetAllProjectData', tags: ['Export'], etag: true, projectNumber: true, response: AllProjectDataResponse,
        summary: 'GetAllProjectData: the latest submitted value of every data field ever saved on the project, across forms.',
        query: [{ name: 'reveal_sensitive_data', type: 'boolean', description: 'Show sensitive values instead of masking them (privilege revealSensitive, with a second factor).' }],
      },
    },
  }, async (request, reply) => {
    const t = projectTarget(request);
    const reveal = boolParam(request.query as RawQuery, 'reveal_sensitive_data', false);
    const view = await services.exports.getAllProjectData(callerOf(request), t.programId, t.projectId, reveal);
    return sendProjectAnswer(codec, request, reply, view, AllProjectDataResponse, allProjectDataValue);
  });
  app.get('/Programs/:ProgramId/Projects/:ProjectId/Export', {
    config: {
      operation: {
        operationId: 'GetExportProject', tags: ['Export'], etag: true, projectNumber: true, response: [ProjectExportDataGetResponse, ProjectExportDataGetResponseV2],
        summary: 'GetExportProject: the whole project for archiving or migration (version 2 adds ChangedBy to the status history).',
        query: [{ name: 'version', type: 'string', description: 'The answer\'s version: 1 (default, ProjectExportDataGetResponse) or 2 (ProjectExportDataGetResponseV2); 2.0, v1 and v2 are accepted too.' }],
      },
    },
  }, async (request, reply) => {
    const t = projectTarget(request);
    const version = versionParam(request.query as RawQuery, [1, 2]);
    const view = await services.exports.getExport(callerOf(request), t.programId, t.projectId, version);
    if (view.version === 2) return sendProjectAnswer(codec, request, reply, view, ProjectExportDataGetResponseV2, exportValueV2);
    return sendProjectAnswer(codec, request, reply, view, ProjectExportDataGetResponse, exportValue);
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
