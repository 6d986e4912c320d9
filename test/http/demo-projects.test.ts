import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { DEMO_CLAIM_PROGRAM } from '../../src/domain/programs/demo.ts';
import { DEMO_CLAIMED, seedDemoProjects } from '../../src/domain/wiring/demo-projects.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import { DIALECTS } from '../support/databases.ts';
import { basicAuth, demoApi, demoUser } from '../support/demo-api.ts';
import { dataRequest } from '../support/http-harness.ts';

// The demo's sample data (README, "The demo's projects"): applications spread over the North and South territories,
// each seen by the reviewer of its territory only, and incentive claims related to two of them, one of which may not
// be submitted yet since its interconnection has no Permission to Operate. Seeding again makes nothing twice.

/** The demo's sample applications: external id → [territory, status]. */
const SAMPLES: Record<string, [string, string]> = {
  'demo-1': ['North', 'Application Review'], 'demo-2': ['South', 'Application Review'],
  'demo-3': ['North', 'Approved for Installation'], 'demo-4': ['South', 'Permission to Operate'], 'demo-5': ['North', 'Engineering Review'],
};

for (const dialect of DIALECTS) {
  describe(`the demo's projects, territories and incentive claims (${dialect})`, () => {
    const api = demoApi(dialect);
    let seeded: string[] = [];
    /** The demo project of each external id. */
    const byExternalId = new Map<string, string>();
    const deps = () => ({ store: api.db.store, clock: api.clock, ids: new RandomIdGenerator(), publicUrl: 'http://apas.test', maxNumbersPerRequest: 100 });
    before(async () => {
      seeded = await seedDemoProjects(deps());
      const program = (await api.db.store.programs.findProgram(api.model.program.id))!;
      for (const [externalId, projectId] of await api.db.store.imports.findExternalIds(program.id, Object.keys(SAMPLES))) byExternalId.set(externalId, projectId);
    });
    const listed = async (role: string) => {
      const body = await api.ok(api.call(demoUser(role), 'GET', 'Projects'));
      return [...body.matchAll(/ProjectId="([^"]+)"/g)].map((m) => m[1]!).sort();
    };
    const ids = (territory: string) => Object.entries(SAMPLES).filter(([, [t]]) => t === territory).map(([e]) => byExternalId.get(e)!).sort();

    it('makes the sample applications in their statuses and territories and two claims once; seeding again makes nothing', async () => {
      assert.equal(seeded.filter((a) => a.startsWith('created project ')).length, 5, seeded.join('\n'));
      assert.equal(seeded.filter((a) => a.startsWith('created the incentive claim ')).length, 2, seeded.join('\n'));
      for (const [externalId, [territory, status]] of Object.entries(SAMPLES)) {
        const projectId = byExternalId.get(externalId)!;
        const data = await api.ok(api.call(demoUser('admin'), 'GET', `Projects/${projectId}/Forms/Application/Data`));
        assert.match(data, new RegExp(`CustomId="Territory" Name="Territory" Value="${territory}"`), externalId);
        const project = (await api.db.store.projects.getProject(api.model.program.id, projectId))!;
        assert.equal(api.model.statuses.find((s) => s.id === project.statusId)?.name, status, externalId);
      }
      assert.deepEqual(await seedDemoProjects(deps()), []);
      assert.equal((await listed('admin')).length, 5);
    });

    it('each territory\'s reviewer lists only its projects and cannot read the other\'s; the unlimited reviewer lists them all', async () => {
      assert.deepEqual(await listed('north reviewer'), ids('North'));
      assert.deepEqual(await listed('south reviewer'), ids('South'));
      assert.deepEqual(await listed('reviewer'), [...ids('North'), ...ids('South')].sort());
      const south = byExternalId.get('demo-2')!;
      const refused = await api.call(demoUser('north reviewer'), 'POST', `Projects/${south}/Forms/Application/Data`, dataRequest({ CustomerPhone: '555-0199' }));
      assert.equal(refused.statusCode, 404, refused.body);
      const after = await api.ok(api.call(demoUser('south reviewer'), 'GET', `Projects/${south}/Forms/Application/Data`));
      assert.match(after, /619-555-0102/, 'the refused write changed nothing');
      assert.equal((await api.call(demoUser('north reviewer'), 'GET', `Projects/${south}/Forms/Application/Data`)).statusCode, 404);
    });

    it('the pages: each territory\'s work queue holds its projects only, the other\'s review page is not found; both project pages list the claim', async () => {
      const program = api.model.program.id;
      const queue = `/Projects/ProjectList?ProgramId=${program}&PageSize=100`;
      const inQueue = (html: string) => [...new Set([...html.matchAll(/\/Projects\/([A-Z0-9]{12})\/Review/g)].map((m) => m[1]!))].sort();
      for (const [role, territory] of [['north reviewer', 'North'], ['south reviewer', 'South']] as const) {
        const page = await api.webGet(demoUser(role), queue);
        assert.equal(page.statusCode, 200);
        assert.deepEqual(inQueue(page.body), ids(territory), role);
      }
      const review = (externalId: string) => `/MvcProjects/Programs/${program}/Projects/${byExternalId.get(externalId)}/Review`;
      assert.equal((await api.webGet(demoUser('north reviewer'), review('demo-4'))).statusCode, 404);
      const staff = await api.webGet(demoUser('reviewer'), review('demo-4'));
      assert.equal(staff.statusCode, 200);
      assert.match(staff.body, /Related projects/);
      assert.match(staff.body, /Child \(Incentive claim\)/);
      const own = await api.webGet(demoUser('applicant'), `/MvcProjects/LandingPage?ProgramId=${program}&ProjectId=${byExternalId.get('demo-3')}`);
      assert.equal(own.statusCode, 200);
      assert.match(own.body, /Related projects[\s\S]*Child \(Incentive claim\)[\s\S]*Solar Incentive Claim/);
    });

    it('relates each claim to its interconnection both ways; a claim goes in only once its interconnection has Permission to Operate', async () => {
      const applicant = demoUser('applicant');
      const claims: Record<string, string> = {};
      for (const externalId of DEMO_CLAIMED) {
        const relations = await api.ok(api.call(applicant, 'GET', `Projects/${byExternalId.get(externalId)}/Relations`));
        const claim = /<Relation [^>]*Relationship="child" RelationName="IncentiveClaim" ProgramId="INCENTIVE-CLAIM" ProjectId="([^"]+)"/.exec(relations);
        assert.ok(claim, relations);
        claims[externalId] = claim[1]!;
        const back = await api.app.inject({
          method: 'GET', url: `/services/v2/Programs/${DEMO_CLAIM_PROGRAM}/Projects/${claim[1]}/Relations`, headers: { authorization: basicAuth(applicant), 'x-apikey': applicant.apiKey },
        });
        assert.equal(back.statusCode, 200, back.body);
        assert.match(back.body, new RegExp(`Relationship="parent" RelationName="IncentiveClaim" ProgramId="RES-SOLAR" ProjectId="${byExternalId.get(externalId)}"`), back.body);
      }
      const claimCall = (projectId: string, path: string, body?: string) => api.app.inject({
        method: 'POST', url: `/services/v2/Programs/${DEMO_CLAIM_PROGRAM}/Projects/${projectId}/Forms/Claim/${path}`, payload: body,
        headers: { authorization: basicAuth(applicant), 'x-apikey': applicant.apiKey, ...(body ? { 'content-type': 'application/xml' } : {}) },
      });
      for (const projectId of Object.values(claims)) assert.equal((await claimCall(projectId, 'Draft/Data', dataRequest({ PayeeName: 'Chris Nakamura' }))).statusCode, 200);
      const early = await claimCall(claims['demo-3']!, 'Draft/Submit');
      assert.equal(early.statusCode, 422, early.body);
      assert.match(early.body, /A claim is submitted once its interconnection has Permission to Operate\./);
      const claimProgram = (await api.db.store.programs.findProgram(DEMO_CLAIM_PROGRAM, api.model.program.agencyId))!;
      assert.equal((await api.db.store.projects.getProject(claimProgram.id, claims['demo-3']!))?.number, null, 'the refused claim is still unsubmitted');
      const ready = await claimCall(claims['demo-4']!, 'Draft/Submit');
      assert.equal(ready.statusCode, 200, ready.body);
      assert.match(ready.body, /ProjectNumber="CLAIM-/);
    });

    it('at Permission to Operate the automation opens the claim, once: a new one for SOLAR-00001, none more for SOLAR-00003, whose claim then goes in', async () => {
      const admin = demoUser('admin');
      const applicant = demoUser('applicant');
      const move = async (externalId: string, ...statuses: string[]) => {
        for (const to of statuses) await api.ok(api.call(admin, 'POST', `Projects/${byExternalId.get(externalId)}/Status`, `<SetProjectStatusRequest xmlns="http://service.powerclerk.com/api/v1/" StatusId="${to}"/>`));
      };
      const childClaims = async (externalId: string) => [...(await api.ok(api.call(applicant, 'GET', `Projects/${byExternalId.get(externalId)}/Relations`)))
        .matchAll(/Relationship="child" RelationName="IncentiveClaim" ProgramId="INCENTIVE-CLAIM" ProjectId="([^"]+)"/g)].map((m) => m[1]!);
      assert.deepEqual(await childClaims('demo-1'), []);
      await move('demo-1', 'ApprovedForInstallation', 'InspectionPending', 'PermissionToOperate');
      assert.equal((await childClaims('demo-1')).length, 1, 'the automation IncentiveClaimAtPto opened the claim');
      const [claim] = await childClaims('demo-3');
      await move('demo-3', 'InspectionPending', 'PermissionToOperate');
      assert.deepEqual(await childClaims('demo-3'), [claim], 'the claim staff made is the one; no second');
      const submitted = await api.app.inject({
        method: 'POST', url: `/services/v2/Programs/${DEMO_CLAIM_PROGRAM}/Projects/${claim}/Forms/Claim/Draft/Submit`,
        headers: { authorization: basicAuth(applicant), 'x-apikey': applicant.apiKey },
      });
      assert.equal(submitted.statusCode, 200, submitted.body);
    });
  });
}
