import type { FastifyInstance } from 'fastify';
import { ProjectSubmitResponse, submitValue } from '../../wire/documents/projects.ts';
import { sendProjectAnswer } from '../conditional.ts';
import { callerOf } from '../request-caller.ts';
import type { RouteDeps } from '../route-deps.ts';
import { formTarget } from './form-data-routes.ts';

/** SubmitProject at …/Forms/{FormId}/Draft/Submit, and at …/Forms/{FormId}/Submit as the spec's example writes it. */
export function submitRoutes(app: FastifyInstance, { services, codec }: RouteDeps): void {
  const base = '/Programs/:ProgramId/Projects/:ProjectId/Forms/:FormId';
  for (const [url, operationId] of [[`${base}/Draft/Submit`, 'SubmitProject'], [`${base}/Submit`, 'SubmitProjectShortUrl']] as const) {
    app.post(url, {
      config: {
        idempotent: true,
        operation: {
          operationId, tags: ['Projects'], etag: true, response: ProjectSubmitResponse,
          summary: 'SubmitProject: submits the draft of a form, numbers the project on its first submission and moves it on (no body).',
        },
      },
    }, async (request, reply) => {
      const t = formTarget(request, true);
      const view = await services.submit.submit(callerOf(request), t.programRef, t.projectId, t.formRef);
      return sendProjectAnswer(codec, request, reply, view, ProjectSubmitResponse, submitValue);
    });
  }
}
