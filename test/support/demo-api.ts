import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { loadConfig } from '../../src/config.ts';
import { DEMO_CREDENTIALS, type DemoCredential, seedDemo } from '../../src/domain/programs/demo.ts';
import { buildApp } from '../../src/http/app.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import type { ProgramModel } from '../../src/model/model.ts';
import { DatabaseBlobStore } from '../../src/store/database-blob-store.ts';
import { createSchemaRegistry, type SchemaRegistry } from '../../src/xml/schema-registry.ts';
import { type DIALECTS, openTestStore, type TestStore } from './databases.ts';
import { dataRequest, TestClock } from './http-harness.ts';
import { TINY_PDF } from './tiny-pdf.ts';
import { programCheckers } from '../../src/domain/wiring/program-checkers.ts';

// The demo program (programs/residential-solar.yaml) served in-process over a test database, with its demo users as
// callers: what the tests of the demo's rules and tables share.

/** The demo program's API root. */
export const DEMO_PROGRAM_URL = '/services/v2/Programs/RES-SOLAR';

/** A complete, valid Interconnection Application of the demo (no battery, 7.6 kW DC, 6 kW AC): ready to submit once the site plan is uploaded. */
export const DEMO_APPLICATION: Readonly<Record<string, string>> = {
  CustomerName: 'Pat Homeowner', CustomerEmail: 'pat@example.org', ServiceAddress: '1 Sunny Lane', UtilityAccountNumber: 'ACCT-1',
  ServiceType: '1P-120-240', SystemSizeKwDc: '7.6', SystemSizeKwAc: '6', ModuleCount: '19', InverterMake: 'ENPHASE', InverterModel: 'IQ8PLUS',
  MountingType: 'Roof', HasBattery: 'false', InstallerName: 'Bright Solar LLC',
};

/** The demo user of a role (`admin`, `reviewer`, `applicant`, …). */
export const demoUser = (role: string): DemoCredential => DEMO_CREDENTIALS.find((c) => c.role === role)!;

/** The Basic authorization header of a demo user. */
export const basicAuth = (c: DemoCredential): string => `Basic ${Buffer.from(`${c.email}:${c.password}`).toString('base64')}`;

/** How a demo request is sent: its body's media type (XML unless said) and the Accept header. */
export interface DemoCallOptions { type?: string; accept?: string }

/** The demo served over one test database; valid inside the tests of the describe block that made it. */
export interface DemoApi {
  readonly app: FastifyInstance; readonly db: TestStore; readonly clock: TestClock; readonly model: ProgramModel; readonly schemas: SchemaRegistry;
  /** Where the app keeps files (the background tasks of demo-signing.ts must use the same). */
  readonly blobs: DatabaseBlobStore;
  /** A request under the program's root as `c` (Basic auth and API key); the clock moves on first. */
  call(c: DemoCredential, method: 'GET' | 'POST', path: string, body?: string, options?: DemoCallOptions): Promise<LightMyRequestResponse>;
  /** The body of a 200 answer (failing the test otherwise), checked against the XSD `schema` when one is named. */
  ok(res: Promise<LightMyRequestResponse>, schema?: string): Promise<string>;
  /** A new project of `c` (the applicant unless said). */
  newProject(c?: DemoCredential): Promise<string>;
  /** A new project of the applicant with DEMO_APPLICATION and its site plan, submitted (in Application Review). */
  submitted(): Promise<string>;
  /** Uploads the tiny PDF as `attachment` of a form (the Application unless said). */
  upload(projectId: string, attachment: string, c?: DemoCredential, form?: string): Promise<LightMyRequestResponse>;
  /** GETs a web page as `c` (HTTP Basic, as the web pages accept); the clock moves on first. */
  webGet(c: DemoCredential, url: string): Promise<LightMyRequestResponse>;
  /** POSTs a web form as `c` with the CSRF token (and its cookie) of the home page, as a browser would. */
  webPost(c: DemoCredential, url: string, form: Record<string, string>): Promise<LightMyRequestResponse>;
}

/** Seeds the demo on a fresh `dialect` database before the block's tests and closes everything after them. */
export function demoApi(dialect: (typeof DIALECTS)[number]): DemoApi {
  let app: FastifyInstance | undefined;
  let db: TestStore | undefined;
  let model: ProgramModel | undefined;
  let schemas: SchemaRegistry | undefined;
  let blobs: DatabaseBlobStore | undefined;
  const clock = new TestClock();
  before(async () => {
    db = await openTestStore(dialect);
    const { programId } = await seedDemo({ store: db.store, clock, ids: new RandomIdGenerator(), checkers: programCheckers() });
    const config = loadConfig({ APAS_PUBLIC_URL: 'http://apas.test' });
    blobs = new DatabaseBlobStore(db.store, clock);
    app = await buildApp({ config, store: db.store, clock, logger: false, blobs });
    model = await db.store.programs.loadProgramModel((await db.store.programs.findProgram(programId))!);
    schemas = createSchemaRegistry(config.xmlNamespace);
  });
  after(async () => {
    await app?.close();
    schemas?.dispose();
    await db?.close();
  });
  const api: DemoApi = {
    get app() { return app!; },
    get db() { return db!; },
    get model() { return model!; },
    get schemas() { return schemas!; },
    get blobs() { return blobs!; },
    clock,
    call(c, method, path, body, { type = 'application/xml', accept } = {}) {
      clock.advance();
      return app!.inject({
        method, url: `${DEMO_PROGRAM_URL}/${path}`, payload: body,
        headers: { authorization: basicAuth(c), 'x-apikey': c.apiKey, ...(body !== undefined ? { 'content-type': type } : {}), ...(accept ? { accept } : {}) },
      });
    },
    async ok(res, schema) {
      const r = await res;
      assert.equal(r.statusCode, 200, r.body);
      if (schema) assert.deepEqual(schemas!.validate(schema, r.body), [], `${schema} failed its XSD:\n${r.body}`);
      return r.body;
    },
    async newProject(c = demoUser('applicant')) {
      return /ProjectId="([^"]+)"/.exec(await api.ok(api.call(c, 'POST', 'NewProject')))![1]!;
    },
    async submitted() {
      const applicant = demoUser('applicant');
      const projectId = await api.newProject(applicant);
      assert.equal((await api.upload(projectId, 'SitePlan')).statusCode, 200);
      await api.ok(api.call(applicant, 'POST', `Projects/${projectId}/Forms/Application/Draft/Data`, dataRequest(DEMO_APPLICATION)));
      await api.ok(api.call(applicant, 'POST', `Projects/${projectId}/Forms/Application/Draft/Submit`));
      return projectId;
    },
    upload(projectId, attachment, c = demoUser('applicant'), form = 'Application') {
      clock.advance();
      return app!.inject({
        method: 'POST', url: `${DEMO_PROGRAM_URL}/Projects/${projectId}/Forms/${form}/Attachments/${attachment}`, payload: TINY_PDF,
        headers: { authorization: basicAuth(c), 'x-apikey': c.apiKey, 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="x.pdf"' },
      });
    },
    webGet(c, url) {
      clock.advance();
      return app!.inject({ method: 'GET', url, headers: { authorization: basicAuth(c) } });
    },
    async webPost(c, url, form) {
      const home = await api.webGet(c, '/MvcProjects/');
      const token = /name="_csrf" value="([^"]+)"/.exec(home.body)?.[1];
      const cookie = ([] as string[]).concat(home.headers['set-cookie'] ?? []).find((x) => x.startsWith('_csrf='))?.split(';')[0];
      assert.ok(token && cookie, `no CSRF token for ${c.email}: ${home.statusCode}`);
      clock.advance();
      return app!.inject({
        method: 'POST', url, payload: new URLSearchParams({ _csrf: token, ...form }).toString(),
        headers: { authorization: basicAuth(c), 'content-type': 'application/x-www-form-urlencoded', cookie },
      });
    },
  };
  return api;
}
