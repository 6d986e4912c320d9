import assert from 'node:assert/strict';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { loadConfig } from '../../src/config.ts';
import { AccountService } from '../../src/domain/accounts/account-service.ts';
import { HttpConnectionClient } from '../../src/domain/connections/connection-client.ts';
import { ConnectionFieldLookups } from '../../src/domain/connections/field-lookups.ts';
import { systemCaller } from '../../src/domain/deadlines/deadline-poller.ts';
import { DEMO_AGENCY, DEMO_CREDENTIALS, type DemoCredential, seedDemo } from '../../src/domain/programs/demo.ts';
import { parseProgramFile } from '../../src/domain/programs/program-file.ts';
import { importProgram } from '../../src/domain/programs/program-import.ts';
import { roleIn } from '../../src/domain/roles/access.ts';
import { programCheckers } from '../../src/domain/wiring/program-checkers.ts';
import { buildApp } from '../../src/http/app.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import type { ProgramModel } from '../../src/model/model.ts';
import { DatabaseBlobStore } from '../../src/store/database-blob-store.ts';
import { DIALECTS, openTestStore, type TestStore } from '../support/databases.ts';
import { dataRequest, NS, TestClock } from '../support/http-harness.ts';
import { assertJsonAnswer, JSON_ANSWER } from '../support/json-answers.ts';
import { createSchemaRegistry } from '../../src/xml/schema-registry.ts';
import { ProjectDataGetResponse } from '../../src/wire/documents/project-data.ts';
import { startUtilityService } from '../../examples/utility-service.ts';

// Field lookups (docs/programs.md, "Connections"): a save that writes a connection's lookup field asks the agency's
// system on the server, before the change step, against the sample utility service the repository ships: a known
// account is verified and prefills the customer's name and address; an unknown one is said to be unknown; a system
// that is not configured or down leaves the value unverified, and the value is kept in every case. Answers are reused
// for a while, and a person may make only so many lookups a minute.

const PROGRAM_FILE = `
customId: LOOK
name: Lookup test
numberPrefix: LOOK
fields:
  - { customId: Account, name: Account number, type: text }
  - { customId: CustomerName, name: Customer name, type: text }
  - { customId: ServiceAddress, name: Service address, type: text }
statuses:
  - { customId: Unsubmitted, name: Unsubmitted, initial: true, next: [Submitted] }
  - { customId: Submitted, name: Submitted }
forms:
  - { customId: Application, name: Application, availableIn: [Unsubmitted], leadsTo: Submitted, fields: [Account, CustomerName, ServiceAddress] }
connections:
  - customId: accountLookup
    name: the utility's billing system
    request: '{"account": Account}'
    response:
      properties: { name: { type: string }, serviceAddress: { type: string }, active: { type: boolean } }
      required: [name]
    set: { CustomerName: response.name, ServiceAddress: response.serviceAddress }
    lookup: { field: Account }
`;

const who = (role: string): DemoCredential => DEMO_CREDENTIALS.find((c) => c.role === role)!;
const basic = (c: DemoCredential) => `Basic ${Buffer.from(`${c.email}:${c.password}`).toString('base64')}`;

for (const dialect of DIALECTS) {
  describe(`field lookups [${dialect}]`, () => {
    let db: TestStore;
    let app: FastifyInstance;
    let model: ProgramModel;
    let utility: http.Server;
    const clock = new TestClock();
    const applicant = who('applicant');

    before(async () => {
      utility = await startUtilityService(0);
      db = await openTestStore(dialect);
      const ids = new RandomIdGenerator();
      await seedDemo({ store: db.store, clock, ids, checkers: programCheckers() });
      const { programId } = await importProgram({ store: db.store, clock, ids, checkers: programCheckers() }, DEMO_AGENCY.customId, parseProgramFile(PROGRAM_FILE));
      await new AccountService({ store: db.store, clock, ids }).grant(applicant.email, programId, 'applicant');
      model = await db.store.programs.loadProgramModel((await db.store.programs.findProgram(programId))!);
      await db.store.transaction((tx) => tx.connections.allowHost(model.program.agencyId, '127.0.0.1'));
      app = await buildApp({ config: loadConfig({ APAS_PUBLIC_URL: 'http://apas.test', APAS_WEBHOOK_ALLOW_INSECURE: '1' }), store: db.store, clock, logger: false, blobs: new DatabaseBlobStore(db.store, clock) });
    });
    after(async () => {
      await app?.close();
      await db?.close();
      utility?.close();
    });

    const pointAt = (url: string) => db.store.transaction((tx) => tx.connections.saveSettings({ programId: model.program.id, connectionId: 'accountLookup', url, auth: { kind: 'none' }, updatedAt: clock.now() }, null));
    const fieldOf = (customId: string) => model.fields.find((f) => f.customId === customId)!.id;
    function call(method: 'GET' | 'POST', path: string, body?: string): Promise<LightMyRequestResponse> {
      clock.advance();
      return app.inject({
        method, url: `/services/v2/Programs/LOOK/${path}`, payload: body,
        headers: { authorization: basic(applicant), 'x-apikey': applicant.apiKey, accept: 'application/xml', ...(body !== undefined ? { 'content-type': 'application/xml' } : {}) },
      });
    }
    async function saved(account: string): Promise<{ projectId: string; draft: Record<string, string | null>; lookup: { state: string; message: string } | undefined }> {
      const projectId = /ProjectId="([^"]+)"/.exec((await call('POST', 'NewProject')).body)![1]!;
      const res = await call('POST', `Projects/${projectId}/Forms/Application/Draft/Data`, dataRequest({ Account: account }));
      assert.equal(res.statusCode, 200, res.body);
      const draft = await db.store.projects.getDraft(projectId, model.forms[0]!.id);
      const byId = Object.fromEntries(draft.map((v) => [model.fields.find((f) => f.id === v.fieldId)!.customId, v.value]));
      const lookup = (await db.store.connections.listLookups(projectId)).find((l) => l.fieldId === fieldOf('Account'));
      return { projectId, draft: byId, lookup };
    }

    it('without an address set, the value is kept and marked not verified, with a message that says why', async () => {
      const { draft, lookup } = await saved('ACCT-1001');
      assert.deepEqual(draft, { Account: 'ACCT-1001' });
      assert.equal(lookup?.state, 'unavailable');
      assert.match(lookup?.message ?? '', /^Not verified: the utility's billing system is not available here \(no address is set for it\)\. The value is kept as entered/);
    });

    it('a known account is verified and prefills the name and service address; an unknown one is said to be unknown', async () => {
      await pointAt(`http://127.0.0.1:${(utility.address() as AddressInfo).port}/accounts/lookup`);
      const known = await saved('ACCT-1001');
      assert.deepEqual(known.draft, { Account: 'ACCT-1001', CustomerName: 'Pat Homeowner', ServiceAddress: '1 Sunny Lane, Springfield' });
      assert.deepEqual(known.lookup && [known.lookup.state, known.lookup.message], ['verified', 'Verified with the utility\'s billing system.']);
      const unknown = await saved('ACCT-9999');
      assert.deepEqual(unknown.draft, { Account: 'ACCT-9999' });
      assert.equal(unknown.lookup?.state, 'notFound');
      assert.match(unknown.lookup?.message ?? '', /does not know this value: check it\. It is kept as entered\./);
    });

    it('GetProjectData shows each looked-up value\'s state, in XML its XSD accepts and in JSON; other fields and empty values carry none', async () => {
      await pointAt(`http://127.0.0.1:${(utility.address() as AddressInfo).port}/accounts/lookup`);
      const known = await saved('ACCT-1001');
      const xml = await call('GET', `Projects/${known.projectId}/Forms/Application/Draft/Data`);
      assert.equal(xml.statusCode, 200, xml.body);
      const schemas = createSchemaRegistry(NS);
      try {
        assert.deepEqual(schemas.validate('ProjectDataGetResponse', xml.body), [], xml.body);
      } finally {
        schemas.dispose();
      }
      assert.match(xml.body, /<DataField [^>]*CustomId="Account"[^>]*Value="ACCT-1001"[^>]*><Lookup State="verified" Message="Verified with the utility&apos;s billing system\." CheckedAt="\d{4}-[^"]+"\/><\/DataField>/);
      assert.equal(xml.body.match(/<Lookup /g)?.length, 1, 'only the looked-up field');
      // The submitted view: nothing submitted yet, so no value and no lookup.
      assert.equal((await call('GET', `Projects/${known.projectId}/Forms/Application/Data`)).body.includes('<Lookup'), false);
      const unknown = await saved('ACCT-9999');
      const json = await app.inject({
        method: 'GET', url: `/services/v2/Programs/LOOK/Projects/${unknown.projectId}/Forms/Application/Draft/Data`,
        headers: { authorization: basic(applicant), 'x-apikey': applicant.apiKey, ...JSON_ANSWER },
      });
      const fields = assertJsonAnswer(json, ProjectDataGetResponse).Project.DataFields.DataField;
      const account = fields.find((f) => f.CustomId === 'Account')!;
      assert.equal(account.Lookup?.State, 'notFound');
      assert.match(account.Lookup?.Message ?? '', /does not know this value/);
      assert.deepEqual(fields.filter((f) => f.Lookup !== undefined).map((f) => f.CustomId), ['Account']);
    });

    it('a known answer is reused while the system is down; a new value is kept unverified, quickly', async () => {
      const closed = await startUtilityService(0);
      const port = (closed.address() as AddressInfo).port;
      await pointAt(`http://127.0.0.1:${port}/accounts/lookup`);
      assert.equal((await saved('ACCT-1002')).lookup?.state, 'verified');
      await new Promise((resolve) => closed.close(resolve));
      const again = await saved('ACCT-1002');
      assert.deepEqual([again.lookup?.state, again.draft.CustomerName], ['verified', 'Robin Rivera'], 'from the cache');
      const started = Date.now();
      const down = await saved('ACCT-1003');
      assert.ok(Date.now() - started < 5_000);
      assert.deepEqual(down.draft, { Account: 'ACCT-1003' });
      assert.equal(down.lookup?.state, 'unavailable');
      assert.match(down.lookup?.message ?? '', /Not verified: the utility's billing system could not be asked \(ECONNREFUSED/);
    });

    it('a person who looks up too many values in a minute is told to wait, and the value is still kept', async () => {
      await pointAt(`http://127.0.0.1:${(utility.address() as AddressInfo).port}/accounts/lookup`);
      const lookups = new ConnectionFieldLookups({ store: db.store, clock, client: new HttpConnectionClient({ allowInsecure: true }) }, { timeoutMs: 1_000, cacheMs: 60_000, cacheEntries: 10, perUserPerMinute: 2 });
      const caller = systemCaller(model.program);
      const ctx = { program: model.program, model, role: roleIn(caller, model.program)! };
      const project = (await db.store.projects.listProjects({ programId: model.program.id, limit: 1, offset: 0 }))[0]!;
      const ask = (account: string) => lookups.lookUp(ctx, caller, project, [{ fieldId: fieldOf('Account'), value: account, values: null, updatedAt: 0, updatedBy: '' }]);
      assert.equal((await ask('ACCT-1001'))[0]?.state, 'verified');
      assert.equal((await ask('ACCT-1002'))[0]?.state, 'verified');
      const third = (await ask('ACCT-1003'))[0];
      assert.equal(third?.state, 'unavailable');
      assert.match(third?.message ?? '', /more than 2 lookups in a minute/);
      assert.equal((await ask('ACCT-1001'))[0]?.state, 'verified', 'a cached answer costs nothing');
      clock.advance(60_000);
      assert.equal((await ask('ACCT-1003'))[0]?.state, 'verified', 'the next minute');
    });
  });
}
