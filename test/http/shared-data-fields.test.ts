import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { loadConfig } from '../../src/config.ts';
import { DEMO_CREDENTIALS, type DemoCredential, seedDemo } from '../../src/domain/programs/demo.ts';
import { buildApp } from '../../src/http/app.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import type { ProgramModel } from '../../src/model/model.ts';
import { DatabaseBlobStore } from '../../src/store/database-blob-store.ts';
import { DIALECTS, openTestStore, type TestStore } from '../support/databases.ts';
import { dataRequest, NS, TestClock } from '../support/http-harness.ts';
import { TINY_PDF } from '../support/tiny-pdf.ts';
import { programCheckers } from '../../src/domain/wiring/program-checkers.ts';
import { signDemoAgreement } from '../support/demo-signing.ts';

// A data field on several forms has one value per project (docs/interface.md, Data fields shared by forms). In the
// demo, Inverter model is on the Interconnection Application and on the Completion Certificate: the certificate's
// draft, its form page and the review page show the application's value, and submitting the certificate as shown
// (through the API or the web page) leaves it as it is. Read back through the API, the web pages and the store.

const PROGRAM = '/services/v2/Programs/RES-SOLAR';
const APPLICATION = {
  CustomerName: 'Pat Homeowner', CustomerEmail: 'pat@example.org', ServiceAddress: '1 Sunny Lane', UtilityAccountNumber: 'ACCT-1',
  ServiceType: '1P-120-240', SystemSizeKwDc: '7.6', SystemSizeKwAc: '6', ModuleCount: '19', InverterMake: 'ENPHASE', InverterModel: 'IQ8PLUS',
  MountingType: 'Roof', HasBattery: 'false', InstallerName: 'Bright Solar LLC',
};
const CERTIFICATE = { InstallationDate: '2026-03-20', ModuleSerialNumbers: ['SN-1', 'SN-2'], ElectricalPermitNumber: 'EP-77' };

const who = (role: string): DemoCredential => DEMO_CREDENTIALS.find((c) => c.role === role)!;
const basic = (c: DemoCredential) => `Basic ${Buffer.from(`${c.email}:${c.password}`).toString('base64')}`;

/** The value of one data field in a GetProjectData answer (undefined when left out), by generated id. */
function apiValue(xml: string, fieldId: string): string | undefined {
  const field = new RegExp(`<DataField DataFieldId="${fieldId}"[^>]*?(?:/>|>[\\s\\S]*?</DataField>)`).exec(xml)?.[0] ?? '';
  return /Value="([^"]*)"/.exec(field)?.[1];
}

/** The value attribute of the form page's input named `name` (the first such input), HTML entities as sent. */
function inputValue(html: string, name: string): string | undefined {
  return new RegExp(`<input class="usa-input" type="[a-z]+" id="[^"]*" name="${name}" value="([^"]*)"`).exec(html)?.[1];
}

for (const dialect of DIALECTS) {
  describe(`a data field shared by two forms [${dialect}]`, () => {
    let db: TestStore | undefined;
    let app: FastifyInstance | undefined;
    let model: ProgramModel;
    let blobs: DatabaseBlobStore | undefined;
    const clock = new TestClock();
    const [admin, applicant] = [who('admin'), who('applicant')];

    before(async () => {
      db = await openTestStore(dialect);
      const { programId } = await seedDemo({ store: db.store, clock, ids: new RandomIdGenerator(), checkers: programCheckers() });
      blobs = new DatabaseBlobStore(db.store, clock);
      app = await buildApp({ config: loadConfig({ APAS_PUBLIC_URL: 'http://apas.test' }), store: db.store, clock, logger: false, blobs });
      model = await db.store.programs.loadProgramModel((await db.store.programs.findProgram(programId))!);
    });
    after(async () => {
      await app?.close();
      await db?.close();
    });

    const id = (customId: string) => model.fields.find((f) => f.customId === customId)!.id;
    const formId = (customId: string) => model.forms.find((f) => f.customId === customId)!.id;

    function call(c: DemoCredential, method: 'GET' | 'POST', path: string, body?: string, type = 'application/xml'): Promise<LightMyRequestResponse> {
      clock.advance();
      return app!.inject({
        method, url: `${PROGRAM}/${path}`, payload: body,
        headers: { authorization: basic(c), 'x-apikey': c.apiKey, ...(body !== undefined ? { 'content-type': type } : {}) },
      });
    }
    async function ok(res: Promise<LightMyRequestResponse>): Promise<string> {
      const r = await res;
      assert.equal(r.statusCode, 200, r.body);
      return r.body;
    }
    function upload(projectId: string, form: string, attachment: string): Promise<LightMyRequestResponse> {
      clock.advance();
      return app!.inject({
        method: 'POST', url: `${PROGRAM}/Projects/${projectId}/Forms/${form}/Attachments/${attachment}`, payload: TINY_PDF,
        headers: { authorization: basic(applicant), 'x-apikey': applicant.apiKey, 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="x.pdf"' },
      });
    }
    /**
     * A project whose application (Inverter model IQ8PLUS) was submitted and approved, and whose interconnection
     * agreement the owner and a plan reviewer signed: the certificate is open.
     */
    async function approvedProject(): Promise<string> {
      const projectId = /ProjectId="([^"]+)"/.exec(await ok(call(applicant, 'POST', 'NewProject')))![1]!;
      await ok(call(applicant, 'POST', `Projects/${projectId}/Forms/Application/Draft/Data`, dataRequest(APPLICATION)));
      assert.equal((await upload(projectId, 'Application', 'SitePlan')).statusCode, 200);
      await ok(call(applicant, 'POST', `Projects/${projectId}/Forms/Application/Draft/Submit`));
      await ok(call(admin, 'POST', `Projects/${projectId}/Status`, `<SetProjectStatusRequest xmlns="${NS}" StatusId="ApprovedForInstallation"/>`));
      await signDemoAgreement({ app: app!, store: db!.store, clock, blobs: blobs! }, projectId);
      return projectId;
    }
    async function csrf(): Promise<{ token: string; cookie: string }> {
      const res = await app!.inject({ method: 'GET', url: '/MvcProjects/SignIn' });
      const cookie = [res.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('_csrf='))!.split(';')[0]!;
      return { token: /name="_csrf" value="([^"]+)"/.exec(res.body)![1]!, cookie };
    }
    const formPage = (projectId: string, form: string) => `/MvcProjects/Programs/${model.program.id}/Projects/${projectId}/Forms/${formId(form)}`;
    async function page(c: DemoCredential, url: string): Promise<string> {
      const res = await app!.inject({ method: 'GET', url, headers: { authorization: basic(c) } });
      assert.equal(res.statusCode, 200, res.body);
      return res.body;
    }
    async function postPage(projectId: string, form: string, fields: [string, string][]): Promise<LightMyRequestResponse> {
      const { token, cookie } = await csrf();
      clock.advance();
      return app!.inject({
        method: 'POST', url: formPage(projectId, form), payload: new URLSearchParams([['_csrf', token], ...fields]).toString(),
        headers: { authorization: basic(applicant), cookie, 'content-type': 'application/x-www-form-urlencoded' },
      });
    }
    /** The certificate's own fields as a person types them, and every hidden control of the page as it was shown. */
    function typedCertificate(html: string): [string, string][] {
      const hidden = [...html.matchAll(/<input type="hidden" name="(_shown_[^"]+)" value(?:="([^"]*)")?\/>/g)].map((m) => [m[1]!, m[2] ?? ''] as [string, string]);
      return [
        ...hidden, [id('InstallationDate'), CERTIFICATE.InstallationDate], [id('ModuleSerialNumbers'), CERTIFICATE.ModuleSerialNumbers.join('\n')],
        [id('ElectricalPermitNumber'), CERTIFICATE.ElectricalPermitNumber],
      ];
    }

    it("the certificate's draft, form page and review page show the application's value; submitting the certificate as shown keeps it", async () => {
      const projectId = await approvedProject();
      // The API's view of the certificate's draft: the project's value, not an empty field.
      assert.equal(apiValue(await ok(call(applicant, 'GET', `Projects/${projectId}/Forms/CompletionCertificate/Draft/Data`)), id('InverterModel')), 'IQ8PLUS');
      const html = await page(applicant, formPage(projectId, 'CompletionCertificate'));
      const shownModel = inputValue(html, id('InverterModel'));
      assert.equal(shownModel, 'IQ8PLUS', 'the form page shows the value the application gave');
      // The page posted as a person leaves it: the certificate's own fields typed, Inverter model as shown.
      const saved = await postPage(projectId, 'CompletionCertificate', [...typedCertificate(html), [id('InverterModel'), shownModel], ['action', 'save']]);
      assert.equal(saved.statusCode, 303, saved.body);
      assert.equal((await upload(projectId, 'CompletionCertificate', 'SignedCertificate')).statusCode, 200);
      const again = await page(applicant, formPage(projectId, 'CompletionCertificate'));
      const submitted = await postPage(projectId, 'CompletionCertificate', [...typedCertificate(again), [id('InverterModel'), inputValue(again, id('InverterModel'))!], ['action', 'submit']]);
      assert.equal(submitted.statusCode, 303, submitted.body);
      // One value per project: every form's submitted data and draft says IQ8PLUS, through the API and on the pages.
      for (const path of ['Application/Data', 'Application/Draft/Data', 'CompletionCertificate/Data', 'CompletionCertificate/Draft/Data']) {
        assert.equal(apiValue(await ok(call(admin, 'GET', `Projects/${projectId}/Forms/${path}`)), id('InverterModel')), 'IQ8PLUS', path);
      }
      const review = await page(admin, `/MvcProjects/Programs/${model.program.id}/Projects/${projectId}/Review`);
      assert.match(review, /<th scope="row">Inverter model<\/th><td>IQ8PLUS<\/td><td>IQ8PLUS<\/td>/);
      assert.doesNotMatch(review, /changed in draft/, 'no draft changed anything');
      assert.match(await page(applicant, `/MvcProjects/LandingPage?ProgramId=${model.program.id}&ProjectId=${projectId}`), /<dt>Inverter model<\/dt><dd>IQ8PLUS<\/dd>/);
    });

    it('a change made on the certificate is the draft until submitted, then the one value of every form', async () => {
      const projectId = await approvedProject();
      await ok(call(applicant, 'POST', `Projects/${projectId}/Forms/CompletionCertificate/Draft/Data`, dataRequest({ ...CERTIFICATE, InverterModel: 'IQ8M' })));
      const value = async (path: string) => apiValue(await ok(call(admin, 'GET', `Projects/${projectId}/Forms/${path}`)), id('InverterModel'));
      assert.equal(await value('CompletionCertificate/Draft/Data'), 'IQ8M');
      assert.equal(await value('Application/Data'), 'IQ8PLUS', 'not submitted yet');
      const review = await page(admin, `/MvcProjects/Programs/${model.program.id}/Projects/${projectId}/Review`);
      assert.match(review, /<th scope="row">Inverter model<\/th><td>IQ8PLUS<\/td><td>IQ8M<strong class="changed"> \(changed in draft\)<\/strong><\/td>/);
      assert.equal((await upload(projectId, 'CompletionCertificate', 'SignedCertificate')).statusCode, 200);
      await ok(call(applicant, 'POST', `Projects/${projectId}/Forms/CompletionCertificate/Draft/Submit`));
      for (const path of ['Application/Data', 'Application/Draft/Data', 'CompletionCertificate/Data', 'CompletionCertificate/Draft/Data']) assert.equal(await value(path), 'IQ8M', path);
      assert.doesNotMatch(await page(admin, `/MvcProjects/Programs/${model.program.id}/Projects/${projectId}/Review`), /changed in draft/);
      // A draft that clears the value on purpose clears it on submission (a DataField without a value clears it).
      // (Returned from the inspection, which needs a reason.)
      await ok(call(admin, 'POST', `Projects/${projectId}/Status`, `<SetProjectStatusRequest xmlns="${NS}" StatusId="ApprovedForInstallation" ReasonId="LabelsMissing"/>`));
      await ok(call(applicant, 'POST', `Projects/${projectId}/Forms/CompletionCertificate/Draft/Data`, dataRequest({ InverterModel: null })));
      assert.equal(await value('CompletionCertificate/Draft/Data'), undefined);
      await ok(call(applicant, 'POST', `Projects/${projectId}/Forms/CompletionCertificate/Draft/Submit`));
      assert.equal(await value('Application/Data'), undefined);
    });

    it('a form page saves only what the person changed: a value changed elsewhere since the page was shown is not written over', async () => {
      const projectId = await approvedProject();
      const html = await page(applicant, formPage(projectId, 'CompletionCertificate'));
      assert.equal(inputValue(html, id('InverterModel')), 'IQ8PLUS');
      // Meanwhile an admin corrects the application's submitted value.
      await ok(call(admin, 'POST', `Projects/${projectId}/Forms/Application/Data`, dataRequest({ InverterModel: 'IQ7A' })));
      const saved = await postPage(projectId, 'CompletionCertificate', [...typedCertificate(html), [id('InverterModel'), 'IQ8PLUS'], ['action', 'save']]);
      assert.equal(saved.statusCode, 303, saved.body);
      const draft = await db!.store.projects.getDraft(projectId, formId('CompletionCertificate'));
      assert.deepEqual(draft.map((v) => v.fieldId).sort(), [id('InstallationDate'), id('ModuleSerialNumbers'), id('ElectricalPermitNumber')].sort(), 'only the typed fields are draft changes');
      assert.equal(apiValue(await ok(call(applicant, 'GET', `Projects/${projectId}/Forms/CompletionCertificate/Draft/Data`)), id('InverterModel')), 'IQ7A');
      // A value the person did change is saved, even one the page showed from another form.
      const next = await page(applicant, formPage(projectId, 'CompletionCertificate'));
      assert.equal(inputValue(next, id('InverterModel')), 'IQ7A');
      assert.equal((await postPage(projectId, 'CompletionCertificate', [...typedCertificate(next), [id('InverterModel'), ''], ['action', 'save']])).statusCode, 303);
      assert.equal(apiValue(await ok(call(applicant, 'GET', `Projects/${projectId}/Forms/CompletionCertificate/Draft/Data`)), id('InverterModel')), undefined);
      assert.equal(apiValue(await ok(call(applicant, 'GET', `Projects/${projectId}/Forms/Application/Data`)), id('InverterModel')), 'IQ7A', 'until submitted');
    });
  });
}
