import type { FastifyInstance, FastifyRequest } from 'fastify';
import { deadlineAnswerValue, deadlinesValue, ProjectDeadlineResponse, ProjectDeadlinesResponse } from '../../wire/documents/deadlines.ts';
import { sendProjectAnswer } from '../conditional.ts';
import { idParam } from '../query-params.ts';
import { callerOf } from '../request-caller.ts';
import type { RouteDeps } from '../route-deps.ts';
import { projectTarget } from './workflow-routes.ts';

function deadlineRef(request: FastifyRequest): string {
  return idParam((request.params as { DeadlineId?: string }).DeadlineId, 'DeadlineId');
}

/** GetProjectDeadlines, StartProjectDeadline, SatisfyProjectDeadline and CancelProjectDeadline. */
export function deadlineRoutes(app: FastifyInstance, { services, codec }: RouteDeps): void {
  const base = '/Programs/:ProgramId/Projects/:ProjectId/Deadlines';
  app.get(base, {
    config: {
      operation: {
        operationId: 'GetProjectDeadlines', tags: ['Deadlines'], etag: true, projectNumber: true, response: ProjectDeadlinesResponse,
        summary: 'GetProjectDeadlines: the project\'s deadlines with their state and due date (applicants: those shown to them, on their own projects).',
      },
    },
  }, async (request, reply) => {
    const t = projectTarget(request);
    const view = await services.deadlines.list(callerOf(request), t.programId, t.projectId);
    return sendProjectAnswer(codec, request, reply, view, ProjectDeadlinesResponse, deadlinesValue);
  });
  const changes = [
    { path: 'Start', operationId: 'StartProjectDeadline', run: services.deadlines.start.bind(services.deadlines),
      summary: 'StartProjectDeadline: starts the deadline from now, or restarts it when it runs (privilege manageDeadlines).' },
    { path: 'Satisfy', operationId: 'SatisfyProjectDeadline', run: services.deadlines.satisfy.bind(services.deadlines),
      summary: 'SatisfyProjectDeadline: ends a running deadline as met (privilege manageDeadlines).' },
    { path: 'Cancel', operationId: 'CancelProjectDeadline', run: services.deadlines.cancel.bind(services.deadlines),
      summary: 'CancelProjectDeadline: ends a running deadline as no longer needed (privilege manageDeadlines).' },
  ];
  for (const c of changes) {
    app.post(`${base}/:DeadlineId/${c.path}`, {
      config: { operation: { operationId: c.operationId, tags: ['Deadlines'], etag: true, response: ProjectDeadlineResponse, summary: c.summary } },
    }, async (request, reply) => {
      const t = projectTarget(request);
      const view = await c.run(callerOf(request), t.programId, t.projectId, deadlineRef(request));
      return sendProjectAnswer(codec, request, reply, view, ProjectDeadlineResponse, deadlineAnswerValue);
    });
  }
}
