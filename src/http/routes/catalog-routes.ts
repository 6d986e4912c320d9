import type { FastifyInstance } from 'fastify';
import { idParam, type RawQuery, versionParam } from '../query-params.ts';
import { callerOf } from '../request-caller.ts';
import type { RouteDeps } from '../route-deps.ts';
import { sendXml } from '../xml-reply.ts';

type Params = { ProgramId?: string; FormId?: string; ListId?: string };

/** GetForms, GetFormSchema, GetCustomListChoices and GetStatusList: what a program is made of. */
export function catalogRoutes(app: FastifyInstance, { services, codec }: RouteDeps): void {
  app.get('/Programs/:ProgramId/Forms', async (request, reply) => {
    const programId = idParam((request.params as Params).ProgramId, 'ProgramId');
    return sendXml(reply, codec.forms(await services.catalog.getForms(callerOf(request), programId)));
  });
  app.get('/Programs/:ProgramId/Forms/:FormId/Schema', async (request, reply) => {
    const p = request.params as Params;
    const version = versionParam(request.query as RawQuery, [1, 2]);
    const view = await services.catalog.getFormSchema(callerOf(request), idParam(p.ProgramId, 'ProgramId'), idParam(p.FormId, 'FormId'), version);
    return sendXml(reply, codec.formSchema(view));
  });
  app.get('/Programs/:ProgramId/CustomLists/:ListId/Choices', async (request, reply) => {
    const p = request.params as Params;
    const view = await services.catalog.getCustomListChoices(callerOf(request), idParam(p.ProgramId, 'ProgramId'), idParam(p.ListId, 'ListId'));
    return sendXml(reply, codec.customList(view));
  });
  app.get('/Programs/:ProgramId/Statuses', async (request, reply) => {
    const programId = idParam((request.params as Params).ProgramId, 'ProgramId');
    return sendXml(reply, codec.statusList(await services.catalog.getStatusList(callerOf(request), programId)));
  });
}
