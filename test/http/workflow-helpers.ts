import assert from 'node:assert/strict';
import { before } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import type { TestDialect } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { assertValidXml, attr, attrs, type HttpHarness, NS, type Who } from '../support/http-harness.ts';
import { seedWorkflowProgram, WF } from '../support/workflow-fixtures.ts';
import { PROGRAM, projectPath, sharedHarness } from './http-helpers.ts';

/** Like sharedHarness, with the fixture program replaced by the workflow fixture (staff-only form, final status, notes, tags). */
export function sharedWorkflowHarness(dialect: TestDialect, env: Record<string, string> = {}): () => HttpHarness {
  const harness = sharedHarness(dialect, env);
  before(async () => {
    await seedWorkflowProgram(harness().store);
  });
  return harness;
}

/** The paths of the workflow and export operations of one project. */
export const urls = {
  status: (projectId: string) => `${projectPath(projectId)}/Status`,
  history: (projectId: string) => `${projectPath(projectId)}/StatusHistory`,
  reportAs: (projectId: string) => `${projectPath(projectId)}/StatusHistory/ReportAs`,
  assignee: (projectId: string) => `${projectPath(projectId)}/Assignee`,
  allData: (projectId: string) => `${projectPath(projectId)}/Data`,
  export: (projectId: string) => `${projectPath(projectId)}/Export`,
  byData: `${PROGRAM}/Projects/ByData`,
};

/** A SetProjectStatusRequest body. */
export function statusRequest(statusRef: string, ns = NS): string {
  return `<SetProjectStatusRequest xmlns="${ns}" StatusId="${statusRef}"/>`;
}

/** A SetProjectStatusHistoryReportAs body. */
export function reportAsRequest(statusRef: string, timestamp: string, reportAs: string): string {
  return `<SetProjectStatusHistoryReportAs xmlns="${NS}" StatusId="${statusRef}" Timestamp="${timestamp}" ReportAs="${reportAs}"/>`;
}

/** A SetAssigneeRequest body; null leaves AssigneeEmail out. */
export function assigneeRequest(email: string | null): string {
  return email === null
    ? `<SetAssigneeRequest xmlns="${NS}"/>`
    : `<SetAssigneeRequest xmlns="${NS}"><AssigneeEmail>${email}</AssigneeEmail></SetAssigneeRequest>`;
}

/** The filters of a ProjectByDataRequest, written as the XML attributes say them. */
export interface ByData {
  statuses?: { operation: string; ids: string[] };
  dates?: { id: string; dateTime: string; operator: string }[];
  fields?: { id: string; content?: string; operator?: string }[];
}

/** A ProjectByDataRequest body. */
export function byDataRequest(q: ByData, ns = NS): string {
  const statuses = q.statuses
    ? `<FilterByCurrentStatuses Operation="${q.statuses.operation}">${q.statuses.ids.map((id) => `<Status Id="${id}"/>`).join('')}</FilterByCurrentStatuses>`
    : '';
  const dates = (q.dates ?? []).map((d) => `<FilterByStatusDate Id="${d.id}" DateTime="${d.dateTime}" Operator="${d.operator}"/>`).join('');
  const fields = q.fields
    ? `<DataFields>${q.fields.map((f) => `<Field Id="${f.id}"${f.content === undefined ? '' : ` Content="${f.content}"`}${f.operator ? ` Operator="${f.operator}"` : ''}/>`).join('')}</DataFields>`
    : '';
  return `<ProjectByDataRequest xmlns="${ns}">${statuses}${dates}${fields}</ProjectByDataRequest>`;
}

/** The first element called `name` whose attribute `key` is `value`, as text (self-closing or with its content). */
export function elementWith(xml: string, name: string, key: string, value: string): string {
  const m = new RegExp(`<${name}\\b[^>]*?\\s${key}="${value}"[^>]*?(/>|>.*?</${name}>)`, 's').exec(xml);
  assert.ok(m, `no <${name} ${key}="${value}"> in\n${xml}`);
  return m[0];
}

/** The attributes of every element called `name`, in document order, as plain objects. */
export function elements(xml: string, name: string): Record<string, string>[] {
  return [...xml.matchAll(new RegExp(`<${name}\\b([^>]*?)/?>`, 'g'))].map((m) =>
    Object.fromEntries([...m[1]!.matchAll(/\s([\w:]+)="([^"]*)"/g)].map((a) => [a[1]!, a[2]!])));
}

/**
 * Everything a refused workflow request could have changed about one project, read straight from the store:
 * the project row (status, assignee, updatedAt, version), every draft of every form, every submitted value,
 * the history (with report_as) and the audit rows.
 */
export async function workflowState(h: HttpHarness, projectId: string) {
  const byField = <T extends { fieldId: string }>(vs: T[]) => [...vs].sort((a, b) => a.fieldId.localeCompare(b.fieldId));
  return {
    project: await h.store.projects.getProject(IDS.program, projectId),
    drafts: await Promise.all([IDS.form, WF.review, WF.archive].map(async (f) => byField(await h.store.projects.getDraft(projectId, f)))),
    values: byField(await h.store.projects.getAllValues(projectId)),
    history: await h.store.projects.getHistory(projectId),
    audit: await h.store.audit.list({ projectId }),
    events: await h.store.events.listProjectEvents(projectId),
  };
}

/** Sends SetProjectStatus as `who` (the clock moves on first) and expects 200. */
export async function setStatus(h: HttpHarness, projectId: string, statusRef: string, who: Who = 'admin'): Promise<LightMyRequestResponse> {
  h.clock.advance();
  const res = await h.request({ method: 'POST', url: urls.status(projectId), as: who, body: statusRequest(statusRef) });
  assert.equal(res.statusCode, 200, res.body);
  return res;
}

/** The ids GetProjects lists with changed_since, and the answer's RequestTimestamp (for the next poll). */
export async function changedSince(h: HttpHarness, since: string, who: Who = 'admin'): Promise<{ ids: string[]; requestTimestamp: string }> {
  const res = await h.request({ method: 'GET', url: `${PROGRAM}/Projects?changed_since=${encodeURIComponent(since)}`, as: who });
  assert.equal(res.statusCode, 200, res.body);
  assertValidXml(h, res, 'ProjectsResponse');
  return { ids: attrs(res.body, 'Project', 'ProjectId'), requestTimestamp: attr(res.body, 'ProjectsResponse', 'RequestTimestamp')! };
}
