import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { loadConfig } from '../../src/config.ts';
import { AccountService } from '../../src/domain/accounts/account-service.ts';
import { DEMO_AGENCY, DEMO_CREDENTIALS, seedDemo } from '../../src/domain/programs/demo.ts';
import { parseProgramFile } from '../../src/domain/programs/program-file.ts';
import { importProgram } from '../../src/domain/programs/program-import.ts';
import { programCheckers } from '../../src/domain/wiring/program-checkers.ts';
import { buildApp } from '../../src/http/app.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import type { ProgramModel } from '../../src/model/model.ts';
import { DatabaseBlobStore } from '../../src/store/database-blob-store.ts';
import { TestProgramService } from '../../src/domain/administration/test-program-service.ts';
import { ConsoleService } from '../../src/domain/administration/console-service.ts';
import { DIALECTS, openTestStore, type TestStore } from '../support/databases.ts';
import { dataRequest, NS, TestClock } from '../support/http-harness.ts';
import { assertJsonAnswer } from '../support/json-answers.ts';
import { ProjectRelationsResponse } from '../../src/wire/documents/relations.ts';

// Related projects (docs/programs.md, "Related projects"; GetProjectRelations and CreateRelatedProject in
// docs/interface.md): an incentive claim made from an interconnection by staff and by an automation at Permission to
// Operate, prefilled from chosen fields, audited with an event on both projects, made once per project by the
// automation, and never showing a related project (not even its number) to a caller who may not read it.

const ICX = `
customId: ICX
name: Interconnection
numberPrefix: ICX
fields:
  - { customId: Account, name: Account, type: text }
  - { customId: SizeKw, name: Size kW, type: number }
  - { customId: Phase, name: Phase, type: text }
statuses:
  - { customId: Unsubmitted, name: Unsubmitted, initial: true, next: [Submitted] }
  - { customId: Submitted, name: Submitted, next: [PTO] }
  - { customId: PTO, name: Permission to Operate, next: [Submitted] }
forms:
  - customId: Application
    name: Application
    availableIn: [Unsubmitted]
    leadsTo: Submitted
    fields: [Account, SizeKw, Phase]
relations:
  - customId: claim
    name: Incentive claim
    kind: child
    program: CLM
    copy: { Account: Account, SystemKw: SizeKw, Reference: Phase, NoSuchField: Account }
automations:
  - customId: claim-at-pto
    name: Open the incentive claim at Permission to Operate
    when: { trigger: status.entered, status: PTO }
    then:
      - { do: createRelatedProject, relation: claim }
`;

const CLM = `
customId: CLM
name: Incentive claim
numberPrefix: CLM
fields:
  - { customId: Account, name: Account, type: text }
  - { customId: SystemKw, name: System kW, type: number, max: 100 }
  - { customId: Reference, name: Reference, type: number }
statuses:
  - { customId: Unsubmitted, name: Unsubmitted, initial: true, next: [Submitted] }
  - { customId: Submitted, name: Submitted }
forms:
  - customId: Claim
    name: Claim
    availableIn: [Unsubmitted]
    leadsTo: Submitted
    fields:
      - field: Account
        validations:
          - { rule: "related.interconnection.status == 'PTO'", message: "A claim is submitted once its interconnection has Permission to Operate." }
      - SystemKw
      - Reference
relations:
  - { customId: interconnection, kind: parent, program: ICX }
automations:
  - customId: claim-in
    name: Note a claim whose interconnection may operate
    when: { trigger: form.submitted, form: Claim }
    if: "related.interconnection.status == 'PTO' && related.interconnection.number != ''"
    then:
      - { do: emitEvent, name: claim-in }
`;

// A claim whose rule reads the interconnection's values (not only its status): at most the interconnection's size.
const CLV = `
customId: CLV
name: Claim by size
numberPrefix: CLV
fields:
  - { customId: SystemKw, name: System kW, type: number }
statuses:
  - { customId: Unsubmitted, name: Unsubmitted, initial: true, next: [Submitted] }
  - { customId: Submitted, name: Submitted }
forms:
  - customId: Claim
    name: Claim
    availableIn: [Unsubmitted]
    leadsTo: Submitted
    fields:
      - field: SystemKw
        validations:
          - { rule: "has(related.interconnection.values.SizeKw) && SystemKw <= related.interconnection.values.SizeKw", message: "A claim is for at most the interconnection's size." }
relations:
  - { customId: interconnection, kind: parent, program: ICX }
`;

interface Person { email: string; password: string; apiKey: string }

const demo = (role: string): Person => DEMO_CREDENTIALS.find((c) => c.role === role)!;

for (const dialect of DIALECTS) {
  describe(`related projects [${dialect}]`, () => {
    let db: TestStore | undefined;
    let app: FastifyInstance | undefined;
    let icx: ProgramModel;
    let clm: ProgramModel;
    const clock = new TestClock();
    const admin = demo('admin');
    const applicant = demo('applicant');
    // An interconnection reviewer: editor of ICX, no role in CLM.
    const reviewer = demo('reviewer');
    const people: Record<'claims' | 'other', Person> = {
      claims: { email: 'claims@demo.apas.local', password: 'claims-password-1', apiKey: '' },
      other: { email: 'other@demo.apas.local', password: 'other-password-1', apiKey: '' },
    };

    before(async () => {
      db = await openTestStore(dialect);
      const ids = new RandomIdGenerator();
      const deps = { store: db.store, clock, ids, checkers: programCheckers() };
      await seedDemo(deps);
      await importProgram(deps, DEMO_AGENCY.customId, parseProgramFile(CLM));
      await importProgram(deps, DEMO_AGENCY.customId, parseProgramFile(ICX));
      await importProgram(deps, DEMO_AGENCY.customId, parseProgramFile(CLV));
      const accounts = new AccountService({ store: db.store, clock, ids });
      for (const p of Object.values(people)) {
        await accounts.createUser({ agency: DEMO_AGENCY.customId, email: p.email, name: p.email, password: p.password, agencyAdmin: false });
        p.apiKey = (await accounts.createApiKey(p.email)).key;
      }
      await accounts.grant(applicant.email, 'ICX', 'applicant');
      await accounts.grant(applicant.email, 'CLM', 'applicant');
      await accounts.grant(reviewer.email, 'ICX', 'editor');
      await accounts.grant(people.claims.email, 'CLM', 'editor');
      await accounts.grant(people.other.email, 'ICX', 'applicant');
      await accounts.grant(people.other.email, 'CLM', 'applicant');
      await accounts.grant(applicant.email, 'CLV', 'applicant');
      app = await buildApp({ config: loadConfig({ APAS_PUBLIC_URL: 'http://apas.test' }), store: db.store, clock, logger: false, blobs: new DatabaseBlobStore(db.store, clock) });
      const model = async (ref: string) => db!.store.programs.loadProgramModel((await db!.store.programs.findProgram(ref, (await db!.store.accounts.findAgency(DEMO_AGENCY.customId))!.id))!);
      icx = await model('ICX');
      clm = await model('CLM');
    });
    after(async () => {
      await app?.close();
      await db?.close();
    });

    function call(who: Person, method: 'GET' | 'POST' | 'DELETE', path: string, body?: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
      clock.advance();
      return app!.inject({
        method, url: `/services/v2/Programs/${path}`, payload: body,
        headers: {
          authorization: `Basic ${Buffer.from(`${who.email}:${who.password}`).toString('base64')}`, 'x-apikey': who.apiKey, accept: 'application/xml',
          ...(body !== undefined ? { 'content-type': 'application/xml' } : {}), ...headers,
        },
      });
    }
    async function ok(res: Promise<LightMyRequestResponse>): Promise<string> {
      const r = await res;
      assert.equal(r.statusCode, 200, r.body);
      return r.body;
    }
    /** An interconnection of the applicant's, submitted with its account, size and phase. */
    async function submittedInterconnection(owner: Person = applicant): Promise<string> {
      const projectId = /ProjectId="([^"]+)"/.exec(await ok(call(owner, 'POST', 'ICX/NewProject')))![1]!;
      await ok(call(owner, 'POST', `ICX/Projects/${projectId}/Forms/Application/Draft/Data`, dataRequest({ Account: 'ACCT-7', SizeKw: '250', Phase: 'single' })));
      await ok(call(owner, 'POST', `ICX/Projects/${projectId}/Forms/Application/Draft/Submit`));
      return projectId;
    }
    const moveTo = (projectId: string, status: string) =>
      call(admin, 'POST', `ICX/Projects/${projectId}/Status`, `<SetProjectStatusRequest xmlns="${NS}" StatusId="${status}"/>`);
    const relationsOf = (projectId: string) => db!.store.relations.listProjectRelations(projectId);
    const claims = async () => (await db!.store.projects.listProjectListings({ programId: clm.program.id, limit: 1000, offset: 0 })).map((p) => p.id);
    const audit = async (projectId: string) => (await db!.store.audit.list({ projectId })).map((r) => ({ action: r.action, detail: r.detail ?? {} }));
    const events = async (projectId: string) => (await db!.store.events.listProjectEvents(projectId)).map((e) => e.type);
    const fieldOf = (model: ProgramModel, customId: string) => model.fields.find((f) => f.customId === customId)!.id;

    it('staff create the claim from the interconnection: prefilled from the chosen fields, owned by the applicant, audited with an event on both', async () => {
      const projectId = await submittedInterconnection();
      const before = (await db!.store.projects.getProject(icx.program.id, projectId))!;
      const res = await call(admin, 'POST', `ICX/Projects/${projectId}/Relations/claim/Create`);
      assert.equal(res.statusCode, 200, res.body);
      const claimId = /<Relation [^>]*ProjectId="([^"]+)"/.exec(res.body)![1]!;
      assert.match(res.body, /Kind="child"/);
      assert.equal(res.headers.etag, `"${projectId}.${before.version + 1}"`);
      const claim = (await db!.store.projects.getProject(clm.program.id, claimId))!;
      assert.equal(claim.ownerId, before.ownerId, 'the claim is the applicant\'s, as the interconnection is');
      assert.equal(claim.statusId, clm.statuses.find((s) => s.isInitial)!.id);
      const form = clm.forms.find((f) => f.customId === 'Claim')!;
      const draft = new Map((await db!.store.projects.getDraft(claimId, form.id)).map((v) => [v.fieldId, v.value]));
      assert.equal(draft.get(fieldOf(clm, 'Account')), 'ACCT-7');
      // 250 is over the claim's maximum of 100, and a phase is no number: neither is copied, and both are named.
      assert.equal(draft.has(fieldOf(clm, 'SystemKw')), false);
      assert.equal(draft.has(fieldOf(clm, 'Reference')), false);
      const rows = await relationsOf(projectId);
      assert.deepEqual(rows.map((r) => [r.fromProjectId, r.toProjectId, r.kind, r.relation]), [[projectId, claimId, 'child', 'claim']]);
      const fromAudit = (await audit(projectId)).find((r) => r.action === 'project.relation.add')!;
      assert.deepEqual(fromAudit.detail.notCopied, ['SystemKw', 'Reference', 'NoSuchField']);
      assert.equal(fromAudit.detail.toProjectId, claimId);
      assert.deepEqual((await audit(claimId)).map((r) => r.action).sort(), ['project.create', 'project.relation.add']);
      assert.ok((await events(projectId)).includes('project.related'));
      assert.deepEqual((await events(claimId)).sort(), ['project.created', 'project.related']);
    });

    it('a reviewer without a role in the claims program is refused, and nothing changes', async () => {
      const projectId = await submittedInterconnection();
      const before = (await db!.store.projects.getProject(icx.program.id, projectId))!;
      const claimsBefore = await claims();
      for (const [who, status] of [[reviewer, 403], [applicant, 403], [people.other, 404], [people.claims, 403]] as const) {
        const res = await call(who, 'POST', `ICX/Projects/${projectId}/Relations/claim/Create`);
        assert.equal(res.statusCode, status, `${who.email}: ${res.body}`);
      }
      const unknown = await call(admin, 'POST', `ICX/Projects/${projectId}/Relations/nope/Create`);
      assert.equal(unknown.statusCode, 404);
      assert.match(unknown.body, /its relations are claim/);
      assert.equal((await db!.store.projects.getProject(icx.program.id, projectId))!.version, before.version);
      assert.deepEqual(await relationsOf(projectId), []);
      assert.deepEqual(await claims(), claimsBefore);
      assert.equal((await audit(projectId)).some((r) => r.action === 'project.relation.add'), false);
    });

    it('the automation creates the claim at Permission to Operate, in the move, and once per project however often it runs', async () => {
      const projectId = await submittedInterconnection();
      const res = await moveTo(projectId, 'PTO');
      assert.equal(res.statusCode, 200, res.body);
      let rows = await relationsOf(projectId);
      assert.equal(rows.length, 1);
      const claimId = rows[0]!.toProjectId;
      assert.equal((await db!.store.projects.getProject(clm.program.id, claimId))!.programId, clm.program.id);
      const moved = (await audit(projectId)).find((r) => r.action === 'project.relation.add')!;
      assert.equal(moved.detail.automation, 'claim-at-pto');
      // Back and again: the automation runs a second time and finds the claim it made.
      await ok(moveTo(projectId, 'Submitted'));
      await ok(moveTo(projectId, 'PTO'));
      rows = await relationsOf(projectId);
      assert.deepEqual(rows.map((r) => r.toProjectId), [claimId]);
      const runs = (await audit(projectId)).filter((r) => r.action === 'automation.run').map((r) => r.detail);
      assert.equal(runs.length, 2);
      assert.ok(runs.some((r) => JSON.stringify(r).includes('"unchanged":true')), JSON.stringify(runs));
    });

    it('a retried CreateRelatedProject (same Idempotency-Key) answers again and creates no second claim', async () => {
      const projectId = await submittedInterconnection();
      const claimsBefore = (await claims()).length;
      const key = { 'idempotency-key': `relations-retry-${dialect}` };
      const first = await call(admin, 'POST', `ICX/Projects/${projectId}/Relations/claim/Create`, undefined, key);
      const again = await call(admin, 'POST', `ICX/Projects/${projectId}/Relations/claim/Create`, undefined, key);
      assert.equal(first.statusCode, 200, first.body);
      assert.equal(again.statusCode, 200, again.body);
      assert.equal(again.body, first.body);
      assert.equal((await claims()).length, claimsBefore + 1);
      assert.equal((await relationsOf(projectId)).length, 1);
    });

    it('GetProjectRelations shows a related project only to whoever may read it: a matrix over both ends', async () => {
      const projectId = await submittedInterconnection();
      const created = await ok(call(admin, 'POST', `ICX/Projects/${projectId}/Relations/claim/Create`));
      const claimId = /<Relation [^>]*ProjectId="([^"]+)"/.exec(created)![1]!;
      const icxNumber = (await db!.store.projects.getProject(icx.program.id, projectId))!.number!;
      const list = (who: Person, path: string) => call(who, 'GET', path);
      // From the interconnection: who reads it, and whether the claim shows.
      const fromIcx: [Person, number, boolean][] = [[admin, 200, true], [applicant, 200, true], [reviewer, 200, false], [people.other, 404, false], [people.claims, 403, false]];
      for (const [who, status, shows] of fromIcx) {
        const res = await list(who, `ICX/Projects/${projectId}/Relations`);
        assert.equal(res.statusCode, status, `${who.email}: ${res.body}`);
        assert.equal(res.body.includes(claimId), shows, `${who.email} ${shows ? 'sees' : 'must not see'} the claim: ${res.body}`);
        assert.equal(res.body.includes('CLM'), shows, `${who.email}: nothing of the claim program either`);
        if (shows) assert.match(res.body, /Relationship="child"/);
      }
      // From the claim: the claims reviewer may read it but not the interconnection.
      const fromClm: [Person, number, boolean][] = [[admin, 200, true], [applicant, 200, true], [people.claims, 200, false], [reviewer, 403, false], [people.other, 404, false]];
      for (const [who, status, shows] of fromClm) {
        const res = await list(who, `CLM/Projects/${claimId}/Relations`);
        assert.equal(res.statusCode, status, `${who.email}: ${res.body}`);
        assert.equal(res.body.includes(projectId), shows, `${who.email}: ${res.body}`);
        assert.equal(res.body.includes(icxNumber), shows, `${who.email}: not even its number`);
        if (shows) assert.match(res.body, /Relationship="parent"/);
      }
      // JSON, as the other reads answer it; staff see who made the relation, applicants do not.
      const json = await app!.inject({
        method: 'GET', url: `/services/v2/Programs/ICX/Projects/${projectId}/Relations`,
        headers: { authorization: `Basic ${Buffer.from(`${admin.email}:${admin.password}`).toString('base64')}`, 'x-apikey': admin.apiKey, accept: 'application/json' },
      });
      const relation = assertJsonAnswer(json, ProjectRelationsResponse).Project.Relation[0]!;
      assert.equal(relation.ProjectId, claimId);
      assert.equal(relation.CreatedBy, admin.email);
      assert.equal(relation.Status, 'Unsubmitted');
      const asApplicant = await list(applicant, `ICX/Projects/${projectId}/Relations`);
      assert.equal(asApplicant.body.includes(admin.email), false);
    });

    it('a rule reads the related interconnection\'s status: the claim is submitted only once the interconnection has Permission to Operate', async () => {
      const projectId = await submittedInterconnection();
      const created = await ok(call(admin, 'POST', `ICX/Projects/${projectId}/Relations/claim/Create`));
      const claimId = /<Relation [^>]*ProjectId="([^"]+)"/.exec(created)![1]!;
      const submit = () => call(applicant, 'POST', `CLM/Projects/${claimId}/Forms/Claim/Draft/Submit`);
      const early = await submit();
      assert.equal(early.statusCode, 422, early.body);
      assert.match(early.body, /Code="FORM_INCOMPLETE"[\s\S]*CustomId="Account"[^>]*Message="A claim is submitted once its interconnection has Permission to Operate\."/);
      const before = (await db!.store.projects.getProject(clm.program.id, claimId))!;
      assert.equal(before.number, null, 'the refused submission changed nothing');
      await ok(moveTo(projectId, 'PTO'));
      await ok(submit());
      assert.equal((await db!.store.projects.getProject(clm.program.id, claimId))!.statusId, clm.statuses.find((s) => s.customId === 'Submitted')!.id);
      // An automation's condition reads the related project too.
      const run = (await audit(claimId)).find((r) => r.action === 'automation.run' && r.detail.automation === 'claim-in')!;
      assert.equal(run.detail.outcome, 'ran', JSON.stringify(run.detail));
      assert.ok((await events(claimId)).includes('automation.custom'));
      // A claim made by no interconnection sees an empty status: refused, not undecided.
      const orphan = /ProjectId="([^"]+)"/.exec(await ok(call(applicant, 'POST', 'CLM/NewProject')))![1]!;
      const refused = await call(applicant, 'POST', `CLM/Projects/${orphan}/Forms/Claim/Draft/Submit`);
      assert.equal(refused.statusCode, 422);
      assert.match(refused.body, /once its interconnection has Permission to Operate/);
    });

    it('a rule reads the related interconnection\'s values: the claim passes at most its size, and never sees another owner\'s values', async () => {
      const claimOf = async (interconnection: string) => {
        const claimId = /ProjectId="([^"]+)"/.exec(await ok(call(applicant, 'POST', 'CLV/NewProject')))![1]!;
        await ok(call(admin, 'POST', `ICX/Projects/${interconnection}/Relations`, `<LinkProjectRequest xmlns="${NS}" ProgramId="CLV" ProjectId="${claimId}" Kind="child"/>`));
        return claimId;
      };
      const save = (claimId: string, kw: string) => call(applicant, 'POST', `CLV/Projects/${claimId}/Forms/Claim/Draft/Data`, dataRequest({ SystemKw: kw }));
      const submit = (claimId: string) => call(applicant, 'POST', `CLV/Projects/${claimId}/Forms/Claim/Draft/Submit`);
      const clv = (await db!.store.programs.findProgram('CLV', icx.program.agencyId))!;
      const numberOf = async (claimId: string) => (await db!.store.projects.getProject(clv.id, claimId))!.number;
      const claimForm = (await db!.store.programs.loadProgramModel(clv)).forms[0]!;
      // The applicant's own interconnection of 250 kW: 300 is refused, naming the program's message, and not saved; 200 passes.
      const mine = await claimOf(await submittedInterconnection());
      const over = await save(mine, '300');
      assert.equal(over.statusCode, 422, over.body);
      assert.match(over.body, /CustomId="SystemKw"[^>]*Message="A claim is for at most the interconnection&apos;s size\."/);
      assert.deepEqual(await db!.store.projects.getDraft(mine, claimForm.id), [], 'the refused save changed nothing');
      await ok(save(mine, '200'));
      await ok(submit(mine));
      assert.notEqual(await numberOf(mine), null);
      // Another applicant's interconnection linked to this applicant's claim: its values are not read, so the rule fails.
      const theirs = await claimOf(await submittedInterconnection(people.other));
      const refused = await save(theirs, '100');
      assert.equal(refused.statusCode, 422, refused.body);
      assert.deepEqual(await db!.store.projects.getDraft(theirs, claimForm.id), []);
      assert.equal(await numberOf(theirs), null);
    });

    it('a test copy creates its related projects in the test copy of the other program, never in the live one', async () => {
      const deps = { store: db!.store, clock, ids: new RandomIdGenerator(), checkers: programCheckers() };
      const testPrograms = new TestProgramService({ ...deps, console: new ConsoleService({ store: db!.store }), blobs: new DatabaseBlobStore(db!.store, clock) });
      const user = (await db!.store.accounts.findUserByEmail(admin.email))!;
      const caller = { user, apiKeyId: '', grants: await db!.store.accounts.listGrants(user.id) };
      await testPrograms.create(caller, 'ICX');
      const projectId = /ProjectId="([^"]+)"/.exec(await ok(call(admin, 'POST', 'ICX-test/NewProject')))![1]!;
      const liveClaims = (await claims()).length;
      const refused = await call(admin, 'POST', `ICX-test/Projects/${projectId}/Relations/claim/Create`);
      assert.equal(refused.statusCode, 404, refused.body);
      assert.match(refused.body, /Program CLM has no test copy/);
      const claimsTest = await testPrograms.create(caller, 'CLM');
      const made = await ok(call(admin, 'POST', `ICX-test/Projects/${projectId}/Relations/claim/Create`));
      assert.match(made, new RegExp(`ProgramId="${claimsTest.id}"`));
      assert.equal((await claims()).length, liveClaims, 'no live claim was made');
    });

    it('LinkProject relates two existing projects once, for staff who may read both; both ends list it', async () => {
      const projectId = await submittedInterconnection();
      const claimId = /ProjectId="([^"]+)"/.exec(await ok(call(applicant, 'POST', 'CLM/NewProject')))![1]!;
      const link = (who: Person, from: string, body: string) => call(who, 'POST', `${from}/Relations`, `<LinkProjectRequest xmlns="${NS}" ${body}/>`);
      const before = (await db!.store.projects.getProject(icx.program.id, projectId))!.version;
      // The reviewer may not read claims: the claim is "not found", and nothing changes.
      const hidden = await link(reviewer, `ICX/Projects/${projectId}`, `ProgramId="CLM" ProjectId="${claimId}"`);
      assert.equal(hidden.statusCode, 404, hidden.body);
      assert.equal((await call(admin, 'POST', `ICX/Projects/${projectId}/Relations`, `<LinkProjectRequest xmlns="${NS}" ProgramId="ICX" ProjectId="${projectId}"/>`)).statusCode, 400);
      assert.equal((await link(people.other, `ICX/Projects/${projectId}`, `ProgramId="CLM" ProjectId="${claimId}"`)).statusCode, 404);
      assert.deepEqual(await relationsOf(projectId), []);
      assert.equal((await db!.store.projects.getProject(icx.program.id, projectId))!.version, before);
      const made = await link(admin, `ICX/Projects/${projectId}`, `ProgramId="CLM" ProjectId="${claimId}" Kind="link"`);
      assert.equal(made.statusCode, 200, made.body);
      assert.match(made.body, new RegExp(`Kind="link" ProgramId="${clm.program.id}" ProjectId="${claimId}"`));
      assert.equal((await db!.store.projects.getProject(icx.program.id, projectId))!.version, before + 1);
      assert.equal((await link(admin, `ICX/Projects/${projectId}`, `ProgramId="CLM" ProjectId="${claimId}"`)).statusCode, 409);
      assert.equal((await link(people.claims, `CLM/Projects/${claimId}`, `ProgramId="ICX" ProjectId="${projectId}"`)).statusCode, 404, 'the claims reviewer may not read the interconnection');
      assert.equal((await link(admin, `CLM/Projects/${claimId}`, `ProgramId="ICX" ProjectId="${projectId}"`)).statusCode, 409, 'a pair is related once, either way');
      assert.match(await ok(call(applicant, 'GET', `CLM/Projects/${claimId}/Relations`)), new RegExp(`Relationship="link"[^>]*ProjectId="${projectId}"`));
      assert.ok((await audit(claimId)).some((r) => r.action === 'project.relation.add' && r.detail.side === 'to'));
      assert.ok((await events(claimId)).includes('project.related'));
    });

    it('UnlinkProject removes a link, for staff who may read both ends, on both projects; a child relation is fixed; refusals change nothing', async () => {
      const projectId = await submittedInterconnection();
      const claimId = /ProjectId="([^"]+)"/.exec(await ok(call(applicant, 'POST', 'CLM/NewProject')))![1]!;
      const made = await ok(call(admin, 'POST', `ICX/Projects/${projectId}/Relations`, `<LinkProjectRequest xmlns="${NS}" ProgramId="CLM" ProjectId="${claimId}"/>`));
      const relationId = /RelationId="([^"]+)"/.exec(made)![1]!;
      const child = /RelationId="([^"]+)"/.exec(await ok(call(admin, 'POST', `ICX/Projects/${projectId}/Relations/claim/Create`)))![1]!;
      const unlink = (who: Person, from: string, id: string, headers: Record<string, string> = {}) => call(who, 'DELETE', `${from}/Relations/${id}`, undefined, headers);
      const versions = async () => [(await db!.store.projects.getProject(icx.program.id, projectId))!.version, (await db!.store.projects.getProject(clm.program.id, claimId))!.version];
      const before = await versions();
      const refusals: [Person, string, string, number, RegExp][] = [
        [applicant, `ICX/Projects/${projectId}`, relationId, 403, /staff/],
        // The reviewer may not read the claim, and the claims reviewer not the interconnection: the relation is not theirs to see.
        [reviewer, `ICX/Projects/${projectId}`, relationId, 404, /has no relation/],
        [people.claims, `CLM/Projects/${claimId}`, relationId, 404, /has no relation/],
        [people.other, `ICX/Projects/${projectId}`, relationId, 404, /./],
        [admin, `ICX/Projects/${projectId}`, child, 409, /child relation is fixed/],
        [admin, `ICX/Projects/${projectId}`, 'NOSUCHRELATION', 404, /has no relation/],
      ];
      for (const [who, from, id, status, message] of refusals) {
        const res = await unlink(who, from, id);
        assert.equal(res.statusCode, status, `${who.email} ${id}: ${res.body}`);
        assert.match(res.body, message);
      }
      assert.deepEqual((await relationsOf(projectId)).map((r) => r.id).sort(), [relationId, child].sort(), 'the refused requests removed nothing');
      assert.deepEqual((await versions())[1], before[1]);
      const afterChild = (await db!.store.projects.getProject(icx.program.id, projectId))!.version;
      // From the claim's end, in JSON: the link is gone from both, audited with an event on both.
      const res = await unlink(admin, `CLM/Projects/${claimId}`, relationId, { accept: 'application/json' });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(JSON.parse(res.body), { Relation: { RelationId: relationId, Kind: 'link', ProgramId: icx.program.id, ProjectId: projectId } });
      assert.equal(res.headers.etag, `"${claimId}.${before[1]! + 1}.json"`);
      assert.deepEqual((await relationsOf(projectId)).map((r) => r.id), [child]);
      assert.equal((await db!.store.projects.getProject(icx.program.id, projectId))!.version, afterChild, 'the other end is not version-bumped');
      for (const [id, side] of [[claimId, 'to'], [projectId, 'from']] as const) {
        const row = (await audit(id)).find((r) => r.action === 'project.relation.remove');
        assert.equal(row?.detail.relationId, relationId);
        assert.equal(row?.detail.side, side);
        assert.ok((await events(id)).includes('project.unrelated'));
      }
      assert.equal((await unlink(admin, `CLM/Projects/${claimId}`, relationId)).statusCode, 404, 'removed once');
    });

    it('an import type-checks rules over related projects', async () => {
      const deps = { store: db!.store, clock, ids: new RandomIdGenerator(), checkers: programCheckers() };
      const bad = CLM.replace("related.interconnection.status == 'PTO'", 'related.nothing.status == 1 || related.interconnection.values == 2');
      await assert.rejects(importProgram(deps, DEMO_AGENCY.customId, parseProgramFile(bad)), (error: Error) => /nothing/.test(error.message) && /a record of program ICX's fields \(sensitive fields are never read\) is never equal to a int/.test(error.message));
      // A field the related program lacks is refused at its line and column, naming the program's fields it may have meant.
      const unknown = CLV.replace('related.interconnection.values.SizeKw)', 'related.interconnection.values.SizeKW)');
      await assert.rejects(importProgram(deps, DEMO_AGENCY.customId, parseProgramFile(unknown)),
        (error: Error) => /validations\[0\] \(line 18, column \d+\): record of program ICX's fields \(sensitive fields are never read\) has no member "SizeKW" \(did you mean "SizeKw"\?\)/.test(error.message));
      const copying = CLM.replace('{ customId: interconnection, kind: parent, program: ICX }', '{ customId: interconnection, kind: parent, program: ICX, copy: { Account: Account } }');
      await assert.rejects(importProgram(deps, DEMO_AGENCY.customId, parseProgramFile(copying)), /a parent relation creates no project/);
    });

    it('an import refuses a relation that copies an unknown field and an action naming no relation', async () => {
      const bad = ICX.replace('Reference: Phase', 'Reference: Nothing').replace('relation: claim }', 'relation: nope }');
      await assert.rejects(importProgram({ store: db!.store, clock, ids: new RandomIdGenerator(), checkers: programCheckers() }, DEMO_AGENCY.customId, parseProgramFile(bad)),
        (error: Error) => /Nothing/.test(error.message) && /no relation "nope"/.test(error.message));
    });
  });
}
