import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import type { Privilege } from '../../src/domain/roles/privileges.ts';
import type { Automation } from '../../src/model/automation.ts';
import { forEachDialect, type TestDialect } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { assertError, assertValidXml, attr, authHeaders, dataRequest, type HttpHarness, type Identity, NS } from '../support/http-harness.ts';
import { assertJsonError, JSON_ANSWER, JSON_BODY } from '../support/json-answers.ts';
import { type RoleSpec, roleWith, roleWithout, seedProgramRoles } from '../support/program-roles.ts';
import { WF, workflowProgramRows } from '../support/workflow-fixtures.ts';
import { COMPLETE, createProject, createSubmitted, dataPath, draftPath, ownerRequest, PROGRAM, projectPath } from './http-helpers.ts';
import { noteRequest } from './inquiry-helpers.ts';
import { WEBHOOKS } from './webhook-helpers.ts';
import { assigneeRequest, sharedWorkflowHarness, statusRequest, urls, workflowState } from './workflow-helpers.ts';

// The program file's own roles: each privilege allows its operation to a role that holds it (with what it needs
// besides to reach the operation), and a role holding every other privilege is refused — 403 naming the privilege
// (404 for readProjects: a project one may not read is reported as missing) — and nothing changes.

type Format = 'xml' | 'json';
interface Prepared { projectId: string }
interface Request { method: string; url: string; xml?: string; json?: string }

/** One privilege and the operation it opens. */
interface PrivilegeCase {
  privilege: Privilege;
  operation: string;
  /** What else the role needs to reach the operation (e.g. readProjects to read someone else's project). */
  needs?: Privilege[];
  /** Privileges the refused role must lack too, since they would allow the same (editData beside editOwnProjects). */
  alsoWithout?: Privilege[];
  /** The project the request is about, made by the built-in identities; `holder` is the user of the role asking. */
  prepare(h: HttpHarness, holder: Identity): Promise<Prepared>;
  request(p: Prepared): Request;
  /** The answer of the refused role (403 FORBIDDEN unless said). */
  refused?: { status: number; code: string };
}

const withRole = (p: Privilege) => `with-${p}`;
const withoutRole = (p: Privilege) => `without-${p}`;

const submitted = async (h: HttpHarness) => ({ projectId: (await createSubmitted(h, 'applicant')).projectId });
const draft = async (h: HttpHarness) => ({ projectId: await createProject(h, 'applicant') });

const CASES: PrivilegeCase[] = [
  {
    privilege: 'readProjects', operation: 'GetProjectData', prepare: submitted, refused: { status: 404, code: 'NOT_FOUND' },
    request: (p) => ({ method: 'GET', url: dataPath(p.projectId) }),
  },
  {
    privilege: 'createProjects', operation: 'CreateNewProject', prepare: submitted,
    request: () => ({ method: 'POST', url: `${PROGRAM}/NewProject` }),
  },
  {
    privilege: 'editOwnProjects', operation: 'SetProjectData (draft) on one\'s own project', alsoWithout: ['editData'],
    prepare: async (h, holder) => {
      const projectId = await createProject(h, 'applicant');
      const res = await h.request({ method: 'POST', url: `${projectPath(projectId)}/Owner`, as: 'admin', body: ownerRequest(holder.email) });
      assert.equal(res.statusCode, 200, res.body);
      return { projectId };
    },
    request: (p) => ({ method: 'POST', url: draftPath(p.projectId), xml: dataRequest({ kw: '8.5' }), json: jsonData({ kw: '8.5' }) }),
  },
  {
    privilege: 'editData', operation: 'SetProjectData (draft)', needs: ['readProjects'], prepare: draft,
    request: (p) => ({ method: 'POST', url: draftPath(p.projectId), xml: dataRequest({ kw: '8.5' }), json: jsonData({ kw: '8.5' }) }),
  },
  {
    privilege: 'overrideForms', operation: 'SetProjectData (submitted data)', needs: ['readProjects', 'editData'], prepare: submitted,
    request: (p) => ({ method: 'POST', url: dataPath(p.projectId), xml: dataRequest({ ...COMPLETE, size: [...COMPLETE.size], kw: '9' }), json: jsonData({ ...COMPLETE, kw: '9' }) }),
  },
  {
    privilege: 'changeOwner', operation: 'SetProjectOwner', needs: ['readProjects'], prepare: draft,
    request: (p) => ({ method: 'POST', url: `${projectPath(p.projectId)}/Owner`, xml: ownerRequest('user00000004@example.org'), json: JSON.stringify({ OwnerEmail: 'user00000004@example.org' }) }),
  },
  {
    privilege: 'assign', operation: 'SetAssignee', needs: ['readProjects'], prepare: submitted,
    request: (p) => ({ method: 'POST', url: urls.assignee(p.projectId), xml: assigneeRequest('user00000004@example.org'), json: JSON.stringify({ AssigneeEmail: 'user00000004@example.org' }) }),
  },
  {
    privilege: 'reviewAttachments', operation: 'SetAttachmentMetadata', needs: ['readProjects'],
    prepare: async (h) => {
      const projectId = await createProject(h, 'applicant');
      const res = await h.app.inject({
        method: 'POST', url: `${projectPath(projectId)}/Forms/application/Attachments/photo`, payload: Buffer.from('\x89PNG\r\n\x1a\n a site photo', 'latin1'),
        headers: { ...authHeaders(h.who.applicant), 'content-type': 'image/png', 'content-disposition': 'attachment; filename="site.png"' },
      });
      assert.equal(res.statusCode, 200, res.body);
      return { projectId };
    },
    request: (p) => ({
      method: 'POST', url: `${projectPath(p.projectId)}/Attachments/photo/Metadata`,
      xml: `<SetAttachmentMetadata xmlns="${NS}" AttachmentStatus="Approve"/>`, json: JSON.stringify({ AttachmentStatus: 'Approve' }),
    }),
  },
  {
    privilege: 'inquiries', operation: 'SetInquiryNote', needs: ['readProjects'], prepare: submitted,
    request: (p) => ({
      method: 'POST', url: `${projectPath(p.projectId)}/InquiryNotes`,
      xml: noteRequest({ subject: 'Setbacks', text: 'Please show them.' }), json: JSON.stringify({ Subject: 'Setbacks', Text: 'Please show them.' }),
    }),
  },
  {
    privilege: 'moveStatus', operation: 'SetProjectStatus', needs: ['readProjects'], prepare: submitted,
    request: (p) => ({ method: 'POST', url: urls.status(p.projectId), xml: statusRequest('approved'), json: JSON.stringify({ StatusId: 'approved' }) }),
  },
  {
    privilege: 'readHistory', operation: 'GetProjectStatusHistory', needs: ['readProjects'], prepare: submitted,
    request: (p) => ({ method: 'GET', url: urls.history(p.projectId) }),
  },
  {
    privilege: 'readAllData', operation: 'GetAllProjectData', needs: ['readProjects'], prepare: submitted,
    request: (p) => ({ method: 'GET', url: urls.allData(p.projectId) }),
  },
  {
    privilege: 'export', operation: 'GetExportProject', needs: ['readProjects'], prepare: submitted,
    request: (p) => ({ method: 'GET', url: urls.export(p.projectId) }),
  },
  {
    privilege: 'manageWebhooks', operation: 'GetWebhookSubscriptions', prepare: submitted,
    request: () => ({ method: 'GET', url: WEBHOOKS }),
  },
  {
    privilege: 'manageDeadlines', operation: 'StartProjectDeadline', needs: ['readProjects'], prepare: submitted,
    request: (p) => ({ method: 'POST', url: `${projectPath(p.projectId)}/Deadlines/answer/Start` }),
  },
  {
    // NIGHTLY runs on every submitted project: a run now that was let through would change the prepared one.
    privilege: 'runAutomations', operation: 'RunAutomationSchedule', prepare: submitted,
    request: () => ({ method: 'POST', url: `${PROGRAM}/Automations/nightly/Schedule/Run` }),
  },
];

/** A daily schedule of the program, for RunAutomationSchedule: an event on each submitted project. */
const NIGHTLY: Automation = {
  customId: 'nightly', name: 'Nightly', if: null, actions: [{ do: 'emitEvent', name: 'nightly' }],
  when: { trigger: 'schedule', at: '23:00', formId: null, statusId: IDS.submitted, fieldId: null, attachmentId: null, approval: null, by: null },
};

function jsonData(values: Record<string, string | readonly string[]>): string {
  const fields = Object.entries(values).map(([id, v]) => (typeof v === 'string' ? { DataFieldId: id, Value: v } : { DataFieldId: id, Values: { Value: [...v] } }));
  return JSON.stringify({ Project: { DataFields: { DataField: fields } } });
}

/** Everything a refused request could have changed: the project (data, drafts, history, audit, events), its files and threads, the program's projects. */
async function state(h: HttpHarness, projectId: string) {
  const threads = await h.store.inquiries.listThreads(projectId);
  return {
    ...(await workflowState(h, projectId)),
    files: await h.store.attachments.listActiveAttachments(projectId),
    threads, notes: await Promise.all(threads.map((t) => h.store.inquiries.listNotes(t.id))),
    deadlines: await h.store.deadlines.listProjectDeadlines(projectId),
    projects: (await h.store.projects.listProjects({ programId: IDS.program, limit: 1000, offset: 0 })).map((p) => p.id).sort(),
  };
}

function send(h: HttpHarness, as: Identity, r: Request, format: Format): Promise<LightMyRequestResponse> {
  const body = format === 'xml' ? r.xml : r.json;
  const headers = format === 'xml'
    ? { ...authHeaders(as), ...(body === undefined ? {} : { 'content-type': 'application/xml' }) }
    : { ...authHeaders(as), ...(body === undefined ? JSON_ANSWER : JSON_BODY) };
  return h.app.inject({ method: r.method as 'GET', url: r.url, payload: body, headers });
}

/** Asserts an error answer in the format asked for and returns its message. */
function refusal(h: HttpHarness, res: LightMyRequestResponse, format: Format, status: number, code: string): string {
  if (format === 'json') return assertJsonError(res, status, code);
  assertError(h, res, status, code);
  return (attr(res.body, 'ErrorResponse', 'Message') ?? '').replaceAll('&quot;', '"');
}

/** The roles every case needs: one holding the privilege (and what it needs), one holding every other privilege. */
const ROLES: RoleSpec[] = [
  ...CASES.flatMap((c) => [
    { customId: withRole(c.privilege), privileges: roleWith(c.privilege, c.needs) },
    { customId: withoutRole(c.privilege), privileges: roleWithout(c.privilege, c.alsoWithout) },
  ]),
  // Moves only Submitted → Approved; the workflow also has Submitted → Draft.
  { customId: 'approver', privileges: ['readProjects', 'moveStatus'], transitions: [{ from: IDS.submitted, to: [WF.approved] }] },
  { customId: 'revealer', privileges: ['readProjects', 'revealSensitive'] },
  { customId: 'nothing', privileges: [] },
];

forEachDialect('HTTP program roles', ({ dialect }) => {
  const harness = sharedHarnessWithRoles(dialect);

  for (const format of ['xml', 'json'] as const) {
    describe(`each privilege opens its operation (${format})`, () => {
      for (const c of CASES) {
        it(`${c.privilege}: ${c.operation} is allowed with it`, async () => {
          const { h, who } = harness();
          const holder = who[withRole(c.privilege)]!;
          const p = await c.prepare(h, holder);
          h.clock.advance();
          const res = await send(h, holder, c.request(p), format);
          assert.equal(res.statusCode, 200, res.body);
          if (format === 'xml') assertValidXml(h, res);
          else assert.match(String(res.headers['content-type']), /^application\/json/);
        });

        it(`${c.privilege}: ${c.operation} is refused without it, and changes nothing`, async () => {
          const { h, who } = harness();
          const holder = who[withoutRole(c.privilege)]!;
          const p = await c.prepare(h, holder);
          const before = await state(h, p.projectId);
          h.clock.advance();
          const res = await send(h, holder, c.request(p), format);
          const { status, code } = c.refused ?? { status: 403, code: 'FORBIDDEN' };
          const message = refusal(h, res, format, status, code);
          if (status === 403) assert.match(message, new RegExp(c.privilege), 'the refusal names the privilege');
          assert.deepEqual(await state(h, p.projectId), before);
        });
      }
    });
  }

  describe('transitions', () => {
    it('a role limited to some transitions makes those, and is refused the others naming the transition; nothing changes', async () => {
      const { h, who } = harness();
      for (const format of ['xml', 'json'] as const) {
        const { projectId } = await createSubmitted(h, 'applicant');
        const before = await state(h, projectId);
        h.clock.advance();
        const refused = await send(h, who.approver!, { method: 'POST', url: urls.status(projectId), xml: statusRequest('draft'), json: JSON.stringify({ StatusId: 'draft' }) }, format);
        const message = refusal(h, refused, format, 403, 'FORBIDDEN');
        assert.match(message, /from "Submitted" to "Draft"/);
        assert.deepEqual(await state(h, projectId), before);
        h.clock.advance();
        const moved = await send(h, who.approver!, { method: 'POST', url: urls.status(projectId), xml: statusRequest('approved'), json: JSON.stringify({ StatusId: 'approved' }) }, format);
        assert.equal(moved.statusCode, 200, moved.body);
        assert.equal((await h.store.projects.getProject(IDS.program, projectId))?.statusId, WF.approved);
      }
    });

    it('the workflow comes first: a move the workflow does not have is TRANSITION_NOT_ALLOWED whatever the role', async () => {
      const { h, who } = harness();
      const projectId = await createProject(h, 'applicant');
      const res = await send(h, who.approver!, { method: 'POST', url: urls.status(projectId), xml: statusRequest('approved') }, 'xml');
      assertError(h, res, 409, 'TRANSITION_NOT_ALLOWED');
    });
  });

  describe('revealSensitive and staff', () => {
    it('revealSensitive passes the privilege check (a second factor is still needed); without it the privilege is missing', async () => {
      const { h, who } = harness();
      const { projectId } = await createSubmitted(h, 'applicant');
      const url = `${dataPath(projectId)}?reveal_sensitive_data=true`;
      const withIt = await send(h, who.revealer!, { method: 'GET', url }, 'json');
      assert.match(assertJsonError(withIt, 403, 'SENSITIVE_DATA_NOT_ALLOWED'), /multi-factor/);
      const without = await send(h, who[withRole('readProjects')]!, { method: 'GET', url }, 'json');
      assert.match(assertJsonError(without, 403, 'SENSITIVE_DATA_NOT_ALLOWED'), /privilege/);
    });

    it('a role of the program with readProjects may be assigned; one without it may not', async () => {
      const { h, who } = harness();
      const { projectId } = await createSubmitted(h, 'applicant');
      const assign = (email: string) => h.request({ method: 'POST', url: urls.assignee(projectId), as: 'admin', body: assigneeRequest(email) });
      assertError(h, await assign(who.nothing!.email), 422, 'UNKNOWN_USER');
      const res = await assign(who.approver!.email);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal((await h.store.projects.getProject(IDS.program, projectId))?.assigneeId, who.approver!.id);
    });

    it('a role with no privileges reads only its own projects and creates none', async () => {
      const { h, who } = harness();
      await createSubmitted(h, 'applicant');
      const list = await send(h, who.nothing!, { method: 'GET', url: `${PROGRAM}/Projects?limit=100&version=2` }, 'xml');
      assert.equal(list.statusCode, 200, list.body);
      assert.doesNotMatch(list.body, /ProjectId=/);
      assertError(h, await send(h, who.nothing!, { method: 'POST', url: `${PROGRAM}/NewProject` }, 'xml'), 403, 'FORBIDDEN');
    });
  });
});

/** One harness per dialect on the workflow fixture, with the roles above and a user holding each. */
function sharedHarnessWithRoles(dialect: TestDialect) {
  const harness = sharedWorkflowHarness(dialect);
  let who: Record<string, Identity> | undefined;
  before(async () => {
    const rows = workflowProgramRows();
    who = await seedProgramRoles(harness().store, { ...rows, program: { ...rows.program, automations: [NIGHTLY] } }, ROLES);
  });
  return () => {
    if (!who) throw new Error('the roles are seeded in before()');
    return { h: harness(), who };
  };
}
