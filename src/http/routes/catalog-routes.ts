import type { FastifyInstance } from 'fastify';
import {
  CustomListChoicesResponse, customListValue, FormSchemaResponse, FormSchemaResponseV2, FormsResponse, formSchemaV2Value, formSchemaValue, formsValue,
  StatusListResponse, statusListValue,
} from '../../wire/documents/catalog.ts';
import { idParam, type RawQuery, versionParam } from '../query-params.ts';
import { callerOf } from '../request-caller.ts';
import type { RouteDeps } from '../route-deps.ts';

type Params = { ProgramId?: string; FormId?: string; ListId?: string };

/** GetForms, GetFormSchema, GetCustomListChoices and GetStatusList: what a program is made of. */
export function catalogRoutes(app: FastifyInstance, { services, codec }: RouteDeps): void {
  app.get('/Programs/:ProgramId/Forms', {
    config: {
      operation: {
        operationId: 'GetForms', tags: ['Catalog'], response: FormsResponse,
        summary: 'GetForms: the forms of a program, with the statuses each is available in and the status it leads to.',
      },
    },
  }, async (request, reply) => {
    const programId = idParam((request.params as Params).ProgramId, 'ProgramId');
    return codec.send(request, reply, FormsResponse, formsValue(await services.catalog.getForms(callerOf(request), programId)));
  });
  app.get('/Programs/:ProgramId/Forms/:FormId/Schema', {
    config: {
      operation: {
        operationId: 'GetFormSchema', tags: ['Catalog'], response: [FormSchemaResponse, FormSchemaResponseV2],
        summary: 'GetFormSchema: the data fields and attachment definitions of one form.',
        query: [{ name: 'version', type: 'integer', description: 'Answer version: 1 (default) or 2, which adds each field\'s Group and the choices of fields with a custom list.' }],
      },
    },
  }, async (request, reply) => {
    const p = request.params as Params;
    const version = versionParam(request.query as RawQuery, [1, 2]);
    const view = await services.catalog.getFormSchema(callerOf(request), idParam(p.ProgramId, 'ProgramId'), idParam(p.FormId, 'FormId'), version);
    if (view.version === 2) return codec.send(request, reply, FormSchemaResponseV2, formSchemaV2Value(view));
    return codec.send(request, reply, FormSchemaResponse, formSchemaValue(view));
  });
  app.get('/Programs/:ProgramId/CustomLists/:ListId/Choices', {
    config: {
      operation: {
        operationId: 'GetCustomListChoices', tags: ['Catalog'], response: CustomListChoicesResponse,
        summary: 'GetCustomListChoices: one custom list (by id or custom id) with its choices in order.',
      },
    },
  }, async (request, reply) => {
    const p = request.params as Params;
    const view = await services.catalog.getCustomListChoices(callerOf(request), idParam(p.ProgramId, 'ProgramId'), idParam(p.ListId, 'ListId'));
    return codec.send(request, reply, CustomListChoicesResponse, customListValue(view));
  });
  app.get('/Programs/:ProgramId/Statuses', {
    config: {
      operation: {
        operationId: 'GetStatusList', tags: ['Catalog'], response: StatusListResponse,
        summary: 'GetStatusList: the workflow statuses of a program, each with the statuses it may move to (privilege moveStatus).',
      },
    },
  }, async (request, reply) => {
    const programId = idParam((request.params as Params).ProgramId, 'ProgramId');
    return codec.send(request, reply, StatusListResponse, statusListValue(await services.catalog.getStatusList(callerOf(request), programId)));
  });
}
