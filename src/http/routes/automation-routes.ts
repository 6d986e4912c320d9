import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  AutomationScheduleResponse, AutomationScheduleRunResponse, automationRunsValue, ProjectAutomationRunsResponse, schedulePreviewValue, scheduleRunValue,
} from '../../wire/documents/automations.ts';
import { sendProjectAnswer } from '../conditional.ts';
import { idParam } from '../query-params.ts';
import { callerOf } from '../request-caller.ts';
import type { RouteDeps } from '../route-deps.ts';
import { projectTarget } from './workflow-routes.ts';

const TAGS = ['Automations'];

function scheduleTarget(request: FastifyRequest): { programId: string; automationId: string } {
  const p = request.params as { ProgramId?: string; AutomationId?: string };
  return { programId: idParam(p.ProgramId, 'ProgramId'), automationId: idParam(p.AutomationId, 'AutomationId') };
}

/** GetProjectAutomationRuns (staff), and a daily schedule's GetAutomationSchedule and RunAutomationSchedule (privilege runAutomations). */
export function automationRoutes(app: FastifyInstance, { services, codec }: RouteDeps): void {
  app.get('/Programs/:ProgramId/Projects/:ProjectId/AutomationRuns', {
    config: {
      operation: {
        operationId: 'GetProjectAutomationRuns', tags: TAGS, etag: true, response: ProjectAutomationRunsResponse,
        summary: 'GetProjectAutomationRuns: what the program\'s automations did on the project, with every skipped action and why (privilege readProjects).',
      },
    },
  }, async (request, reply) => {
    const t = projectTarget(request);
    const view = await services.automations.runs(callerOf(request), t.programId, t.projectId);
    return sendProjectAnswer(codec, request, reply, view, ProjectAutomationRunsResponse, automationRunsValue);
  });
  const schedule = '/Programs/:ProgramId/Automations/:AutomationId/Schedule';
  app.get(schedule, {
    config: {
      operation: {
        operationId: 'GetAutomationSchedule', tags: TAGS, response: AutomationScheduleResponse,
        summary: 'GetAutomationSchedule: the projects a daily schedule selects now; changes nothing (privilege runAutomations).',
      },
    },
  }, async (request, reply) => {
    const t = scheduleTarget(request);
    const view = await services.automations.schedulePreview(callerOf(request), t.programId, t.automationId);
    return codec.send(request, reply, AutomationScheduleResponse, schedulePreviewValue(view));
  });
  app.post(`${schedule}/Run`, {
    config: {
      operation: {
        operationId: 'RunAutomationSchedule', tags: TAGS, response: AutomationScheduleRunResponse,
        summary: 'RunAutomationSchedule: runs a daily schedule now, on the projects it selects and has not acted on today (privilege runAutomations).',
      },
    },
  }, async (request, reply) => {
    const t = scheduleTarget(request);
    const view = await services.automations.runSchedule(callerOf(request), t.programId, t.automationId);
    return codec.send(request, reply, AutomationScheduleRunResponse, scheduleRunValue(view));
  });
}
