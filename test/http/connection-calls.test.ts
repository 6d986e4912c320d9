import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { loadConfig } from '../../src/config.ts';
import { AccountService } from '../../src/domain/accounts/account-service.ts';
import { type CallPolicy, type ConnectionCallDeps, makeDueCalls } from '../../src/domain/connections/connection-calls.ts';
import { HttpConnectionClient } from '../../src/domain/connections/connection-client.ts';
import { DEMO_AGENCY, DEMO_CREDENTIALS, type DemoCredential, seedDemo } from '../../src/domain/programs/demo.ts';
import { parseProgramFile } from '../../src/domain/programs/program-file.ts';
import { importProgram } from '../../src/domain/programs/program-import.ts';
import { changeReactions } from '../../src/domain/wiring/change-reactions.ts';
import { programCheckers } from '../../src/domain/wiring/program-checkers.ts';
import { buildApp } from '../../src/http/app.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import type { ProgramModel } from '../../src/model/model.ts';
import { DatabaseBlobStore } from '../../src/store/database-blob-store.ts';
import { DIALECTS, openTestStore, type TestStore } from '../support/databases.ts';
import { dataRequest, TestClock } from '../support/http-harness.ts';

// callConnection (docs/programs.md, "Connections") against a real HTTP server this test starts on 127.0.0.1: the call
// is only queued by the submission's change, made after it commits by the connections task with an Idempotency-Key
// that stays the same across its attempts, and its answer applied in a change of its own (audit, event, the
// automations it triggers); a slow, failing, malformed or redirecting system is retried with backoff (a redirect not at
// all) and then fails: connection.failed as trigger, event and the work queue's "Connection failed" flag.

const PROGRAM_FILE = `
customId: CONN
name: Connection test
numberPrefix: CONN
customLists:
  - { customId: Programs, name: Programs, choices: [NEM, CARE, FERA] }
fields:
  - { customId: Account, name: Account number, type: text }
  - { customId: CustomerName, name: Customer name, type: text }
  - { customId: Size, name: Size, type: number }
  - { customId: Enrolled, name: Enrolled programs, type: choice, list: Programs, multiValue: true }
statuses:
  - { customId: Unsubmitted, name: Unsubmitted, initial: true, next: [Submitted] }
  - { customId: Submitted, name: Submitted, next: [Checked] }
  - { customId: Checked, name: Checked }
forms:
  - { customId: Application, name: Application, availableIn: [Unsubmitted], leadsTo: Submitted, fields: [Account, CustomerName, Size, Enrolled] }
connections:
  - customId: lookup
    name: Account lookup
    request: '{"account": Account}'
    response:
      properties: { name: { type: string }, kw: { type: number }, programs: { type: array, items: { type: string } } }
      required: [name]
    set: { CustomerName: response.name, Size: response.kw, Enrolled: response.programs }
    timeoutMs: 300
    retries: 2
automations:
  - customId: look-up
    name: Look the account up
    when: { trigger: form.submitted, form: Application }
    then: [{ do: callConnection, connection: lookup }]
  - customId: checked
    name: Checked once the name is in
    when: { trigger: field.changed, field: CustomerName }
    then: [{ do: moveStatus, to: Checked }]
  - customId: on-failure
    name: Lookup failed
    when: { trigger: connection.failed, connection: lookup }
    then: [{ do: emitEvent, name: lookupFailed }]
`;

/** What the utility's test system answers next, by path; it records every request it got. */
interface Seen { path: string; body: string; key: string | undefined; apiKey: string | undefined }

function utility(): { server: http.Server; seen: Seen[]; url: (path: string) => string } {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ path: req.url ?? '', body, key: req.headers['idempotency-key'] as string | undefined, apiKey: req.headers['x-api-key'] as string | undefined });
      const send = (status: number, text: string, headers: Record<string, string> = {}) => res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(text);
      switch (req.url) {
        case '/ok': return send(200, JSON.stringify({ name: 'Pat Homeowner', kw: 7.5, extra: 'ignored' }));
        case '/programs': return send(200, JSON.stringify({ name: 'Pat Homeowner', kw: 7.5, programs: ['NEM', 'CARE'] }));
        case '/bad-program': return send(200, JSON.stringify({ name: 'Pat Homeowner', kw: 7.5, programs: ['NEM', 'BOGUS'] }));
        case '/fail': return send(500, '{"error":"down"}');
        case '/garbled': return send(200, '{"name": "Pat", ');
        case '/wrong-shape': return send(200, '{"kw": 3}');
        case '/redirect': return send(302, '', { location: 'http://169.254.169.254/latest/meta-data' });
        case '/slow': setTimeout(() => send(200, '{"name":"late"}'), 1500).unref(); return;
        default: return send(404, '{}');
      }
    });
  });
  return { server, seen, url: (path) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}` };
}

const who = (role: string): DemoCredential => DEMO_CREDENTIALS.find((c) => c.role === role)!;
const basic = (c: DemoCredential) => `Basic ${Buffer.from(`${c.email}:${c.password}`).toString('base64')}`;
const POLICY: CallPolicy = { batch: 10, leaseMs: 5_000, firstDelayMs: 1_000, maxDelayMs: 4_000, random: () => 0.5 };

for (const dialect of DIALECTS) {
  describe(`callConnection [${dialect}]`, () => {
    let db: TestStore;
    let app: FastifyInstance;
    let model: ProgramModel;
    let deps: ConnectionCallDeps;
    const clock = new TestClock();
    const applicant = who('applicant');
    const system = utility();

    before(async () => {
      await new Promise<void>((resolve) => system.server.listen(0, '127.0.0.1', resolve));
      db = await openTestStore(dialect);
      const ids = new RandomIdGenerator();
      await seedDemo({ store: db.store, clock, ids, checkers: programCheckers() });
      const { programId } = await importProgram({ store: db.store, clock, ids, checkers: programCheckers() }, DEMO_AGENCY.customId, parseProgramFile(PROGRAM_FILE));
      await new AccountService({ store: db.store, clock, ids }).grant(applicant.email, programId, 'applicant');
      model = await db.store.programs.loadProgramModel((await db.store.programs.findProgram(programId))!);
      await db.store.transaction((tx) => tx.connections.allowHost(model.program.agencyId, '127.0.0.1'));
      app = await buildApp({ config: loadConfig({ APAS_PUBLIC_URL: 'http://apas.test' }), store: db.store, clock, logger: false, blobs: new DatabaseBlobStore(db.store, clock) });
      deps = { store: db.store, clock, ids, reactions: changeReactions(), client: new HttpConnectionClient({ allowInsecure: true }) };
    });
    after(async () => {
      await app?.close();
      await db?.close();
      system.server.close();
    });
    beforeEach(() => {
      system.seen.length = 0;
    });

    const pointAt = (path: string) => db.store.transaction((tx) => tx.connections.saveSettings({
      programId: model.program.id, connectionId: 'lookup', url: system.url(path), auth: { kind: 'header', name: 'X-Api-Key', value: 'k-123' }, updatedAt: clock.now(),
    }, null));
    const fieldOf = (customId: string) => model.fields.find((f) => f.customId === customId)!.id;
    const statusOf = (id: string) => model.statuses.find((s) => s.id === id)!.customId;
    function call(method: 'GET' | 'POST', path: string, body?: string): Promise<LightMyRequestResponse> {
      clock.advance();
      return app.inject({
        method, url: `/services/v2/Programs/CONN/${path}`, payload: body,
        headers: { authorization: basic(applicant), 'x-apikey': applicant.apiKey, accept: 'application/xml', ...(body !== undefined ? { 'content-type': 'application/xml' } : {}) },
      });
    }
    /** A project of the applicant submitted with `account`: the submission's change queues the call. */
    async function submitted(account: string): Promise<string> {
      const created = await call('POST', 'NewProject');
      const projectId = /ProjectId="([^"]+)"/.exec(created.body)![1]!;
      assert.equal((await call('POST', `Projects/${projectId}/Forms/Application/Draft/Data`, dataRequest({ Account: account }))).statusCode, 200);
      const done = await call('POST', `Projects/${projectId}/Forms/Application/Draft/Submit`);
      assert.equal(done.statusCode, 200, done.body);
      return projectId;
    }
    const values = async (projectId: string) => Object.fromEntries((await db.store.projects.getValues(projectId, [fieldOf('CustomerName'), fieldOf('Size')])).map((v) => [model.fields.find((f) => f.id === v.fieldId)!.customId, v.value]));
    const flagged = () => db.store.projects.countWorkQueue({ programId: model.program.id, fields: [], attention: { kinds: ['connection'] } }, 1000);
    /** Runs rounds of the task, moving the clock past each retry's wait, until the project's calls are settled. */
    async function settle(projectId: string): Promise<void> {
      for (let i = 0; i < 10; i++) {
        await makeDueCalls(deps, POLICY);
        const calls = await db.store.connections.listProjectCalls(projectId);
        if (calls.every((c) => c.state !== 'queued')) return;
        clock.advance(5_000);
      }
      assert.fail('the calls did not settle');
    }

    it('the submission only queues the call; the task calls once with an Idempotency-Key and applies the answer in a change of its own', async () => {
      await pointAt('/ok');
      const projectId = await submitted('A-100');
      const [queued] = await db.store.connections.listProjectCalls(projectId);
      assert.deepEqual([queued?.state, queued?.attempts, system.seen.length], ['queued', 0, 0], 'nothing is called inside the change');
      assert.equal(statusOf((await db.store.projects.getProject(model.program.id, projectId))!.statusId), 'Submitted');

      await makeDueCalls(deps, POLICY);
      assert.deepEqual(system.seen.map((s) => [s.path, JSON.parse(s.body), s.key, s.apiKey]), [['/ok', { account: 'A-100' }, queued!.idempotencyKey, 'k-123']]);
      assert.match(queued!.idempotencyKey, /^[0-9a-f]{40}$/);
      assert.deepEqual(await values(projectId), { CustomerName: 'Pat Homeowner', Size: '7.5' });
      const project = (await db.store.projects.getProject(model.program.id, projectId))!;
      assert.equal(statusOf(project.statusId), 'Checked', 'the field it set triggered the next automation in the same change');
      const [applied] = await db.store.audit.list({ projectId, action: 'project.connection.apply' });
      assert.deepEqual([applied?.actorId, applied?.detail?.automation, applied?.detail?.connection], ['system', 'look-up', 'lookup']);
      const events = (await db.store.events.listProjectEvents(projectId)).map((e) => e.type);
      assert.ok(events.includes('connection.applied'), events.join());
      assert.equal((await db.store.connections.getCall(queued!.id))?.state, 'applied');
      // Applied once: another round asks nothing and changes nothing.
      const version = project.version;
      await makeDueCalls(deps, POLICY);
      assert.equal(system.seen.length, 1);
      assert.equal((await db.store.projects.getProject(model.program.id, projectId))!.version, version);
    });

    for (const [path, error, attempts] of [
      ['/fail', /the system answered 500/, 3],
      ['/garbled', /something other than JSON/, 3],
      ['/wrong-shape', /does not fit the connection's response: response\.name is missing/, 3],
      ['/slow', /no answer within 300 ms/, 3],
      ['/redirect', /answered 302, a redirect, which connections do not follow/, 1],
    ] as const) {
      it(`a system answering ${path.slice(1)} is tried ${attempts === 1 ? 'once' : 'again with the same key'}, then the call fails: trigger, event and the queue's flag`, async () => {
        await pointAt(path);
        const before = await flagged();
        const projectId = await submitted(`B-${path}`);
        await settle(projectId);
        const [failed] = await db.store.connections.listProjectCalls(projectId);
        assert.equal(failed?.state, 'failed');
        assert.equal(failed?.attempts, attempts);
        assert.match(failed?.lastError ?? '', error);
        assert.equal(system.seen.length, attempts);
        assert.deepEqual(new Set(system.seen.map((s) => s.key)), new Set([failed!.idempotencyKey]));
        assert.deepEqual(await values(projectId), {}, 'nothing written');
        const audit = await db.store.audit.list({ projectId, action: 'project.connection.fail' });
        assert.equal(audit.length, 1);
        const events = (await db.store.events.listProjectEvents(projectId)).map((e) => [e.type, e.data.connectionId ?? e.data.name]);
        assert.ok(events.some(([t, c]) => t === 'connection.failed' && c === 'lookup'), JSON.stringify(events));
        assert.ok(events.some(([t, n]) => t === 'automation.custom' && n === 'lookupFailed'), 'the connection.failed automation ran');
        assert.equal(await flagged(), before + 1, 'the project needs attention');
        if (path === '/slow') await new Promise((resolve) => setTimeout(resolve, 1600));
      });
    }

    it('a call that succeeds later clears the project\'s "Connection failed" flag', async () => {
      await pointAt('/fail');
      const projectId = await submitted('C-1');
      await settle(projectId);
      const flaggedBefore = await flagged();
      // Staff ask again: a later call of the project succeeds.
      await pointAt('/ok');
      await db.store.transaction((tx) => tx.connections.insertCall({
        id: 'again-1', programId: model.program.id, projectId, connectionId: 'lookup', automation: 'look-up', idempotencyKey: 'again-1', state: 'queued',
        attempts: 0, nextAttemptAt: clock.now(), leaseUntil: null, response: null, lastError: null, createdAt: clock.now(), updatedAt: clock.now(),
      }));
      await settle(projectId);
      assert.equal(await flagged(), flaggedBefore - 1);
      assert.deepEqual(await values(projectId), { CustomerName: 'Pat Homeowner', Size: '7.5' });
    });

    const enrolled = async (projectId: string) => (await db.store.projects.getValues(projectId, [fieldOf('Enrolled')]))[0]?.values ?? null;

    it('a multi-value field is set from a list of strings, and the same list again writes nothing', async () => {
      await pointAt('/programs');
      const set = await submitted('M-1');
      await makeDueCalls(deps, POLICY);
      assert.deepEqual(await enrolled(set), ['NEM', 'CARE']);
      const [applied] = await db.store.audit.list({ projectId: set, action: 'project.connection.apply' });
      assert.deepEqual(applied?.detail?.fields, [fieldOf('CustomerName'), fieldOf('Size'), fieldOf('Enrolled')]);
      assert.equal(applied?.detail?.skipped, undefined);
      // Applied again with the same values, nothing is written anew.
      await db.store.transaction((tx) => tx.connections.insertCall({
        id: 'again-m', programId: model.program.id, projectId: set, connectionId: 'lookup', automation: 'look-up', idempotencyKey: 'again-m', state: 'queued',
        attempts: 0, nextAttemptAt: clock.now(), leaseUntil: null, response: null, lastError: null, createdAt: clock.now(), updatedAt: clock.now(),
      }));
      await settle(set);
      const again = (await db.store.audit.list({ projectId: set, action: 'project.connection.apply' })).find((a) => a.detail?.callId === 'again-m');
      assert.deepEqual(again?.detail?.fields, []);
    });

    it('a list with an item off the field\'s choices is skipped whole and named in the audit; the other fields are set', async () => {
      await pointAt('/bad-program');
      const skipped = await submitted('M-2');
      await makeDueCalls(deps, POLICY);
      assert.equal(await enrolled(skipped), null, 'no part of the list is written');
      assert.deepEqual(await values(skipped), { CustomerName: 'Pat Homeowner', Size: '7.5' }, 'the other fields are set');
      const [audit] = await db.store.audit.list({ projectId: skipped, action: 'project.connection.apply' });
      assert.deepEqual(audit?.detail?.skipped, [{ fieldId: fieldOf('Enrolled'), reason: 'value 2 of 2: "BOGUS" is not a choice of Enrolled programs.' }]);
    });

    it('a deleted project takes its calls with it, and a call whose project is gone ends failed instead of being claimed again and again', async () => {
      await pointAt('/ok');
      const projectId = await submitted('E-1');
      assert.equal((await db.store.connections.listProjectCalls(projectId)).length, 1);
      await db.store.transaction((tx) => tx.projects.deleteProjectRows(projectId));
      assert.deepEqual(await db.store.connections.listProjectCalls(projectId), []);
      await db.store.transaction((tx) => tx.connections.insertCall({
        id: 'orphan-1', programId: model.program.id, projectId: 'no-such-project', connectionId: 'lookup', automation: 'look-up', idempotencyKey: 'orphan-1', state: 'queued',
        attempts: 0, nextAttemptAt: clock.now(), leaseUntil: null, response: null, lastError: null, createdAt: clock.now(), updatedAt: clock.now(),
      }));
      await makeDueCalls(deps, POLICY);
      const orphan = await db.store.connections.getCall('orphan-1');
      assert.deepEqual([orphan?.state, orphan?.lastError], ['failed', 'the project no longer exists']);
      assert.equal(system.seen.length, 0);
    });

    it('a host off the agency\'s allowlist is never called', async () => {
      await db.store.transaction((tx) => tx.connections.saveSettings({
        programId: model.program.id, connectionId: 'lookup', url: system.url('/ok').replace('127.0.0.1', 'localhost'), auth: { kind: 'none' }, updatedAt: clock.now(),
      }, null));
      const projectId = await submitted('D-1');
      await settle(projectId);
      const [failed] = await db.store.connections.listProjectCalls(projectId);
      assert.deepEqual([failed?.state, failed?.attempts], ['failed', 1]);
      assert.match(failed?.lastError ?? '', /localhost is not on the agency's allowlist/);
      assert.equal(system.seen.length, 0);
    });
  });
}
