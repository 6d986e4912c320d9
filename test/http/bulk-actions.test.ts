import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { forEachDialect } from '../support/databases.ts';
import { IDS, project } from '../support/fixtures.ts';
import { authHeaders, type HttpHarness, type Who } from '../support/http-harness.ts';
import { WF, workflowProgramRows } from '../support/workflow-fixtures.ts';
import { createSubmitted, programState } from './http-helpers.ts';
import { column, csrfFrom, webGet } from './web-page-helpers.ts';
import { setStatus, sharedWorkflowHarness } from './workflow-helpers.ts';

// Bulk actions of the work queue (POST /Projects/ProjectList/Bulk, result at /Projects/ProjectList/Bulk/<id>): each
// project goes through the single action's service and change step, with its privileges and guards; refusals are
// listed per project and change nothing; a retry with the form's key shows the stored result and changes nothing more.

const BULK = '/Projects/ProjectList/Bulk';
const QUEUE = `/Projects/ProjectList?ProgramId=${IDS.program}`;

/** The workflow fixture with reasons (back to Draft needs one; Approved lists Fast) and a named mail template. */
async function seedProgram(h: HttpHarness): Promise<void> {
  const rows = workflowProgramRows(Date.now());
  rows.program = { ...rows.program, mailTemplates: [{ customId: 'nudge', subject: 'About {{projectNumber}}', text: 'Project {{projectNumber}} is {{status}}: {{link}}' }] };
  rows.statuses[0] = { ...rows.statuses[0]!, reasons: [{ customId: 'Incomplete', name: 'Documents missing' }], reasonRequired: true };
  rows.statuses[2] = { ...rows.statuses[2]!, reasons: [{ customId: 'Fast', name: 'Fast track' }] };
  await h.store.transaction((tx) => tx.programs.saveProgramDefinition(rows));
}

type Fields = Record<string, string | string[]>;

/** Posts the bulk form as `who` (with the page's CSRF token unless `csrf` is false). */
async function bulkPost(h: HttpHarness, who: Who, fields: Fields, csrf = true): Promise<LightMyRequestResponse> {
  const pair = await csrfFrom(h, who);
  const body = new URLSearchParams();
  if (csrf) body.append('_csrf', pair.token);
  body.append('ProgramId', IDS.program);
  for (const [k, v] of Object.entries(fields)) for (const x of [v].flat()) body.append(k, x);
  h.clock.advance();
  return h.app.inject({
    method: 'POST', url: BULK, payload: body.toString(),
    headers: { authorization: authHeaders(h.who[who]).authorization!, 'content-type': 'application/x-www-form-urlencoded', cookie: pair.cookie },
  });
}

/** Follows a bulk post's 303 to its result page; returns the page and the bulk action's id. */
async function resultOf(h: HttpHarness, who: Who, res: LightMyRequestResponse): Promise<{ html: string; id: string; location: string }> {
  assert.equal(res.statusCode, 303, res.body.slice(0, 600));
  const location = String(res.headers.location);
  const id = new RegExp(`^${BULK}/([^?]+)\\?`).exec(location)?.[1];
  assert.ok(id, location);
  const page = await webGet(h, location, who);
  assert.equal(page.statusCode, 200, page.body.slice(0, 600));
  return { html: page.body, id, location };
}

const text = (s: string) => s.replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&amp;', '&');

/** The result table as [project, outcome, what happened] rows. */
function outcomes(html: string): [string, string, string][] {
  const projects = column(html, 'Project');
  const outcome = column(html, 'Outcome');
  const what = column(html, 'What happened').map(text);
  return projects.map((p, i) => [p, outcome[i]!, what[i]!]);
}

async function auditOf(h: HttpHarness, projectId: string, action: string) {
  return (await h.store.audit.list({ projectId, action })).map((a) => a.detail);
}

forEachDialect('HTTP bulk actions', ({ dialect }) => {
  const harness = sharedWorkflowHarness(dialect);
  before(async () => {
    await seedProgram(harness());
  });

  describe('assign', () => {
    it('assigns every ticked project through SetAssignee, audits each with the bulk action id, and records who ran it', async () => {
      const h = harness();
      const made = [await createSubmitted(h), await createSubmitted(h), await createSubmitted(h)];
      const res = await bulkPost(h, 'editor', { BulkKey: randomUUID(), Action: 'assign', Scope: 'selected', Email: h.who.reader.email, ProjectId: made.map((m) => m.projectId) });
      const { html, id } = await resultOf(h, 'editor', res);
      assert.deepEqual(outcomes(html), made.map((m) => [m.number, 'Done', `Assigned to User ${h.who.reader.id} (was unassigned)`]));
      assert.match(html, /3 done, 0 unchanged, 0 refused\./);
      // The heading names the assignee as the rows do, by name, not by e-mail address.
      assert.match(html, new RegExp(`<h1>Bulk action: Assign to User ${h.who.reader.id}</h1>`));
      assert.ok(!html.includes(h.who.reader.email), 'no e-mail address on the page');
      for (const m of made) {
        assert.equal((await h.store.projects.getProject(IDS.program, m.projectId))!.assigneeId, h.who.reader.id);
        assert.deepEqual(await auditOf(h, m.projectId, 'project.assignee.set'), [{ from: null, to: h.who.reader.id, bulkActionId: id }]);
      }
      const run = await h.store.audit.list({ action: 'bulk_action.run' });
      const mine = run.find((a) => a.detail?.bulkActionId === id);
      assert.ok(mine);
      assert.equal(mine.actorId, h.who.editor.id);
      assert.deepEqual(mine.detail, { bulkActionId: id, kind: 'assign', scope: 'selected', projects: 3 });
    });

    it('unassigns, and lists a project already so as unchanged (no second audit row)', async () => {
      const h = harness();
      const a = await createSubmitted(h);
      const b = await createSubmitted(h);
      const first = await bulkPost(h, 'admin', { BulkKey: randomUUID(), Action: 'assign', Email: h.who.editor.email, ProjectId: [a.projectId] });
      await resultOf(h, 'admin', first);
      const res = await bulkPost(h, 'admin', { BulkKey: randomUUID(), Action: 'assign', Email: '', ProjectId: [a.projectId, b.projectId] });
      const { html } = await resultOf(h, 'admin', res);
      assert.deepEqual(outcomes(html), [[a.number, 'Done', `Unassigned (was User ${h.who.editor.id})`], [b.number, 'Unchanged', 'Already so; nothing changed']]);
      assert.equal((await h.store.projects.getProject(IDS.program, a.projectId))!.assigneeId, null);
      assert.equal((await auditOf(h, b.projectId, 'project.assignee.set')).length, 0);
    });

    it('refuses per project an assignee who is no staff member, and changes nothing', async () => {
      const h = harness();
      const a = await createSubmitted(h);
      const before = await programState(h);
      const res = await bulkPost(h, 'admin', { BulkKey: randomUUID(), Action: 'assign', Email: h.who.applicant.email, ProjectId: [a.projectId] });
      const { html } = await resultOf(h, 'admin', res);
      assert.equal(outcomes(html)[0]![1], 'Refused');
      assert.match(outcomes(html)[0]![2], /No active staff member/);
      const after = await programState(h);
      assert.deepEqual(after.projects, before.projects);
      assert.deepEqual(after.events, before.events);
    });
  });

  describe('status move', () => {
    it('moves the projects the workflow allows, with the reason, and lists the one it refuses, which is left as it was', async () => {
      const h = harness();
      const a = await createSubmitted(h);
      const b = await createSubmitted(h);
      const done = await createSubmitted(h);
      await setStatus(h, done.projectId, 'approved');
      const untouched = await h.store.projects.getProject(IDS.program, done.projectId);
      const res = await bulkPost(h, 'programAdmin', { BulkKey: randomUUID(), Action: 'status', StatusId: WF.approved, ReasonId: 'Fast', Message: 'Cleared in bulk', ProjectId: [a.projectId, done.projectId, b.projectId] });
      const { html, id } = await resultOf(h, 'programAdmin', res);
      const rows = outcomes(html);
      assert.deepEqual(rows[0], [a.number, 'Done', 'Moved from Submitted to Approved']);
      assert.deepEqual(rows[2], [b.number, 'Done', 'Moved from Submitted to Approved']);
      assert.equal(rows[1]![1], 'Refused');
      assert.equal(rows[1]![2], 'A project in status "Approved" cannot move to "Approved"; allowed next: none (final status).');
      assert.match(html, /2 done, 0 unchanged, 1 refused\./);
      assert.deepEqual(await h.store.projects.getProject(IDS.program, done.projectId), untouched);
      for (const m of [a, b]) {
        const history = await h.store.projects.getHistory(m.projectId);
        assert.equal(history[0]!.statusId, WF.approved);
        assert.equal(history[0]!.reasonId, 'Fast');
        assert.equal(history[0]!.message, 'Cleared in bulk');
        assert.deepEqual(await auditOf(h, m.projectId, 'project.status.set'), [{ from: IDS.submitted, to: WF.approved, reasonId: 'Fast', bulkActionId: id }]);
      }
    });

    it('refuses each move without the reason the status requires, and changes nothing', async () => {
      const h = harness();
      const a = await createSubmitted(h);
      const before = await programState(h);
      const res = await bulkPost(h, 'admin', { BulkKey: randomUUID(), Action: 'status', StatusId: IDS.draft, ProjectId: [a.projectId] });
      const { html } = await resultOf(h, 'admin', res);
      assert.deepEqual(outcomes(html), [[a.number, 'Refused', 'A move to "Draft" needs a reason (ReasonId): one of Incomplete (Documents missing).']]);
      const after = await programState(h);
      assert.deepEqual(after.projects, before.projects);
      assert.deepEqual(after.events, before.events);
      const back = await bulkPost(h, 'admin', { BulkKey: randomUUID(), Action: 'status', StatusId: 'draft', ReasonId: 'Incomplete', ProjectId: [a.projectId] });
      assert.deepEqual(outcomes((await resultOf(h, 'admin', back)).html)[0]![1], 'Done');
      assert.equal((await h.store.projects.getProject(IDS.program, a.projectId))!.statusId, IDS.draft);
    });
  });

  describe('send a templated message', () => {
    it("queues the program's named template to each project's owner, audited per project", async () => {
      const h = harness();
      const a = await createSubmitted(h);
      const res = await bulkPost(h, 'admin', { BulkKey: randomUUID(), Action: 'mail', Template: 'nudge', ProjectId: [a.projectId] });
      const { html, id } = await resultOf(h, 'admin', res);
      assert.deepEqual(outcomes(html), [[a.number, 'Done', 'Mail "nudge" queued to the owner']]);
      const mail = (await h.store.mail.listMail()).filter((m) => m.subject === `About ${a.number}`);
      assert.equal(mail.length, 1);
      assert.equal(mail[0]!.to, h.who.applicant.email);
      assert.match(mail[0]!.text, new RegExp(`Project ${a.number} is Submitted: http`));
      assert.deepEqual(await auditOf(h, a.projectId, 'project.mail.sent'), [{ template: 'nudge', to: h.who.applicant.id, bulkActionId: id }]);
    });

    it('refuses per project a template the program does not have, and queues nothing', async () => {
      const h = harness();
      const a = await createSubmitted(h);
      const mails = (await h.store.mail.listMail()).length;
      const res = await bulkPost(h, 'admin', { BulkKey: randomUUID(), Action: 'mail', Template: 'nosuch', ProjectId: [a.projectId] });
      const rows = outcomes((await resultOf(h, 'admin', res)).html);
      assert.equal(rows[0]![1], 'Refused');
      assert.match(rows[0]![2], /has no mail template "nosuch"; its templates are nudge/);
      assert.equal((await h.store.mail.listMail()).length, mails);
    });
  });

  describe('export', () => {
    it("downloads the ticked projects as the queue's CSV, and all projects matching the filter", async () => {
      const h = harness();
      const a = await createSubmitted(h);
      const b = await createSubmitted(h);
      await createSubmitted(h);
      const res = await bulkPost(h, 'reader', { BulkKey: randomUUID(), Action: 'export', ProjectId: [a.projectId, b.projectId] });
      assert.equal(res.statusCode, 200, res.body.slice(0, 300));
      assert.match(String(res.headers['content-type']), /^text\/csv/);
      const lines = res.body.trim().split(/\r?\n/);
      assert.match(lines[0]!, /^Number,Project id,/);
      assert.deepEqual(lines.slice(1).map((l) => l.split(',')[0]).sort(), [a.number, b.number].sort());
      // The filter the queue shows: here by number.
      const byFilter = await bulkPost(h, 'reader', { BulkKey: randomUUID(), Action: 'export', Scope: 'filter', Filter: `ProgramId=${IDS.program}&number=${b.number}` });
      assert.equal(byFilter.statusCode, 200);
      assert.deepEqual(byFilter.body.trim().split(/\r?\n/).slice(1).map((l) => l.split(',')[0]), [b.number]);
    });

    it('exports the ticked projects with the columns the queue shows, as the export of the filter does', async () => {
      const h = harness();
      const a = await createSubmitted(h);
      const b = await createSubmitted(h);
      // The page's filter (here by b's number) does not narrow the ticked projects; its columns are kept.
      const shown = `ProgramId=${IDS.program}&number=${b.number}&col=status&col=assignee`;
      const ticked = await bulkPost(h, 'reader', { BulkKey: randomUUID(), Action: 'export', Filter: shown, ProjectId: [a.projectId, b.projectId] });
      assert.equal(ticked.statusCode, 200, ticked.body.slice(0, 300));
      const lines = ticked.body.trim().split(/\r?\n/);
      assert.equal(lines[0], 'Number,Project id,Status,Assignee');
      assert.deepEqual(lines.slice(1).map((l) => l.split(',')[0]).sort(), [a.number, b.number].sort());
      const byFilter = await bulkPost(h, 'reader', { BulkKey: randomUUID(), Action: 'export', Scope: 'filter', Filter: shown });
      assert.deepEqual(byFilter.body.trim().split(/\r?\n/), [lines[0], lines.find((l) => l.startsWith(`${b.number},`))]);
    });
  });

  describe('all projects matching the filter', () => {
    it('acts on the projects the filter matches, and on no other', async () => {
      const h = harness();
      const a = await createSubmitted(h);
      const b = await createSubmitted(h);
      const res = await bulkPost(h, 'admin', { BulkKey: randomUUID(), Action: 'assign', Email: h.who.programAdmin.email, Scope: 'filter', Filter: `ProgramId=${IDS.program}&number=${a.number}`, ProjectId: [b.projectId] });
      const { html } = await resultOf(h, 'admin', res);
      assert.deepEqual(outcomes(html).map((r) => r[0]), [a.number]);
      assert.match(html, /All projects matching the filters \(1\)/);
      assert.equal((await h.store.projects.getProject(IDS.program, a.projectId))!.assigneeId, h.who.programAdmin.id);
      assert.equal((await h.store.projects.getProject(IDS.program, b.projectId))!.assigneeId, null);
    });

    it('refuses a form with nothing selected, or a filter matching nothing, and changes nothing', async () => {
      const h = harness();
      const before = await programState(h);
      const none = await bulkPost(h, 'admin', { BulkKey: randomUUID(), Action: 'assign', Email: '' });
      assert.equal(none.statusCode, 400);
      assert.match(none.body, /Select at least one project/);
      const empty = await bulkPost(h, 'admin', { BulkKey: randomUUID(), Action: 'assign', Email: '', Scope: 'filter', Filter: `ProgramId=${IDS.program}&number=NOPE-1` });
      assert.equal(empty.statusCode, 400);
      assert.match(empty.body, /No projects match the filter/);
      const badFilter = await bulkPost(h, 'admin', { BulkKey: randomUUID(), Action: 'assign', Email: '', Scope: 'filter', Filter: `ProgramId=${IDS.program}&submittedFrom=yesterday` });
      assert.equal(badFilter.statusCode, 400);
      assert.match(badFilter.body, /Submitted from must be a date/);
      assert.deepEqual(await programState(h), before);
    });
  });

  describe('the bound of 1,000 projects', () => {
    it('refuses a filter matching more than 1,000 projects, or more than 1,000 ticked, and changes nothing', async () => {
      const h = harness();
      // 1,001 projects in the initial status, loaded as the benchmark loads them; the filter takes that status.
      const many = Array.from({ length: 1001 }, (_, i) => project(`BULKMANY${String(i).padStart(4, '0')}`, { statusId: WF.approved }));
      await h.store.bulk.bulkInsert({ projects: many, values: [], history: [] });
      const before = await programState(h);
      const filtered = await bulkPost(h, 'admin', { BulkKey: randomUUID(), Action: 'assign', Email: h.who.editor.email, Scope: 'filter', Filter: `ProgramId=${IDS.program}&status=${WF.approved}` });
      assert.equal(filtered.statusCode, 400);
      assert.match(text(filtered.body), /A bulk action takes at most 1,000 projects; narrow the filter or select fewer\./);
      const ticked = await bulkPost(h, 'admin', { BulkKey: randomUUID(), Action: 'assign', Email: h.who.editor.email, ProjectId: many.map((p) => p.id) });
      assert.equal(ticked.statusCode, 400);
      assert.deepEqual(await programState(h), before);
      // 1,000 of them are taken, every one changed.
      const { html } = await resultOf(h, 'admin', await bulkPost(h, 'admin', { BulkKey: randomUUID(), Action: 'assign', Email: h.who.editor.email, ProjectId: many.slice(1).map((p) => p.id) }));
      assert.match(html, /1000 done, 0 unchanged, 0 refused\./);
    });
  });

  describe('retry with the same key', () => {
    it('shows the stored result and changes nothing more; the key with another action is refused', async () => {
      const h = harness();
      const a = await createSubmitted(h);
      const b = await createSubmitted(h);
      const key = randomUUID();
      const form = { BulkKey: key, Action: 'status', StatusId: 'approved', ProjectId: [a.projectId, b.projectId] };
      const first = await resultOf(h, 'admin', await bulkPost(h, 'admin', form));
      // Someone moves b back meanwhile; a retry must not move it again.
      await bulkPost(h, 'admin', { BulkKey: randomUUID(), Action: 'assign', Email: h.who.editor.email, ProjectId: [b.projectId] });
      const before = await programState(h);
      const again = await resultOf(h, 'admin', await bulkPost(h, 'admin', form));
      assert.equal(again.id, first.id);
      assert.match(again.location, /retry=1/);
      assert.match(again.html, /already carried out; this is its result\. Nothing was changed again\./);
      assert.deepEqual(outcomes(again.html), outcomes(first.html));
      assert.deepEqual(await programState(h), before);
      const other = await bulkPost(h, 'admin', { ...form, Action: 'assign', Email: '' });
      assert.equal(other.statusCode, 422);
      assert.match(other.body, /already used for another bulk action/);
      assert.deepEqual(await programState(h), before);
    });

    it('refuses a form without a key', async () => {
      const h = harness();
      const a = await createSubmitted(h);
      const before = await programState(h);
      const res = await bulkPost(h, 'admin', { Action: 'assign', Email: '', ProjectId: [a.projectId] });
      assert.equal(res.statusCode, 400);
      assert.deepEqual(await programState(h), before);
    });
  });

  describe('access', () => {
    it('a reader without the privileges is refused per project, and nothing changes', async () => {
      const h = harness();
      const a = await createSubmitted(h);
      const before = await programState(h);
      const projectAudit = await h.store.audit.list({ projectId: a.projectId });
      const forms: Fields[] = [{ Action: 'assign', Email: h.who.reader.email }, { Action: 'status', StatusId: 'approved' }, { Action: 'mail', Template: 'nudge' }];
      for (const form of forms) {
        const { html } = await resultOf(h, 'reader', await bulkPost(h, 'reader', { BulkKey: randomUUID(), ...form, ProjectId: [a.projectId] }));
        const [row] = outcomes(html);
        assert.equal(row![1], 'Refused', String(form.Action));
        assert.match(row![2], /privilege/i);
      }
      const after = await programState(h);
      assert.deepEqual(after.projects, before.projects);
      assert.deepEqual(after.events, before.events);
      assert.deepEqual(await h.store.audit.list({ projectId: a.projectId }), projectAudit);
    });

    it("an applicant is refused on their own project and does not even see another's, and nothing changes", async () => {
      const h = harness();
      const own = await createSubmitted(h, 'applicant');
      const other = await createSubmitted(h, 'otherApplicant');
      const before = await programState(h);
      for (const form of [{ Action: 'status', StatusId: 'approved' }, { Action: 'assign', Email: h.who.applicant.email }] as Fields[]) {
        const { html } = await resultOf(h, 'applicant', await bulkPost(h, 'applicant', { BulkKey: randomUUID(), ...form, ProjectId: [own.projectId, other.projectId] }));
        const rows = outcomes(html);
        assert.deepEqual(rows[0]!.slice(0, 2), [own.number, 'Refused']);
        assert.match(rows[0]![2], /privilege/);
        // The other applicant's project is shown by the id sent, never by its number.
        assert.deepEqual(rows[1]!.slice(0, 2), [other.projectId, 'Refused']);
        assert.ok(!html.includes(other.number));
      }
      const after = await programState(h);
      assert.deepEqual(after.projects, before.projects);
      assert.deepEqual(after.events, before.events);
      // An applicant has no work queue, so nothing to filter.
      const filter = await bulkPost(h, 'applicant', { BulkKey: randomUUID(), Action: 'assign', Email: '', Scope: 'filter', Filter: `ProgramId=${IDS.program}` });
      assert.equal(filter.statusCode, 403);
    });

    it("shows a bulk action's result only to whoever ran it, and refuses a post without the CSRF token", async () => {
      const h = harness();
      const a = await createSubmitted(h);
      const { location } = await resultOf(h, 'admin', await bulkPost(h, 'admin', { BulkKey: randomUUID(), Action: 'assign', Email: '', ProjectId: [a.projectId] }));
      assert.equal((await webGet(h, location, 'editor')).statusCode, 404);
      assert.equal((await webGet(h, location, 'outsider')).statusCode, 403, 'no role in the program');
      const before = await programState(h);
      const forged = await bulkPost(h, 'admin', { BulkKey: randomUUID(), Action: 'assign', Email: h.who.editor.email, ProjectId: [a.projectId] }, false);
      assert.equal(forged.statusCode, 403);
      assert.deepEqual(await programState(h), before);
    });
  });

  describe('the queue page', () => {
    it('offers a checkbox per row and the bulk form with a fresh key, stating the bound', async () => {
      const h = harness();
      const page = await webGet(h, QUEUE, 'editor');
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /<input type="checkbox" id="select-[^"]+" form="bulk-form" name="ProjectId" value="[^"]+"\/>/);
      assert.match(page.body, /All projects matching the filters \(at most 1,000\)/);
      const key = /name="BulkKey" value="([^"]+)"/.exec(page.body)?.[1];
      const again = /name="BulkKey" value="([^"]+)"/.exec((await webGet(h, QUEUE, 'editor')).body)?.[1];
      assert.ok(key && again && key !== again);
      // The program's mail templates by their subject, placeholders in words, and what each says.
      const admin = (await webGet(h, QUEUE, 'admin')).body;
      assert.match(admin, /<option value="nudge">About ‹project number› \(nudge\)<\/option>/);
      assert.match(admin, /<dt>About ‹project number› \(nudge\)<\/dt><dd class="note-text">Project ‹project number› is ‹status›: ‹link to the project›<\/dd>/);
      // The status to move to has no default: the first choice is none, and a move without one is refused.
      assert.match(admin, /<select class="usa-select" id="bulk-status" name="StatusId"><option value>Choose a status<\/option><option value="[^"]+">/);
      assert.doesNotMatch(admin, /<select class="usa-select" id="bulk-status" name="StatusId">[\s\S]*?<option [^>]*selected[\s\S]*?<\/select>/);
      const a = await createSubmitted(h);
      const before = await programState(h);
      const unchosen = await bulkPost(h, 'admin', { BulkKey: randomUUID(), Action: 'status', StatusId: '', ProjectId: [a.projectId] });
      assert.equal(unchosen.statusCode, 400);
      assert.match(unchosen.body, /Choose the status to move the projects to\./);
      assert.deepEqual(await programState(h), before);
      // A reader may only export.
      const reader = (await webGet(h, QUEUE, 'reader')).body;
      const actions = [...reader.matchAll(/name="Action" value="([^"]+)"/g)].map((m) => m[1]);
      assert.deepEqual(actions, ['export']);
    });
  });
});
