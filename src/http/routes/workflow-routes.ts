import type { FastifyInstance, FastifyRequest } from 'fastify';
import { idParam } from '../query-params.ts';
import { callerOf } from '../request-caller.ts';
import type { RouteDeps } from '../route-deps.ts';
import { sendXml, xmlBody } from '../xml-reply.ts';

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
    return sendXml(reply, codec.statusHistory(await services.workflow.getHistory(callerOf(request), t.programId, t.projectId)));
  });
  app.post(`${base}/Status`, async (request, reply) => {
    const t = projectTarget(request);
    const { statusRef } = codec.readSetStatus(xmlBody(request, 'SetProjectStatusRequest'));
    return sendXml(reply, codec.statusSet(await services.workflow.setStatus(callerOf(request), t.programId, t.projectId, statusRef)));
  });
  app.post(`${base}/StatusHistory/ReportAs`, async (request, reply) => {
    const t = projectTarget(request);
    const input = codec.readReportAs(xmlBody(request, 'SetProjectStatusHistoryReportAs'));
    return sendXml(reply, codec.reportAs(await services.workflow.setReportAs(callerOf(request), t.programId, t.projectId, input)));
  });
  app.post(`${base}/Assignee`, async (request, reply) => {
    const t = projectTarget(request);
    const { assigneeEmail } = codec.readAssignee(xmlBody(request, 'SetAssigneeRequest'));
    return sendXml(reply, codec.assignee(await services.workflow.setAssignee(callerOf(request), t.programId, t.projectId, assigneeEmail)));
  });
}
