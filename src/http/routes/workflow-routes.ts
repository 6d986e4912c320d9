import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  assigneeEmailOf, assigneeValue, moveReasonOf, ProjectStatusHistoryResponse, reportAsInput, reportAsValue, SetAssigneeRequest, SetAssigneeResponse,
  SetProjectStatusHistoryReportAs, SetProjectStatusRequest, StatusHistoryReportAsResponse, StatusSetResponse, statusHistoryValue, statusSetValue,
} from '../../wire/documents/workflow.ts';
import { sendProjectAnswer } from '../conditional.ts';
import { idParam } from '../query-params.ts';
import { callerOf } from '../request-caller.ts';
import type { RouteDeps } from '../route-deps.ts';

/** The program and project a project route addresses. */
export function projectTarget(request: FastifyRequest): { programId: string; projectId: string } {
  const p = request.params as { ProgramId?: string; ProjectId?: string };
  return { programId: idParam(p.ProgramId, 'ProgramId'), projectId: idParam(p.ProjectId, 'ProjectId') };
}

/** GetProjectStatusHistory, SetProjectStatus, SetProjectStatusReportAs and SetAssignee. */
export function workflowRoutes(app: FastifyInstance, { services, codec }: RouteDeps): void {
  const base = '/Programs/:ProgramId/Projects/:ProjectId';
  app.get(`${base}/StatusHistory`, {
    config: {
      operation: {
        operationId: 'GetProjectStatusHistory', tags: ['Workflow'], etag: true, projectNumber: true, response: ProjectStatusHistoryResponse,
        summary: 'GetProjectStatusHistory: every status the project has had, newest first (privilege readHistory).',
      },
    },
  }, async (request, reply) => {
    const t = projectTarget(request);
    const view = await services.workflow.getHistory(callerOf(request), t.programId, t.projectId);
    return sendProjectAnswer(codec, request, reply, view, ProjectStatusHistoryResponse, statusHistoryValue);
  });
  app.post(`${base}/Status`, {
    config: {
      operation: {
        operationId: 'SetProjectStatus', tags: ['Workflow'], etag: true, request: SetProjectStatusRequest, response: StatusSetResponse,
        summary: 'SetProjectStatus: moves a project to a status allowed next from its current one (privilege moveStatus, along the transitions of the role), (apas) with a reason and a message.',
      },
    },
  }, async (request, reply) => {
    const t = projectTarget(request);
    const body = codec.read(request, SetProjectStatusRequest);
    const view = await services.workflow.setStatus(callerOf(request), t.programId, t.projectId, body.StatusId, moveReasonOf(body));
    return sendProjectAnswer(codec, request, reply, view, StatusSetResponse, statusSetValue);
  });
  app.post(`${base}/StatusHistory/ReportAs`, {
    config: {
      operation: {
        operationId: 'SetProjectStatusReportAs', tags: ['Workflow'], etag: true, request: SetProjectStatusHistoryReportAs, response: StatusHistoryReportAsResponse,
        summary: 'SetProjectStatusReportAs: marks one status-history entry as reported normally or suppressed (privilege moveStatus).',
      },
    },
  }, async (request, reply) => {
    const t = projectTarget(request);
    const input = reportAsInput(codec.read(request, SetProjectStatusHistoryReportAs));
    const view = await services.workflow.setReportAs(callerOf(request), t.programId, t.projectId, input);
    return sendProjectAnswer(codec, request, reply, view, StatusHistoryReportAsResponse, reportAsValue);
  });
  app.post(`${base}/Assignee`, {
    config: {
      operation: {
        operationId: 'SetAssignee', tags: ['Workflow'], etag: true, request: SetAssigneeRequest, response: SetAssigneeResponse,
        summary: 'SetAssignee: sets or clears the staff member a project is assigned to.',
      },
    },
  }, async (request, reply) => {
    const t = projectTarget(request);
    const email = assigneeEmailOf(codec.read(request, SetAssigneeRequest));
    const view = await services.workflow.setAssignee(callerOf(request), t.programId, t.projectId, email);
    return sendProjectAnswer(codec, request, reply, view, SetAssigneeResponse, assigneeValue);
  });
}
