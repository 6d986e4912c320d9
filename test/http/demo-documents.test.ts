import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import type { OutgoingMail } from '../../src/domain/mail/mailer.ts';
import { DIALECTS } from '../support/databases.ts';
import { DEMO_APPLICATION, demoApi, demoUser } from '../support/demo-api.ts';
import { agreementEnvelope, demoServerOf, runTask, signOnPage } from '../support/demo-signing.ts';
import { dataRequest, NS, rowsRequest } from '../support/http-harness.ts';
import { pdfPageTexts } from '../support/pdf-text.ts';
import { verifySealedPdf } from '../support/seal-verifier.ts';

// The demo's documents end to end, on both databases (programs/residential-solar.yaml; docs/programs.md, "Documents
// and signatures"): the approval generates the approval letter and the interconnection agreement in the background
// task with the real renderer; the approval mail carries the letter; the owner and then a plan reviewer sign the
// agreement on the signing page; the finisher stores the signed PDF, sealed with a self-signed certificate, as the
// agreement's next version; an independent verifier accepts the seal and refuses the file with one byte changed. The
// completion certificate, whose submission moves the project to "Inspection Pending", is refused before the signing
// (nothing changes) and accepted after it.

const INVERTERS = [
  { Make: 'ENPHASE', Model: 'IQ8PLUS', Quantity: '16', RatedKwAc: '0.29' },
  { Make: 'SMA', Model: 'SB1.5', Quantity: '1', RatedKwAc: '1.36' },
];
const CERTIFICATE = { InstallationDate: '2026-03-20', ModuleSerialNumbers: ['SN-0001', 'SN-0002'], ElectricalPermitNumber: 'EP-2026-77' };
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

for (const dialect of DIALECTS) {
  describe(`the demo's approval letter and signed interconnection agreement [${dialect}]`, () => {
    const demo = demoApi(dialect);
    const [admin, applicant, planReviewer] = [demoUser('admin'), demoUser('applicant'), demoUser('plan reviewer')];
    const mails: OutgoingMail[] = [];
    const server = () => ({ ...demoServerOf(demo), mailer: { send: async (m: OutgoingMail) => { mails.push(m); }, close: () => {} } });
    const statusOf = async (projectId: string) => {
      const p = (await demo.db.store.projects.getProject(demo.model.program.id, projectId))!;
      return demo.model.statuses.find((s) => s.id === p.statusId)!.customId;
    };
    const defId = (customId: string) => demo.model.forms.flatMap((f) => f.attachments).find((a) => a.customId === customId)!.id;
    const formId = (customId: string) => demo.model.forms.find((f) => f.customId === customId)!.id;
    const bytesOf = async (blobKey: string) => new Uint8Array(Buffer.concat(await (await demo.blobs.read(blobKey)).toArray()));
    const certificate = (projectId: string) => demo.call(applicant, 'POST', `Projects/${projectId}/Forms/CompletionCertificate/Draft/Data`, dataRequest(CERTIFICATE));
    const submitCertificate = (projectId: string) => demo.call(applicant, 'POST', `Projects/${projectId}/Forms/CompletionCertificate/Draft/Submit`);

    it('approved → letter and agreement rendered → the letter mailed → owner and plan reviewer sign → a sealed signed PDF → the certificate goes through', async () => {
      // An application with its inverters, submitted and approved.
      const projectId = await demo.newProject();
      assert.equal((await demo.upload(projectId, 'SitePlan')).statusCode, 200);
      await demo.ok(demo.call(applicant, 'POST', `Projects/${projectId}/Forms/Application/Draft/Data`, dataRequest(DEMO_APPLICATION)));
      await demo.ok(demo.call(applicant, 'POST', `Projects/${projectId}/Forms/Application/Draft/Data`, rowsRequest('Inverters', INVERTERS)));
      await demo.ok(demo.call(applicant, 'POST', `Projects/${projectId}/Forms/Application/Draft/Submit`));
      await demo.ok(demo.call(admin, 'POST', `Projects/${projectId}/Status`, `<SetProjectStatusRequest xmlns="${NS}" StatusId="ApprovedForInstallation"/>`));
      const project = (await demo.db.store.projects.getProject(demo.model.program.id, projectId))!;

      // The certificate before the agreement exists: refused with the program's message, nothing written.
      const refusedEarly = await certificate(projectId);
      assert.equal(refusedEarly.statusCode, 422, refusedEarly.body);
      assert.match(refusedEarly.body, /Code="VALIDATION_FAILED"[\s\S]*CustomId="InstallationDate"[\s\S]*interconnection agreement must be signed/);
      assert.deepEqual(await demo.db.store.projects.getDraft(projectId, formId('CompletionCertificate')), []);
      assert.equal((await demo.db.store.projects.getProject(demo.model.program.id, projectId))!.version, project.version);

      // The background work as serve runs it: the real renderer makes both PDFs; the agreement goes out for signing.
      await runTask(server(), 'document generation');
      const letter = await demo.db.store.attachments.getAttachment(projectId, defId('ApprovalLetter'));
      const unsigned = await demo.db.store.attachments.getAttachment(projectId, defId('InterconnectionAgreement'));
      assert.deepEqual([letter?.version, letter?.contentType, unsigned?.version], [1, 'application/pdf', 1]);
      const letterPdf = await bytesOf(letter!.blobKey);
      assert.equal(sha256(letterPdf), letter!.sha256);
      const letterText = (await pdfPageTexts(letterPdf)).join('\n');
      for (const shown of ['Approval for installation', project.number!, 'Pat Homeowner', '1 Sunny Lane', '7.6 kW DC', 'Enphase Energy IQ8PLUS', 'Page 1 of 1']) {
        assert.ok(letterText.includes(shown), `the letter shows ${shown}:\n${letterText}`);
      }
      const agreementPages = await pdfPageTexts(await bytesOf(unsigned!.blobKey));
      assert.ok(agreementPages.length >= 2 && agreementPages.length <= 3, `the agreement has ${agreementPages.length} pages`);
      const agreementText = agreementPages.join('\n');
      // The inverters table (rowsTable: headed by the columns' names, a row per inverter, choices by label; with the listed
      // model's column, the manufacturer's name wraps) and the sensitive account number.
      for (const shown of ['Interconnection agreement', 'Manufacturer\nModel\nQuantity\nRated output', 'SMA Solar \nTechnology\nSB1.5\n1\n1.36', 'ACCT-1', `Page 1 of ${agreementPages.length}`]) {
        assert.ok(agreementText.includes(shown), `the agreement shows ${shown}:\n${agreementText}`);
      }

      // The approval mail goes out with the letter attached.
      await runTask(server(), 'notification mail');
      const approval = mails.filter((m) => m.subject.includes(`project ${project.number} is approved for installation`));
      assert.deepEqual(approval.map((m) => [m.to, m.attachments?.map((a) => [a.fileName, a.contentType])]), [[applicant.email, [['ApprovalLetter.pdf', 'application/pdf']]]]);
      assert.equal(sha256(new Uint8Array(approval[0]!.attachments![0]!.content)), letter!.sha256);

      // The owner signs first (consent and typed name), then a plan reviewer for the utility.
      const sent = await agreementEnvelope(demo.db.store, projectId);
      assert.deepEqual((await demo.db.store.envelopes.listSigners([sent.id])).map((s) => [s.signerId, s.state]), [['Customer', 'notified'], ['Utility', 'waiting']]);
      await signOnPage(demoServerOf(demo), applicant, sent.id, 'Alex Q. Applicant');
      await signOnPage(demoServerOf(demo), planReviewer, sent.id, 'Parker Plan-Reviewer');
      const signers = await demo.db.store.envelopes.listSigners([sent.id]);
      assert.deepEqual(signers.map((s) => [s.state, s.typedName, s.userId !== null]), [['signed', 'Alex Q. Applicant', true], ['signed', 'Parker Plan-Reviewer', true]]);
      const steps = (await demo.db.store.envelopes.listSteps(sent.id)).map((s) => s.action);
      assert.ok(steps.indexOf('consented') < steps.indexOf('signed'), steps.join());
      // Still waiting for the signed PDF: the certificate is refused.
      assert.equal((await certificate(projectId)).statusCode, 422);

      // The finisher makes the signed PDF: the agreement's next version, sealed.
      demo.clock.advance();
      await runTask(server(), 'envelope finisher');
      const done = await agreementEnvelope(demo.db.store, projectId);
      assert.deepEqual([done.state, done.signedVersion], ['completed', 2]);
      const signed = (await demo.db.store.attachments.getAttachment(projectId, defId('InterconnectionAgreement')))!;
      assert.equal(signed.version, 2);
      const signedPdf = await bytesOf(signed.blobKey);
      assert.equal(sha256(signedPdf), signed.sha256);
      const check = verifySealedPdf(signedPdf);
      assert.deepEqual([check.valid, check.problem, check.subFilter], [true, null, 'adbe.pkcs7.detached']);
      const signedPages = await pdfPageTexts(signedPdf);
      assert.ok(signedPages.length >= agreementPages.length + 2, 'the document, then the signature page and the certificate of completion');
      const appendix = signedPages.slice(agreementPages.length).join('\n');
      for (const shown of ['Alex Q. Applicant', 'Parker Plan-Reviewer', applicant.email, planReviewer.email]) assert.ok(appendix.includes(shown), `the signature page shows ${shown}:\n${appendix}`);
      // One byte changed in the signed part, and the seal no longer verifies.
      const tampered = new Uint8Array(signedPdf);
      const at = Buffer.from(signedPdf).indexOf('Interconnection');
      tampered[at] = tampered[at]! ^ 0x01;
      assert.equal(verifySealedPdf(tampered).valid, false);

      // The owner is told; the certificate now goes through: Inspection Pending.
      await runTask(server(), 'notification mail');
      assert.deepEqual(mails.filter((m) => m.subject.includes(`agreement of project ${project.number} is signed`)).map((m) => m.to), [applicant.email]);
      await demo.ok(certificate(projectId));
      assert.equal((await demo.upload(projectId, 'SignedCertificate', applicant, 'CompletionCertificate')).statusCode, 200);
      await demo.ok(submitCertificate(projectId));
      assert.equal(await statusOf(projectId), 'InspectionPending');
    });

    it('a certificate submitted before the agreement is signed is refused and changes nothing', async () => {
      const projectId = await demo.submitted();
      await demo.ok(demo.call(admin, 'POST', `Projects/${projectId}/Status`, `<SetProjectStatusRequest xmlns="${NS}" StatusId="ApprovedForInstallation"/>`));
      await runTask(server(), 'document generation');
      // The certificate's other fields saved, its file uploaded; the installation date cannot be set yet.
      await demo.ok(demo.call(applicant, 'POST', `Projects/${projectId}/Forms/CompletionCertificate/Draft/Data`, dataRequest({ ModuleSerialNumbers: CERTIFICATE.ModuleSerialNumbers, ElectricalPermitNumber: 'EP-1' })));
      assert.equal((await demo.upload(projectId, 'SignedCertificate', applicant, 'CompletionCertificate')).statusCode, 200);
      const before = (await demo.db.store.projects.getProject(demo.model.program.id, projectId))!;
      const res = await submitCertificate(projectId);
      assert.equal(res.statusCode, 422, res.body);
      assert.match(res.body, /interconnection agreement must be signed/);
      const after = (await demo.db.store.projects.getProject(demo.model.program.id, projectId))!;
      assert.deepEqual([after.version, after.statusId], [before.version, before.statusId]);
      assert.deepEqual(await demo.db.store.projects.getSubmissions(projectId).then((s) => s.map((x) => x.formId)), [formId('Application')]);
    });
  });
}
