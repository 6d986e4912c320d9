import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DataTarget } from '../../domain/projects/form-data-service.ts';
import { formDataValue, ProjectDataGetResponse, ProjectDataRequest, ProjectDataSetResponse, projectDataInput } from '../../wire/documents/project-data.ts';
import { sendProjectAnswer } from '../conditional.ts';
import { boolParam, idParam, type RawQuery } from '../query-params.ts';
import { callerOf } from '../request-caller.ts';
import type { RouteDeps } from '../route-deps.ts';

type FormParams = { ProgramId?: string; ProjectId?: string; FormId?: string };

/** The program, project and form a data route addresses. */
export function formTarget(request: FastifyRequest, draft: boolean): DataTarget {
  const p = request.params as FormParams;
  return {
    programRef: idParam(p.ProgramId, 'ProgramId'), projectId: idParam(p.ProjectId, 'ProjectId'),
    formRef: idParam(p.FormId, 'FormId'), draft,
  };
}

/** GetProjectData and SetProjectData for the submitted (…/Data) and the draft (…/Draft/Data) view. */
export function formDataRoutes(app: FastifyInstance, { services, codec }: RouteDeps): void {
  const base = '/Programs/:ProgramId/Projects/:ProjectId/Forms/:FormId';
  for (const draft of [false, true]) {
    const url = `${base}${draft ? '/Draft' : ''}/Data`;
    const which = draft ? 'draft' : 'submitted';
    app.get(url, {
      config: {
        operation: {
          operationId: draft ? 'GetProjectDraftData' : 'GetProjectData', tags: ['Form data'], etag: true, projectNumber: true,
          summary: `GetProjectData: the ${which} data of one form of a project.`, response: ProjectDataGetResponse,
          query: [{ name: 'reveal_sensitive_data', type: 'boolean', description: 'Show sensitive values instead of masking them (privilege revealSensitive, with a second factor).' }],
        },
      },
    }, async (request, reply) => {
      const reveal = boolParam(request.query as RawQuery, 'reveal_sensitive_data', false);
      const view = await services.formData.get(callerOf(request), formTarget(request, draft), reveal);
      return sendProjectAnswer(codec, request, reply, view, ProjectDataGetResponse, formDataValue);
    });
    app.post(url, {
      config: {
        operation: {
          operationId: draft ? 'SetProjectDraftData' : 'SetProjectData', tags: ['Form data'], etag: true,
          summary: `SetProjectData: changes the ${which} data of one form.`, request: ProjectDataRequest, response: ProjectDataSetResponse,
        },
      },
    }, async (request, reply) => {
      const target = formTarget(request, draft);
      const input = projectDataInput(codec.read(request, ProjectDataRequest));
      const view = await services.formData.set(callerOf(request), target, input);
      return sendProjectAnswer(codec, request, reply, view, ProjectDataSetResponse, formDataValue);
    });
  }
}
