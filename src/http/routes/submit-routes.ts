import type { FastifyInstance } from 'fastify';
import { sendProjectXml } from '../conditional.ts';
import { callerOf } from '../request-caller.ts';
import type { RouteDeps } from '../route-deps.ts';
import { formTarget } from './form-data-routes.ts';

/** SubmitProject at …/Forms/{FormId}/Draft/Submit, and at …/Forms/{FormId}/Submit as the spec's example writes it. */
export function submitRoutes(app: FastifyInstance, { services, codec }: RouteDeps): void {
  for (const url of ['/Programs/:ProgramId/Projects/:ProjectId/Forms/:FormId/Draft/Submit', '/Programs/:ProgramId/Projects/:ProjectId/Forms/:FormId/Submit']) {
    app.post(url, async (request, reply) => {
      const t = formTarget(request, true);
      const view = await services.submit.submit(callerOf(request), t.programRef, t.projectId, t.formRef);
      return sendProjectXml(request, reply, view, codec.submit);
    });
  }
}
