import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DIALECTS } from '../support/databases.ts';
import { DEMO_APPLICATION, demoApi, demoUser } from '../support/demo-api.ts';
import { dataRequest, NS } from '../support/http-harness.ts';
import { demoServerOf, signDemoAgreement } from '../support/demo-signing.ts';

// The demo program's automations on projects, files and reviews (programs/residential-solar.yaml; docs/programs.md,
// "Automations"): a new application tells integrations (an automation.custom event); a signed completion certificate
// rejected during the inspection returns the project for correction, with a reason; the corrected certificate mails
// the assignee. The deadline and schedule automations have their own tests (demo-deadlines,
// automation-schedule).

for (const dialect of DIALECTS) {
  describe(`the demo's automations on creation and on the completion certificate [${dialect}]`, () => {
    const demo = demoApi(dialect);
    const { ok, newProject, submitted } = demo;
    const [admin, applicant, reviewer] = [demoUser('admin'), demoUser('applicant'), demoUser('reviewer')];
    const COMPLETION = { InstallationDate: '2026-03-20', ModuleSerialNumbers: ['SN-0001', 'SN-0002'], InverterModel: 'IQ8M', ElectricalPermitNumber: 'EP-2026-77' };
    const runsOf = async (projectId: string, automation: string) =>
      (await demo.db.store.audit.list({ projectId, action: 'automation.run' })).filter((r) => (r.detail as { automation?: string }).automation === automation);
    const review = (projectId: string, attachment: string, status: string) => ok(demo.call(admin, 'POST', `Projects/${projectId}/Attachments/${attachment}/Metadata`,
      `<SetAttachmentMetadata xmlns="${NS}" AttachmentStatus="${status}"/>`));
    const statusOf = async (projectId: string) => {
      const p = (await demo.db.store.projects.getProject(demo.model.program.id, projectId))!;
      return demo.model.statuses.find((s) => s.id === p.statusId)!.customId;
    };

    it("an automation's move is recorded as the automation's and is no move of the person whose submission triggered it on the dashboard", async () => {
      const big = await newProject();
      assert.equal((await demo.upload(big, 'SitePlan')).statusCode, 200);
      await ok(demo.call(applicant, 'POST', `Projects/${big}/Forms/Application/Draft/Data`, dataRequest({ ...DEMO_APPLICATION, SystemSizeKwDc: '14', SystemSizeKwAc: '12', InstallerLicense: 'C46-123456' })));
      await ok(demo.call(applicant, 'POST', `Projects/${big}/Forms/Application/Draft/Submit`));
      assert.equal(await statusOf(big), 'EngineeringReview');
      // Newest first: the submission's entry, then the automation's move (in the applicant's name) on top of it.
      const history = (await demo.db.store.projects.getHistory(big)).slice(0, 2).reverse();
      assert.deepEqual(history.map((h) => [demo.model.statuses.find((s) => s.id === h.statusId)!.customId, h.automation ?? null]),
        [['ApplicationReview', null], ['EngineeringReview', 'EngineeringReviewAbove10kW']]);
      const csv = await demo.webGet(reviewer, `/Projects/Dashboard?ProgramId=${demo.model.program.id}&figure=reviewers&format=csv`);
      assert.equal(csv.statusCode, 200, csv.body.slice(0, 300));
      const moves = csv.body.trim().split('\r\n').slice(1).map((l) => l.split(',')).find((r) => r[0] === 'Alex Applicant')?.[2] ?? '0';
      assert.equal(moves, '0', csv.body);
    });

    it('a new application is announced to integrations as automation.custom application-started', async () => {
      const projectId = await newProject();
      const custom = (await demo.db.store.events.listProjectEvents(projectId)).filter((e) => e.type === 'automation.custom');
      assert.deepEqual(custom.map((e) => e.data), [{ name: 'application-started', automation: 'ApplicationStarted' }]);
    });

    it("a reviewer's correction of the AC output above 10 kW sends a project in review to engineering review; a submission is moved once", async () => {
      const projectId = await submitted();
      assert.equal(await statusOf(projectId), 'ApplicationReview');
      await ok(demo.call(admin, 'POST', `Projects/${projectId}/Forms/Application/Data`, dataRequest({ SystemSizeKwDc: '14', SystemSizeKwAc: '12', InstallerLicense: 'C46-123456' })));
      assert.equal(await statusOf(projectId), 'EngineeringReview');
      assert.equal((await runsOf(projectId, 'ResizedAbove10kW')).filter((r) => r.detail?.outcome === 'ran').length, 1);
      const big = await newProject();
      assert.equal((await demo.upload(big, 'SitePlan')).statusCode, 200);
      await ok(demo.call(applicant, 'POST', `Projects/${big}/Forms/Application/Draft/Data`, dataRequest({ ...DEMO_APPLICATION, SystemSizeKwDc: '14', SystemSizeKwAc: '12', InstallerLicense: 'C46-123456' })));
      await ok(demo.call(applicant, 'POST', `Projects/${big}/Forms/Application/Draft/Submit`));
      assert.equal(await statusOf(big), 'EngineeringReview');
      assert.equal((await runsOf(big, 'ResizedAbove10kW'))[0]?.detail?.outcome, 'skipped', 'the submission already moved it');
    });

    it('a rejected completion certificate returns the project for correction with its reason; the corrected one mails the assignee', async () => {
      const projectId = await submitted();
      await ok(demo.call(admin, 'POST', `Projects/${projectId}/Assignee`, `<SetAssigneeRequest xmlns="${NS}"><AssigneeEmail>${reviewer.email}</AssigneeEmail></SetAssigneeRequest>`));
      await ok(demo.call(admin, 'POST', `Projects/${projectId}/Status`, `<SetProjectStatusRequest xmlns="${NS}" StatusId="ApprovedForInstallation"/>`));
      await signDemoAgreement(demoServerOf(demo), projectId);
      assert.equal((await demo.upload(projectId, 'SignedCertificate', applicant, 'CompletionCertificate')).statusCode, 200);
      assert.equal((await runsOf(projectId, 'CertificateReplaced'))[0]?.detail?.outcome, 'skipped', 'the first certificate is not a correction');
      await ok(demo.call(applicant, 'POST', `Projects/${projectId}/Forms/CompletionCertificate/Draft/Data`, dataRequest(COMPLETION)));
      await ok(demo.call(applicant, 'POST', `Projects/${projectId}/Forms/CompletionCertificate/Draft/Submit`));
      assert.equal(await statusOf(projectId), 'InspectionPending');
      await review(projectId, 'SignedCertificate', 'Reject');
      assert.equal(await statusOf(projectId), 'ApprovedForInstallation', 'returned for correction');
      const last = (await demo.db.store.projects.getHistory(projectId)).sort((a, b) => b.changedAt - a.changedAt)[0]!;
      assert.deepEqual([last.reasonId, last.message], ['CertificateNotAccepted', 'Please upload a corrected, signed completion certificate and submit the form again.']);
      const number = (await demo.db.store.projects.getProject(demo.model.program.id, projectId))!.number!;
      const corrections = async () => (await demo.db.store.mail.listMail()).filter((m) => m.kind === 'automation' && m.subject.includes(`corrected completion certificate for project ${number}`));
      assert.deepEqual(await corrections(), []);
      assert.equal((await demo.upload(projectId, 'SignedCertificate', applicant, 'CompletionCertificate')).statusCode, 200);
      assert.deepEqual((await corrections()).map((m) => m.to), [reviewer.email]);
    });

    it('approval asks for the approval letter and the agreement and mails the owner with the letter; the signed agreement mails the owner', async () => {
      const projectId = await submitted();
      await ok(demo.call(admin, 'POST', `Projects/${projectId}/Status`, `<SetProjectStatusRequest xmlns="${NS}" StatusId="ApprovedForInstallation"/>`));
      assert.deepEqual((await runsOf(projectId, 'ApprovedDocuments')).map((r) => r.detail?.outcome), ['ran']);
      const requests = await demo.db.store.documents.listProjectDocumentRequests(projectId);
      assert.deepEqual(requests.map((r) => [r.documentId, r.state]).sort(), [['ApprovalLetter', 'queued'], ['InterconnectionAgreement', 'queued']]);
      const number = (await demo.db.store.projects.getProject(demo.model.program.id, projectId))!.number!;
      const mails = async (subject: string) => (await demo.db.store.mail.listMail()).filter((m) => m.kind === 'automation' && m.subject.includes(subject));
      const approval = await mails(`project ${number} is approved for installation`);
      assert.deepEqual(approval.map((m) => [m.to, m.attachments?.map((a) => a.documentId)]), [[applicant.email, ['ApprovalLetter']]]);
      assert.deepEqual(await mails(`agreement of project ${number} is signed`), []);
      await signDemoAgreement(demoServerOf(demo), projectId);
      assert.deepEqual((await runsOf(projectId, 'AgreementSigned')).map((r) => r.detail?.outcome), ['ran']);
      assert.deepEqual((await mails(`agreement of project ${number} is signed`)).map((m) => m.to), [applicant.email]);
    });

    it('approving the certificate, or rejecting it outside the inspection, moves nothing', async () => {
      const projectId = await submitted();
      await ok(demo.call(admin, 'POST', `Projects/${projectId}/Status`, `<SetProjectStatusRequest xmlns="${NS}" StatusId="ApprovedForInstallation"/>`));
      assert.equal((await demo.upload(projectId, 'SignedCertificate', applicant, 'CompletionCertificate')).statusCode, 200);
      await review(projectId, 'SignedCertificate', 'Reject');
      assert.equal(await statusOf(projectId), 'ApprovedForInstallation');
      assert.equal((await runsOf(projectId, 'CertificateRejected'))[0]?.detail?.outcome, 'skipped', 'the condition is not met');
    });
  });
}
