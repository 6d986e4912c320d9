import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendProjectXml } from '../conditional.ts';
import { idParam } from '../query-params.ts';
import { callerOf } from '../request-caller.ts';
import type { RouteDeps } from '../route-deps.ts';
import { xmlBody } from '../xml-reply.ts';

/** The program and project a project route addresses. */
export function projectTarget(request: FastifyRequest): { programId: string; projectId: string } {
  const p = request.params as { ProgramId?: string; ProjectId?: string };
  return { programId: idParam(p.ProgramId, 'ProgramId'), projectId: idParam(p.ProjectId, 'ProjectId') };
}

/** GetProjectStatusHistory, SetProjectStatus, SetProjectStatusReportAs and SetAssignee. */
export function workflowRoutes(app: FastifyInstance, { services, codec }: RouteDeps): void {
  const base = '/Programs/:ProgramId/Projects/:ProjectId';
  app.get(`${base}/StatusHistory`, async (request, reply) => {
    const t = projectTarget(request);
    return sendProjectXml(request, reply, await services.workflow.getHistory(callerOf(request), t.programId, t.projectId), codec.statusHistory);
  });
  app.post(`${base}/Status`, async (request, reply) => {
    const t = projectTarget(request);
    const { statusRef } = codec.readSetStatus(xmlBody(request, 'SetProjectStatusRequest'));
    return sendProjectXml(request, reply, await services.workflow.setStatus(callerOf(request), t.programId, t.projectId, statusRef), codec.statusSet);
  });
  app.post(`${base}/StatusHistory/ReportAs`, async (request, reply) => {
    const t = projectTarget(request);
    const input = codec.readReportAs(xmlBody(request, 'SetProjectStatusHistoryReportAs'));
    return sendProjectXml(request, reply, await services.workflow.setReportAs(callerOf(request), t.programId, t.projectId, input), codec.reportAs);
  });
  app.post(`${base}/Assignee`, async (request, reply) => {
    const t = projectTarget(request);
    const { assigneeEmail } = codec.readAssignee(xmlBody(request, 'SetAssigneeRequest'));
    return sendProjectXml(request, reply, await services.workflow.setAssignee(callerOf(request), t.programId, t.projectId, assigneeEmail), codec.assignee);
  });
}
