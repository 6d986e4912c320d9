import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { XMLParser } from 'fast-xml-parser';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { loadConfig } from '../../src/config.ts';
import { DEMO_CREDENTIALS, type DemoCredential, seedDemo } from '../../src/domain/programs/demo.ts';
import { CHANGE_VISIBILITY_MARGIN_MS } from '../../src/domain/projects/project-service.ts';
import { buildApp } from '../../src/http/app.ts';
import { isoTimestamp } from '../../src/model/clock.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import type { BlobStore } from '../../src/store/blob-store.ts';
import { DatabaseBlobStore } from '../../src/store/database-blob-store.ts';
import { LocalBlobStore } from '../../src/store/local-blob-store.ts';
import { createSchemaRegistry, type SchemaRegistry } from '../../src/xml/schema-registry.ts';
import { DIALECTS, openTestStore, type TestStore } from '../support/databases.ts';
import { attr, attrs, dataRequest, NS, rootName, TestClock } from '../support/http-harness.ts';
import { programCheckers } from '../../src/domain/wiring/program-checkers.ts';
import { signDemoAgreement } from '../support/demo-signing.ts';

// The demo program (programs/residential-solar.yaml) walked through end to end, over HTTP only, with the demo
// credentials: apply, review, approve, certify completion, grant permission to operate, then report on it.

const PROGRAM = '/services/v2/Programs/RES-SOLAR';

const APPLICATION = {
  CustomerName: 'Pat Homeowner', CustomerEmail: 'pat@example.org', CustomerPhone: '555-0100', ServiceAddress: '1 Sunny Lane, Springfield',
  UtilityAccountNumber: 'ACCT-998877', MeterNumber: 'M-123456', ServiceType: '1P-120-240', SystemSizeKwDc: '7.6', SystemSizeKwAc: '6',
  ModuleCount: '19', InverterMake: 'ENPHASE', InverterModel: 'IQ8PLUS', MountingType: 'Roof', HasBattery: 'false',
  InstallerName: 'Bright Solar LLC', InstallerLicense: 'C-46 123456', PlannedInstallDate: '2026-03-15',
};
const REVIEW = { SiteInfoComplete: 'true', DiagramMatchesEquipment: 'true', ReviewerNotes: 'Site plan and diagram match.' };
const COMPLETION = { InstallationDate: '2026-03-20', ModuleSerialNumbers: ['SN-0001', 'SN-0002', 'SN-0003'], InverterModel: 'IQ8M', ElectricalPermitNumber: 'EP-2026-77' };
const SITE_PLAN = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const DIAGRAM = Buffer.from('%PDF-1.4\n% single-line diagram\n%%EOF\n');
const CERTIFICATE = Buffer.from('%PDF-1.4\n% signed completion certificate\n%%EOF\n');
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

const parser = new XMLParser({
  ignoreAttributes: false, attributeNamePrefix: '', parseTagValue: false, parseAttributeValue: false,
  isArray: (name, _path, _leaf, isAttribute) => !isAttribute && ['Form', 'Group', 'Field', 'CurrentValue', 'Status', 'Attachment'].includes(name),
});
type Node = Record<string, unknown>;
const list = (v: unknown): Node[] => (Array.isArray(v) ? (v as Node[]) : []);

function credential(role: string): DemoCredential {
  const c = DEMO_CREDENTIALS.find((x) => x.role === role);
  assert.ok(c, role);
  return c;
}

for (const dialect of DIALECTS) {
  describe(`demo workflow end to end [${dialect}]`, () => {
    let db: TestStore | undefined;
    let app: FastifyInstance | undefined;
    let schemas: SchemaRegistry | undefined;
    const clock = new TestClock();
    const admin = credential('admin');
    const applicant = credential('applicant');
    const reviewer = credential('reviewer');
    let projectId = '';
    let mark = '';
    let blobDir = '';
    let blobs: BlobStore | undefined;

    before(async () => {
      db = await openTestStore(dialect);
      await seedDemo({ store: db.store, clock, ids: new RandomIdGenerator(), checkers: programCheckers() });
      const config = loadConfig({ APAS_PUBLIC_URL: 'http://apas.test' });
      // Each database with the blob store a deployment on it would use by default.
      blobDir = fs.mkdtempSync(path.join(os.tmpdir(), 'apas-demo-blobs-'));
      blobs = dialect === 'postgres' ? new DatabaseBlobStore(db.store) : new LocalBlobStore(blobDir);
      app = await buildApp({ config, store: db.store, clock, logger: false, blobs });
      schemas = createSchemaRegistry(config.xmlNamespace);
    });
    after(async () => {
      await app?.close();
      schemas?.dispose();
      await db?.store.close();
      if (dialect === 'postgres') await new Promise((resolve) => setTimeout(resolve, 100));
      await db?.close();
      fs.rmSync(blobDir, { recursive: true, force: true });
    });

    function call(who: DemoCredential, method: 'GET' | 'POST', path: string, body?: string): Promise<LightMyRequestResponse> {
      const headers: Record<string, string> = {
        authorization: `Basic ${Buffer.from(`${who.email}:${who.password}`).toString('base64')}`, 'x-apikey': who.apiKey,
      };
      if (body !== undefined) headers['content-type'] = 'application/xml';
      return app!.inject({ method, url: path.startsWith('/') ? path : `${PROGRAM}/${path}`, headers, payload: body });
    }

    /** SetProjectAttachment of a PDF for one of the project's forms. */
    function uploadPdf(who: DemoCredential, form: string, attachment: string, bytes: Buffer, fileName: string): Promise<LightMyRequestResponse> {
      return app!.inject({
        method: 'POST', url: `${PROGRAM}/Projects/${projectId}/Forms/${form}/Attachments/${attachment}`, payload: bytes,
        headers: {
          authorization: `Basic ${Buffer.from(`${who.email}:${who.password}`).toString('base64')}`, 'x-apikey': who.apiKey,
          'content-type': 'application/pdf', 'content-disposition': `attachment; filename="${fileName}"`,
        },
      });
    }

    /** Checks the status and that the body is valid against its XSD (by default the one named like its root). */
    function ok(res: LightMyRequestResponse, schema?: string): string {
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(schemas!.validate(schema ?? rootName(res.body), res.body), [], res.body);
      return res.body;
    }
    function refused(res: LightMyRequestResponse, status: number, code: string): string {
      assert.equal(res.statusCode, status, res.body);
      assert.deepEqual(schemas!.validate('ErrorResponse', res.body), [], res.body);
      assert.equal(attr(res.body, 'ErrorResponse', 'Code'), code, res.body);
      return (attr(res.body, 'ErrorResponse', 'Message') ?? '').replaceAll('&quot;', '"');
    }

    /**
     * GetProjects with changed_since = the last RequestTimestamp: the ids it lists; moves the mark on. The clock first
     * moves past the margin by which RequestTimestamp precedes a read, so changes the last poll saw are not listed again.
     */
    async function poll(): Promise<string[]> {
      clock.advance(CHANGE_VISIBILITY_MARGIN_MS + 1);
      const body = ok(await call(admin, 'GET', `Projects?changed_since=${encodeURIComponent(mark)}`), 'ProjectsResponse');
      mark = attr(body, 'ProjectsResponse', 'RequestTimestamp')!;
      clock.advance();
      return attrs(body, 'Project', 'ProjectId');
    }
    async function assertChanged(what: string): Promise<void> {
      assert.deepEqual(await poll(), [projectId], `GetProjects?changed_since finds the project after ${what}`);
    }
    async function assertUnchanged(what: string): Promise<void> {
      assert.deepEqual(await poll(), [], `nothing changed: ${what}`);
    }

    /** The history as GetProjectStatusHistory shows it: [Name, ChangedBy, ReportAs, Timestamp], newest first. */
    async function history(): Promise<string[][]> {
      const body = ok(await call(admin, 'GET', `Projects/${projectId}/StatusHistory`));
      const root = (parser.parse(body) as Node).ProjectStatusHistoryResponse as Node;
      return list(((root.Project as Node).StatusHistory as Node).Status).map((s) => [s.Name, s.ChangedBy, s.ReportAs, s.Timestamp] as string[]);
    }

    it('the applicant creates a project in RES-SOLAR', async () => {
      const first = ok(await call(admin, 'GET', 'Projects'), 'ProjectsResponse');
      assert.deepEqual(attrs(first, 'Project', 'ProjectId'), []);
      mark = attr(first, 'ProjectsResponse', 'RequestTimestamp')!;
      clock.advance();
      const body = ok(await call(applicant, 'POST', 'NewProject'));
      projectId = attr(body, 'Project', 'ProjectId')!;
      assert.ok(projectId);
      assert.equal(attr(body, 'CurrentStatus', 'Name'), 'Unsubmitted');
      assert.equal(attr(body, 'Project', 'ProjectNumber'), undefined);
      await assertChanged('CreateNewProject');
    });

    it('the applicant sees the forms meant for applicants only and cannot touch the staff-only ReviewChecklist', async () => {
      const forms = ok(await call(applicant, 'GET', 'Forms'));
      assert.deepEqual(attrs(forms, 'Form', 'CustomId'), ['Application', 'CompletionCertificate']);
      const staff = ok(await call(reviewer, 'GET', 'Forms'));
      assert.deepEqual(attrs(staff, 'Form', 'CustomId'), ['Application', 'CompletionCertificate', 'ReviewChecklist']);
      refused(await call(applicant, 'GET', 'Forms/ReviewChecklist/Schema'), 403, 'FORBIDDEN');
      refused(await call(applicant, 'GET', `Projects/${projectId}/Forms/ReviewChecklist/Draft/Data`), 403, 'FORBIDDEN');
      refused(await call(applicant, 'GET', `Projects/${projectId}/Forms/ReviewChecklist/Data`), 403, 'FORBIDDEN');
      refused(await call(applicant, 'POST', `Projects/${projectId}/Forms/ReviewChecklist/Draft/Data`, dataRequest({ ReviewerNotes: 'self-approved' })), 403, 'FORBIDDEN');
      refused(await call(applicant, 'POST', `Projects/${projectId}/Forms/ReviewChecklist/Draft/Submit`), 403, 'FORBIDDEN');
      await assertUnchanged('the applicant was refused the staff-only form');
    });

    it('the applicant fills the Application draft, is told it is incomplete, completes and submits it', async () => {
      const draftUrl = `Projects/${projectId}/Forms/Application/Draft/Data`;
      const partial = { CustomerName: APPLICATION.CustomerName, CustomerEmail: APPLICATION.CustomerEmail, SystemSizeKwDc: APPLICATION.SystemSizeKwDc };
      ok(await call(applicant, 'POST', draftUrl, dataRequest(partial)));
      await assertChanged('a draft was saved');

      const incomplete = await call(applicant, 'POST', `Projects/${projectId}/Forms/Application/Draft/Submit`);
      refused(incomplete, 422, 'FORM_INCOMPLETE');
      assert.deepEqual(attrs(incomplete.body, 'FieldError', 'CustomId').sort(), [
        'HasBattery', 'InstallerName', 'InverterMake', 'ModuleCount', 'MountingType', 'ServiceAddress', 'ServiceType', 'SitePlan', 'SystemSizeKwAc', 'UtilityAccountNumber',
      ]);
      assert.deepEqual([...new Set(attrs(incomplete.body, 'FieldError', 'Code'))], ['REQUIRED', 'ATTACHMENT_REQUIRED']);
      await assertUnchanged('a refused submission');

      const filled = ok(await call(applicant, 'POST', draftUrl, dataRequest(APPLICATION)));
      assert.equal(attr(filled, 'Project', 'CanSubmit'), 'false', 'the required site plan is still missing');
      ok(await uploadPdf(applicant, 'Application', 'SingleLineDiagram', DIAGRAM, 'single-line.pdf'));
      await assertChanged('the single-line diagram was uploaded');
      refused(await uploadPdf(applicant, 'CompletionCertificate', 'SignedCertificate', CERTIFICATE, 'early.pdf'), 409, 'FORM_NOT_AVAILABLE');
      await assertUnchanged('the certificate cannot be uploaded before installation is approved');
      const plan = ok(await uploadPdf(applicant, 'Application', 'SitePlan', SITE_PLAN, 'site-plan.pdf'));
      assert.equal(attr(plan, 'AttachmentMetadata', 'Sha256'), sha256(SITE_PLAN));
      await assertChanged('the site plan was uploaded');
      const ready = ok(await call(applicant, 'GET', draftUrl));
      assert.equal(attr(ready, 'Project', 'CanSubmit'), 'true');
      assert.deepEqual(attrs(ready, 'Attachment', 'FileName'), ['site-plan.pdf', 'single-line.pdf']);
      const submitted = ok(await call(applicant, 'POST', `Projects/${projectId}/Forms/Application/Draft/Submit`));
      assert.equal(attr(submitted, 'Project', 'ProjectNumber'), 'SOLAR-00001');
      assert.equal(attr(submitted, 'CurrentStatus', 'Name'), 'Application Review');
      assert.equal(attr(submitted, 'CurrentStatus', 'CustomId'), 'ApplicationReview');
      await assertChanged('SubmitProject');
    });

    it('the reviewer fills and submits the ReviewChecklist; the project stays in Application Review', async () => {
      ok(await call(reviewer, 'POST', `Projects/${projectId}/Forms/ReviewChecklist/Draft/Data`, dataRequest(REVIEW)));
      const body = ok(await call(reviewer, 'POST', `Projects/${projectId}/Forms/ReviewChecklist/Draft/Submit`));
      assert.equal(attr(body, 'Project', 'ProjectNumber'), 'SOLAR-00001');
      assert.equal(attr(body, 'CurrentStatus', 'Name'), 'Application Review', 'the checklist leads to no status');
      await assertChanged('the checklist was submitted');
      refused(await call(applicant, 'GET', `Projects/${projectId}/Forms/ReviewChecklist/Data`), 403, 'FORBIDDEN');
      // Nor can the applicant learn the checklist's values by searching on them.
      const probe = `<ProjectByDataRequest xmlns="${NS}"><DataFields><Field Id="ReviewerNotes" Operator="contains" Content="match"/></DataFields></ProjectByDataRequest>`;
      refused(await call(applicant, 'POST', 'Projects/ByData', probe), 400, 'INVALID_REQUEST');
      assert.deepEqual(attrs(ok(await call(reviewer, 'POST', 'Projects/ByData', probe), 'ProjectsResponse'), 'Project', 'ProjectId'), [projectId]);
    });

    it('the admin assigns the reviewer', async () => {
      const body = ok(await call(admin, 'POST', `Projects/${projectId}/Assignee`, `<SetAssigneeRequest xmlns="${NS}"><AssigneeEmail>${reviewer.email}</AssigneeEmail></SetAssigneeRequest>`));
      assert.equal(attr(body, 'Assignee', 'Name'), reviewer.name);
      assert.equal(attr(body, 'Assignee', 'Email'), reviewer.email);
      await assertChanged('SetAssignee');
      const notStaff = await call(admin, 'POST', `Projects/${projectId}/Assignee`, `<SetAssigneeRequest xmlns="${NS}"><AssigneeEmail>${applicant.email}</AssigneeEmail></SetAssigneeRequest>`);
      refused(notStaff, 422, 'UNKNOWN_USER');
      await assertUnchanged('an applicant cannot be assigned');
    });

    it('the admin cannot skip to Permission to Operate, and approves for installation', async () => {
      const statusBody = (id: string) => `<SetProjectStatusRequest xmlns="${NS}" StatusId="${id}"/>`;
      const message = refused(await call(admin, 'POST', `Projects/${projectId}/Status`, statusBody('PermissionToOperate')), 409, 'TRANSITION_NOT_ALLOWED');
      assert.match(message, /"Application Review".*"Permission to Operate".*allowed next: Engineering Review, Approved for Installation, Application Rejected, Withdrawn\./);
      refused(await call(reviewer, 'POST', `Projects/${projectId}/Status`, statusBody('ApprovedForInstallation')), 403, 'FORBIDDEN');
      await assertUnchanged('refused status changes');

      const body = ok(await call(admin, 'POST', `Projects/${projectId}/Status`, statusBody('ApprovedForInstallation')));
      assert.equal(attr(body, 'Status', 'Name'), 'Approved for Installation');
      assert.equal(attr(body, 'Status', 'CustomId'), 'ApprovedForInstallation');
      await assertChanged('SetProjectStatus');
    });

    it('the admin reviews the site plan; the reviewer downloads exactly what was uploaded', async () => {
      const metadataUrl = `Projects/${projectId}/Attachments/SitePlan/Metadata`;
      refused(await call(reviewer, 'POST', metadataUrl, `<SetAttachmentMetadata xmlns="${NS}" AttachmentStatus="Approve"/>`), 403, 'FORBIDDEN');
      await assertUnchanged('a reviewer may not review attachments');
      const approved = ok(await call(admin, 'POST', metadataUrl, `<SetAttachmentMetadata xmlns="${NS}" AttachmentStatus="Approve" Note="Setbacks shown"/>`));
      assert.equal(attr(approved, 'AttachmentMetadata', 'ApprovalStatus'), 'Approved');
      await assertChanged('the site plan was approved');
      const seen = ok(await call(applicant, 'GET', metadataUrl));
      assert.deepEqual(['ApprovalStatus', 'Note', 'ReviewedBy', 'UploadedBy'].map((a) => attr(seen, 'AttachmentMetadata', a)), ['Approved', 'Setbacks shown', admin.email, applicant.email]);
      const file = await call(reviewer, 'GET', `Projects/${projectId}/Attachments/SitePlan`);
      assert.equal(file.statusCode, 200);
      assert.deepEqual(file.rawPayload, SITE_PLAN);
      assert.equal(file.headers['content-type'], 'application/pdf');
      assert.equal(file.headers.etag, `"${sha256(SITE_PLAN)}"`);
      await assertUnchanged('downloads only read');
    });

    it('the completion certificate waits for the interconnection agreement, which the applicant and a plan reviewer sign', async () => {
      // Before the agreement is signed, the certificate's installation date is refused (its rule), and nothing changes.
      const early = await call(applicant, 'POST', `Projects/${projectId}/Forms/CompletionCertificate/Draft/Data`, dataRequest(COMPLETION));
      assert.match(refused(early, 422, 'VALIDATION_FAILED'), /break the rules/);
      assert.deepEqual(attrs(early.body, 'FieldError', 'CustomId'), ['InstallationDate']);
      assert.match(attr(early.body, 'FieldError', 'Message') ?? '', /interconnection agreement must be signed by you and the utility/);
      await assertUnchanged('a certificate before the agreement is signed');
      await signDemoAgreement({ app: app!, store: db!.store, clock, blobs: blobs! }, projectId);
      await assertChanged('the agreement was generated and signed');
    });

    it('the applicant submits the Completion Certificate with several module serial numbers: Inspection Pending', async () => {
      ok(await call(applicant, 'POST', `Projects/${projectId}/Forms/CompletionCertificate/Draft/Data`, dataRequest(COMPLETION)));
      const missing = await call(applicant, 'POST', `Projects/${projectId}/Forms/CompletionCertificate/Draft/Submit`);
      refused(missing, 422, 'FORM_INCOMPLETE');
      assert.deepEqual(attrs(missing.body, 'FieldError', 'CustomId'), ['SignedCertificate']);
      ok(await uploadPdf(applicant, 'CompletionCertificate', 'SignedCertificate', CERTIFICATE, 'certificate.pdf'));
      const body = ok(await call(applicant, 'POST', `Projects/${projectId}/Forms/CompletionCertificate/Draft/Submit`));
      assert.equal(attr(body, 'CurrentStatus', 'Name'), 'Inspection Pending');
      await assertChanged('the completion certificate was submitted');
      const data = ok(await call(applicant, 'GET', `Projects/${projectId}/Forms/CompletionCertificate/Data`));
      assert.deepEqual([...data.matchAll(/<Value>([^<]*)<\/Value>/g)].map((m) => m[1]), COMPLETION.ModuleSerialNumbers);
    });

    it('the admin grants Permission to Operate; the history lists every step newest first', async () => {
      ok(await call(admin, 'POST', `Projects/${projectId}/Status`, `<SetProjectStatusRequest xmlns="${NS}" StatusId="PermissionToOperate"/>`));
      await assertChanged('Permission to Operate');
      assert.deepEqual((await history()).map(([name, by, reportAs]) => [name, by, reportAs]), [
        ['Permission to Operate', admin.email, 'normal'],
        ['Inspection Pending', applicant.email, 'normal'],
        ['Approved for Installation', admin.email, 'normal'],
        ['Application Review', applicant.email, 'normal'],
        ['Unsubmitted', applicant.email, 'normal'],
      ]);
      refused(await call(reviewer, 'GET', `Projects/${projectId}/StatusHistory`), 403, 'FORBIDDEN');
    });

    it('the admin suppresses the Application Review entry; nothing else of the history changes', async () => {
      const before = await history();
      const review = before.find(([name]) => name === 'Application Review')!;
      const body = ok(await call(admin, 'POST', `Projects/${projectId}/StatusHistory/ReportAs`,
        `<SetProjectStatusHistoryReportAs xmlns="${NS}" StatusId="ApplicationReview" Timestamp="${review[3]}" ReportAs="suppress"/>`));
      assert.equal(attr(body, 'Status', 'ReportAs'), 'suppress');
      assert.equal(attr(body, 'Status', 'Timestamp'), review[3]);
      await assertChanged('SetProjectStatusReportAs');
      assert.deepEqual(await history(), before.map((e) => (e === review ? [e[0]!, e[1]!, 'suppress', e[3]!] : e)));
    });

    it('GetExportProject version 2 holds every submitted field by form and group, and the history with ChangedBy and ReportAs', async () => {
      const body = ok(await call(admin, 'GET', `Projects/${projectId}/Export?version=2`), 'ProjectExportDataGetResponseV2');
      const project = ((parser.parse(body) as Node).ProjectExportDataGetResponse as Node).Project as Node;
      assert.deepEqual([project.Number, project.Owner, project.Status, project.LastChangedBy], ['SOLAR-00001', applicant.email, 'Permission to Operate', admin.email]);
      assert.match(String(project.CreatedUTC), /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}$/);

      const forms = list((project.Data as Node).Form).map((form) => ({
        form: form.CustomId,
        groups: list(form.Group).map((g) => [g.Name, list(g.Field).map((f) => [f.CustomId, list(f.CurrentValue).join('|'), f.ChangedBy ?? null])]),
      }));
      const a = applicant.email;
      const r = reviewer.email;
      assert.deepEqual(forms, [
        {
          form: 'Application', groups: [
            ['Customer', [['CustomerName', APPLICATION.CustomerName, a], ['CustomerEmail', APPLICATION.CustomerEmail, a], ['CustomerPhone', APPLICATION.CustomerPhone, a]]],
            // Territory is calculated from the address's ZIP code; this address has none, so it is in neither territory.
            ['Site', [['ServiceAddress', APPLICATION.ServiceAddress, a], ['Territory', '', a]]],
            ['Utility', [['UtilityAccountNumber', '********', a], ['MeterNumber', APPLICATION.MeterNumber, a], ['ServiceType', APPLICATION.ServiceType, a]]],
            ['System', [
              ['SystemSizeKwDc', '7.6', a], ['SystemSizeKwAc', '6', a], ['ModuleCount', '19', a], ['InverterMake', 'ENPHASE', a],
              ['InverterModel', COMPLETION.InverterModel, a], ['MountingType', 'Roof', a], ['HasBattery', 'false', a], ['BatteryCapacityKwh', '', null],
              ['Inverters', '', null], ['Batteries', '', null],
              // Calculated by the service at the submission: 7.6 / 6 rounded, and 7.6 kW DC at $250.
              ['DcAcRatio', '1.27', a], ['IncentiveEstimate', '1900', a],
            ]],
            ['Installer', [['InstallerName', APPLICATION.InstallerName, a], ['InstallerLicense', APPLICATION.InstallerLicense, a], ['PlannedInstallDate', '2026-03-15', a]]],
          ],
        },
        {
          form: 'CompletionCertificate', groups: [
            ['Completion', [
              ['InstallationDate', COMPLETION.InstallationDate, a], ['ModuleSerialNumbers', COMPLETION.ModuleSerialNumbers.join('|'), a],
              ['ElectricalPermitNumber', COMPLETION.ElectricalPermitNumber, a],
            ]],
            ['System', [['InverterModel', COMPLETION.InverterModel, a]]],
          ],
        },
        {
          form: 'ReviewChecklist', groups: [
            ['Review', [['SiteInfoComplete', 'true', r], ['DiagramMatchesEquipment', 'true', r], ['ReviewerNotes', REVIEW.ReviewerNotes, r]]],
          ],
        },
      ], 'the latest InverterModel (from the certificate) shows on both forms; BatteryCapacityKwh and the tables were never saved');
      assert.doesNotMatch(body, new RegExp(APPLICATION.UtilityAccountNumber), 'sensitive values stay masked');

      const entries = list((project.StatusHistory as Node).Status).map((s) => [s.Name, s.ChangedBy, s.ReportAs]);
      assert.deepEqual(entries, [
        ['Permission to Operate', admin.email, 'normal'],
        ['Inspection Pending', applicant.email, 'normal'],
        ['Approved for Installation', admin.email, 'normal'],
        ['Application Review', applicant.email, 'suppress'],
        ['Unsubmitted', applicant.email, 'normal'],
      ]);
      const all = list((project.Attachments as Node).Attachment).map((a) => [a.CustomId, a.FileName, a.ApprovalStatus, a.UploadedBy, a.Sha256] as string[]);
      // The documents the service made: the approval letter and the signed agreement (its second version).
      const documents = new Set(['ApprovalLetter', 'InterconnectionAgreement']);
      assert.deepEqual(all.filter((f) => documents.has(f[0]!)).map((f) => f.slice(0, 4)), [
        ['ApprovalLetter', 'ApprovalLetter.pdf', 'Approved', 'system'],
        // The signed PDF is the service's output too (envelope-finisher.ts): from `system`, approved.
        ['InterconnectionAgreement', 'Interconnection agreement for a residential solar generating facility (signed).pdf', 'Approved', 'system'],
      ]);
      const files = all.filter((f) => !documents.has(f[0]!));
      assert.deepEqual(files, [
        ['SitePlan', 'site-plan.pdf', 'Approved', applicant.email, sha256(SITE_PLAN)],
        ['SingleLineDiagram', 'single-line.pdf', 'Pending', applicant.email, sha256(DIAGRAM)],
        ['SignedCertificate', 'certificate.pdf', 'Pending', applicant.email, sha256(CERTIFICATE)],
      ]);
      const v1 = ok(await call(admin, 'GET', `Projects/${projectId}/Export`), 'ProjectExportDataGetResponse');
      assert.doesNotMatch(/<StatusHistory>.*<\/StatusHistory>/s.exec(v1)?.[0] ?? '', /ChangedBy=/);
      await assertUnchanged('exports only read');
    });

    it('GetProjectsByData finds the project by its status and by SystemSizeKwDc', async () => {
      const search = async (filters: string, who = admin) =>
        attrs(ok(await call(who, 'POST', 'Projects/ByData?version=2', `<ProjectByDataRequest xmlns="${NS}">${filters}</ProjectByDataRequest>`), 'ProjectsResponseExtended'), 'Project', 'ProjectId');
      const status = (op: string, id: string) => `<FilterByCurrentStatuses Operation="${op}"><Status Id="${id}"/></FilterByCurrentStatuses>`;
      const field = (id: string, op: string, content: string) => `<DataFields><Field Id="${id}" Operator="${op}" Content="${content}"/></DataFields>`;
      assert.deepEqual(await search(status('Include', 'PermissionToOperate')), [projectId]);
      assert.deepEqual(await search(status('Include', 'ApplicationReview')), []);
      assert.deepEqual(await search(status('Exclude', 'PermissionToOperate')), []);
      assert.deepEqual(await search(field('SystemSizeKwDc', 'gt', '5')), [projectId]);
      assert.deepEqual(await search(field('SystemSizeKwDc', 'gt', '10')), []);
      assert.deepEqual(await search(status('Include', 'PermissionToOperate') + field('ModuleSerialNumbers', 'eq', 'SN-0002')), [projectId]);
      const reviewSet = (await history()).find(([name]) => name === 'Application Review')![3]!;
      assert.deepEqual(await search(`<FilterByStatusDate Id="ApplicationReview" DateTime="${reviewSet}" Operator="eq"/>`), [projectId]);
      assert.deepEqual(await search(field('SystemSizeKwDc', 'ge', '7.6'), applicant), [projectId], 'the applicant finds their own project');
      assert.deepEqual(await search(field('PlannedInstallDate', 'lt', '2026-04-01')), [projectId]);
      assert.deepEqual(await search(field('PlannedInstallDate', 'gt', '2026-03-15')), []);
      const notADate = `<ProjectByDataRequest xmlns="${NS}">${field('PlannedInstallDate', 'lt', 'next spring')}</ProjectByDataRequest>`;
      refused(await call(admin, 'POST', 'Projects/ByData', notADate), 400, 'INVALID_REQUEST');
      const ptoTime = Date.parse((await history())[0]![3]!);
      assert.deepEqual(await search(`<FilterByStatusDate Id="PermissionToOperate" DateTime="${isoTimestamp(ptoTime + 1)}" Operator="lt"/>`), [projectId]);
      await assertUnchanged('searches only read');
    });
  });
}
