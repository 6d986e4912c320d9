import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { ApiError } from '../../src/domain/api-error.ts';
import type { Caller } from '../../src/domain/caller.ts';
import { finishSignedEnvelopes } from '../../src/domain/signing/envelope-finisher.ts';
import { LINK_TTL_MS } from '../../src/domain/signing/signing-links.ts';
import { REMIND_AFTER_MS, REMIND_FOR_MS, remindSigners } from '../../src/domain/signing/envelope-reminders.ts';
import type { SigningService, SignerProof, Visit } from '../../src/domain/signing/signing-service.ts';
import type { FinisherDeps } from '../../src/domain/signing/envelope-finisher.ts';
import type { DatabaseBlobStore } from '../../src/store/database-blob-store.ts';
import { forEachDialect, openTestStore, type TestStore } from '../support/databases.ts';
import { type HttpHarness, startHttp, type Who } from '../support/http-harness.ts';
import { TINY_PDF } from '../support/tiny-pdf.ts';
import { assertError, assertValidXml } from '../support/http-harness.ts';
import { assertJsonAnswer, assertJsonError, JSON_ANSWER, xmlAnswerValue } from '../support/json-answers.ts';
import { EnvelopeResponse, ProjectEnvelopesResponse } from '../../src/wire/documents/envelopes.ts';
import { PROGRAM } from './http-helpers.ts';
import { eventTasks } from '../../src/domain/wiring/event-tasks.ts';
import { changeReactions } from '../../src/domain/wiring/change-reactions.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import { programRows } from '../support/fixtures.ts';
import type { Automation, TriggerKind } from '../../src/model/automation.ts';
import {
  AGENCY, callerOf, envelopeState, fakeMaker, generateAndSend, lastToken, mailedTokens, OWNER, PROPERTY_OWNER, signingParts, submittedWith, template,
} from './signing-fixtures.ts';

// E-signature envelopes on both databases (src/domain/signing): in order, in parallel, declined, voided, resent;
// expired, reused and replaced links refused, a signer who is not the one named refused, another applicant neither
// opens nor signs; every refusal changes nothing (read back). The signed PDF is made after the commit by the
// finisher, through the SignedPdfMaker seam (a fake here; the real maker and seal are tested on their own).

const VISIT: Visit = { ip: '203.0.113.7', userAgent: 'signing test' };
const PROPERTY = 'property.owner@example.net';

forEachDialect('E-signature envelopes', ({ dialect }) => {
  let db: TestStore;
  let h: HttpHarness;
  let signing: SigningService;
  let finisher: FinisherDeps;
  let blobs: DatabaseBlobStore;
  before(async () => {
    db = await openTestStore(dialect);
    h = await startHttp(db);
    ({ signing, finisher, blobs } = signingParts(h));
  });
  after(async () => {
    await h.close();
    await db.close();
  });

  const as = async (who: Who): Promise<{ caller: Caller }> => ({ caller: await callerOf(h, who) });
  const byLink = (token: string): SignerProof => ({ token });
  const sign = (proof: SignerProof, envelopeId: string, typedName = 'Jane Q. Signer', consent = true) => {
    h.clock.advance();
    return signing.sign(proof, envelopeId, { typedName, consent }, VISIT);
  };
  const send = async (signers = [OWNER, PROPERTY_OWNER, AGENCY], order: 'sequential' | 'parallel' = 'sequential') => {
    const projectId = await submittedWith(h, PROPERTY);
    const envelopeId = await generateAndSend(h, signing, blobs, projectId, template(signers, order));
    return { projectId, envelopeId };
  };
  /** Asserts `work` is refused with `code` and leaves every row as it was. */
  const refused = async (envelopeId: string, code: string, work: () => Promise<unknown>, message?: RegExp) => {
    const before = await envelopeState(h, envelopeId);
    await assert.rejects(work, (e: unknown) => {
      assert.ok(e instanceof ApiError, String(e));
      assert.equal(e.code, code, e.message);
      if (message) assert.match(e.message, message);
      return true;
    });
    assert.deepEqual(await envelopeState(h, envelopeId), before);
  };
  const applicantEmail = () => h.who.applicant.email;

  describe('in order', () => {
    it('mails only the first signer; each next one after the one before signs; the last signature completes it with the signed PDF', async () => {
      const { projectId, envelopeId } = await send();
      let s = await envelopeState(h, envelopeId);
      assert.equal(s.envelope.state, 'sent');
      assert.deepEqual(s.signers.map((x) => [x.signerId, x.state]), [['applicant', 'notified'], ['propertyOwner', 'waiting'], ['agency', 'waiting']]);
      assert.equal(s.signers[1]!.email, PROPERTY);
      assert.equal((await mailedTokens(h, applicantEmail())).length, 1);
      assert.deepEqual(await mailedTokens(h, PROPERTY), []);
      assert.ok(s.audit.some((a) => a.action === 'project.envelope.start'));

      // The agency's signer and the property owner wait their turn: refused, nothing changes.
      await refused(envelopeId, 'CONFLICT', async () => sign(await as('editor'), envelopeId), /not your turn/);

      // The owner signs signed in: the consent and the signature are recorded, then the property owner is mailed.
      const page = await signing.open(await as('applicant'), envelopeId, VISIT);
      assert.equal(page.me?.signerId, 'applicant');
      assert.equal(page.mayAct, true);
      assert.match(page.envelope.disclosure, /paper copy/);
      await sign(await as('applicant'), envelopeId, 'Ann Applicant');
      s = await envelopeState(h, envelopeId);
      assert.deepEqual(s.signers.map((x) => x.state), ['signed', 'notified', 'waiting']);
      assert.equal(s.signers[0]!.typedName, 'Ann Applicant');
      assert.deepEqual(s.steps.filter((x) => x.signerId === s.signers[0]!.id).map((x) => x.action), ['notified', 'viewed', 'consented', 'signed']);
      const signedStep = s.steps.find((x) => x.action === 'signed')!;
      assert.deepEqual([signedStep.ip, signedStep.userAgent, signedStep.userId], [VISIT.ip, VISIT.userAgent, h.who.applicant.id]);
      // Consent comes before the signature in the trail.
      assert.ok(s.steps.findIndex((x) => x.action === 'consented') < s.steps.findIndex((x) => x.action === 'signed'));

      // The property owner signs through the mailed link, without an account.
      const token = await lastToken(h, PROPERTY);
      const linkPage = await signing.open({ token }, null, VISIT);
      assert.equal(linkPage.me?.signerId, 'propertyOwner');
      await sign(byLink(token), envelopeId, 'Pat Property');
      s = await envelopeState(h, envelopeId);
      assert.deepEqual(s.signers.map((x) => x.state), ['signed', 'signed', 'notified']);
      assert.equal(s.steps.find((x) => x.action === 'signed' && x.signerId === s.signers[1]!.id)?.userId, null);

      // The editor, a holder of the role, signs for the agency: their account and name are kept.
      await sign(await as('editor'), envelopeId, 'Ed Editor');
      s = await envelopeState(h, envelopeId);
      assert.deepEqual(s.signers.map((x) => x.state), ['signed', 'signed', 'signed']);
      assert.equal(s.signers[2]!.userId, h.who.editor.id);
      assert.equal(s.envelope.state, 'sent');
      assert.ok(s.envelope.allSignedAt !== null);
      assert.deepEqual(s.events.filter((e) => e.type === 'envelope.signed').map((e) => e.data.signerId), ['applicant', 'propertyOwner', 'agency']);

      // After the commit: the signed PDF is made and stored as the document's next version, and the envelope completes.
      h.clock.advance();
      assert.equal(await finishSignedEnvelopes(finisher), 1);
      s = await envelopeState(h, envelopeId);
      assert.equal(s.envelope.state, 'completed');
      assert.equal(s.envelope.signedVersion, 2);
      assert.equal(s.attachments?.version, 2);
      assert.equal(s.attachments?.contentType, 'application/pdf');
      const bytes = Buffer.concat(await (await blobs.read(s.attachments!.blobKey)).toArray());
      assert.equal(s.attachments?.sha256, createHash('sha256').update(bytes).digest('hex'));
      assert.ok(bytes.subarray(0, TINY_PDF.length).equals(TINY_PDF));
      assert.match(bytes.toString(), /%signed .* Ann Applicant,Pat Property,Ed Editor/);
      assert.equal(s.steps.at(-1)?.action, 'completed');
      const completed = s.events.filter((e) => e.type === 'envelope.completed');
      assert.equal(completed.length, 1);
      assert.deepEqual([completed[0]!.data.envelopeId, completed[0]!.data.documentId, completed[0]!.data.attachmentVersion], [envelopeId, 'agreement', 2]);
      assert.ok(s.audit.some((a) => a.action === 'project.envelope.complete'));
      // Finished once: a second round finds nothing.
      assert.equal(await finishSignedEnvelopes(finisher), 0);
      assert.equal((await h.store.attachments.getAttachment(projectId, s.envelope.attachmentId))?.version, 2);
    });
  });

  describe('the signed PDF', () => {
    it('a maker that fails leaves the envelope signed by everyone for the next round, with nothing stored', async () => {
      const { envelopeId } = await send([OWNER]);
      await sign(await as('applicant'), envelopeId);
      const before = await envelopeState(h, envelopeId);
      const warnings: string[] = [];
      const failing = { ...finisher, maker: { make: async () => { throw new Error('no certificate'); } }, log: { warn: (_: object, m: string) => warnings.push(m) } };
      assert.ok(await finishSignedEnvelopes(failing) >= 1);
      assert.deepEqual(await envelopeState(h, envelopeId), before);
      assert.match(warnings.join('\n'), /making a signed PDF failed/);
      h.clock.advance();
      await finishSignedEnvelopes(finisher);
      assert.equal((await envelopeState(h, envelopeId)).envelope.state, 'completed');
    });

    it('serve\'s background work has the reminders always, and the finisher once a maker is given', () => {
      const base = { store: h.store, clock: h.clock, ids: new RandomIdGenerator(), publicUrl: 'http://apas.test', mailer: null, mailIntervalMs: 1000, reactions: changeReactions() };
      const names = (signingTasks?: { blobs: DatabaseBlobStore; maker: typeof fakeMaker | null }) => eventTasks({ ...base, signing: signingTasks }).map((t) => t.what);
      assert.ok(!names().includes('signing reminders'));
      assert.ok(names({ blobs, maker: null }).includes('signing reminders'));
      assert.ok(!names({ blobs, maker: null }).includes('envelope finisher'));
      assert.ok(names({ blobs, maker: fakeMaker }).includes('envelope finisher'));
    });
  });

  describe('in parallel', () => {
    it('mails every signer at once; they sign in any order', async () => {
      const { envelopeId } = await send([OWNER, PROPERTY_OWNER], 'parallel');
      let s = await envelopeState(h, envelopeId);
      assert.deepEqual(s.signers.map((x) => x.state), ['notified', 'notified']);
      await sign(byLink(await lastToken(h, PROPERTY)), envelopeId);
      await sign(byLink(await lastToken(h, applicantEmail())), envelopeId);
      s = await envelopeState(h, envelopeId);
      assert.deepEqual(s.signers.map((x) => x.state), ['signed', 'signed']);
      assert.ok(s.envelope.allSignedAt !== null);
    });
  });

  describe('refusals change nothing', () => {
    it('a typed name must not be empty, and consent comes first', async () => {
      const { envelopeId } = await send([OWNER]);
      const me = await as('applicant');
      await assert.rejects(() => sign(me, envelopeId, '   '), /Type your full name/);
      await refused(envelopeId, 'INVALID_REQUEST', () => sign(me, envelopeId, 'Ann', false), /Agree to sign electronically/);
      await signing.consent(me, envelopeId, VISIT);
      await sign(me, envelopeId, 'Ann', false);
      assert.equal((await envelopeState(h, envelopeId)).signers[0]!.state, 'signed');
    });

    it('a used link is refused, also for opening the page', async () => {
      const { envelopeId } = await send([PROPERTY_OWNER, OWNER]);
      const token = await lastToken(h, PROPERTY);
      await sign(byLink(token), envelopeId);
      await refused(envelopeId, 'FORBIDDEN', () => sign(byLink(token), envelopeId), /used, replaced .* or has expired/);
      await refused(envelopeId, 'FORBIDDEN', () => signing.open(byLink(token), null, VISIT));
      await refused(envelopeId, 'FORBIDDEN', () => signing.decline(byLink(token), null, 'changed my mind', VISIT));
    });

    it('an expired link is refused', async () => {
      const { envelopeId } = await send([PROPERTY_OWNER]);
      const token = await lastToken(h, PROPERTY);
      h.clock.advance(LINK_TTL_MS + 1);
      await refused(envelopeId, 'FORBIDDEN', () => signing.open(byLink(token), null, VISIT));
      await refused(envelopeId, 'FORBIDDEN', () => sign(byLink(token), envelopeId));
    });

    it('an unknown or empty token is refused', async () => {
      const { envelopeId } = await send([PROPERTY_OWNER]);
      await refused(envelopeId, 'FORBIDDEN', () => sign(byLink(''), envelopeId));
      await refused(envelopeId, 'FORBIDDEN', () => sign(byLink('x'.repeat(43)), envelopeId));
    });

    it('a signer who is not the one named is refused; another applicant neither opens nor signs', async () => {
      const { envelopeId } = await send([OWNER, AGENCY]);
      // Another applicant cannot read the project: to them it does not exist.
      await refused(envelopeId, 'NOT_FOUND', async () => signing.open(await as('otherApplicant'), envelopeId, VISIT));
      await refused(envelopeId, 'NOT_FOUND', async () => sign(await as('otherApplicant'), envelopeId));
      await refused(envelopeId, 'NOT_FOUND', async () => signing.document(await as('otherApplicant'), envelopeId));
      await refused(envelopeId, 'NOT_FOUND', async () => sign(await as('outsider'), envelopeId));
      // Staff who may read the project see the page but are no signer.
      const staffPage = await signing.open(await as('reader'), envelopeId, VISIT);
      assert.equal(staffPage.me, null);
      assert.equal(staffPage.mayAct, false);
      await refused(envelopeId, 'FORBIDDEN', async () => sign(await as('reader'), envelopeId), /not a signer/);
      await refused(envelopeId, 'FORBIDDEN', async () => signing.decline(await as('programAdmin'), envelopeId, 'no', VISIT), /not a signer/);
      // The owner's link is theirs: it signs as the owner, never again as the agency's signer who comes next.
      await sign(byLink(await lastToken(h, applicantEmail())), envelopeId);
      await refused(envelopeId, 'CONFLICT', async () => sign(await as('applicant'), envelopeId), /already signed/);
    });
  });

  describe('decline, void, resend', () => {
    it('a signer declines with a reason: the envelope is declined and nobody signs it any more', async () => {
      const { envelopeId } = await send([OWNER, PROPERTY_OWNER], 'parallel');
      const token = await lastToken(h, PROPERTY);
      await refused(envelopeId, 'INVALID_REQUEST', () => signing.decline(byLink(token), null, '  ', VISIT), /Say why/);
      h.clock.advance();
      await signing.decline(byLink(token), null, 'The address is wrong', VISIT);
      const s = await envelopeState(h, envelopeId);
      assert.equal(s.envelope.state, 'declined');
      assert.equal(s.signers[1]!.declineReason, 'The address is wrong');
      assert.equal(s.events.filter((e) => e.type === 'envelope.declined').length, 1);
      assert.ok(s.audit.some((a) => a.action === 'project.envelope.decline'));
      await refused(envelopeId, 'FORBIDDEN', async () => sign(byLink(await lastToken(h, applicantEmail())), envelopeId));
      await refused(envelopeId, 'CONFLICT', async () => sign(await as('applicant'), envelopeId), /declined/);
    });

    it('staff with generateDocuments void a sent envelope; others are refused; its links die', async () => {
      const { projectId, envelopeId } = await send([PROPERTY_OWNER]);
      const ref = { programRef: 'solar', projectId, envelopeId };
      for (const who of ['applicant', 'reader', 'editor'] as const) {
        await refused(envelopeId, 'FORBIDDEN', async () => signing.void((await as(who)).caller, ref, 'no', VISIT), /generateDocuments/);
      }
      await refused(envelopeId, 'NOT_FOUND', async () => signing.void((await as('programAdmin')).caller, { ...ref, envelopeId: 'NOSUCHENVELOPE' }, 'no', VISIT));
      h.clock.advance();
      const view = await signing.void((await as('programAdmin')).caller, ref, 'Sent by mistake', VISIT);
      assert.equal(view.envelope.state, 'voided');
      assert.deepEqual(view.steps.at(-1)?.detail, { reason: 'Sent by mistake' });
      const s = await envelopeState(h, envelopeId);
      assert.equal(s.events.filter((e) => e.type === 'envelope.voided').length, 1);
      await refused(envelopeId, 'FORBIDDEN', async () => sign(byLink(await lastToken(h, PROPERTY)), envelopeId));
      await refused(envelopeId, 'CONFLICT', async () => signing.void((await as('programAdmin')).caller, ref, 'again', VISIT), /voided/);
    });

    it('a resend mails a new link; the old one is refused', async () => {
      const { projectId, envelopeId } = await send([PROPERTY_OWNER]);
      const old = await lastToken(h, PROPERTY);
      const ref = { programRef: 'solar', projectId, envelopeId };
      await refused(envelopeId, 'FORBIDDEN', async () => signing.resend((await as('applicant')).caller, ref, 'propertyOwner', VISIT));
      h.clock.advance();
      const { link } = await signing.resend((await as('programAdmin')).caller, ref, 'propertyOwner', VISIT);
      assert.equal(link, null, 'with mail on, the link goes by mail only');
      const fresh = await lastToken(h, PROPERTY);
      assert.notEqual(fresh, old);
      assert.equal((await envelopeState(h, envelopeId)).steps.at(-1)?.action, 'resent');
      await refused(envelopeId, 'FORBIDDEN', () => sign(byLink(old), envelopeId));
      await sign(byLink(fresh), envelopeId);
      assert.equal((await envelopeState(h, envelopeId)).signers[0]!.state, 'signed');
      await refused(envelopeId, 'CONFLICT', async () => signing.resend((await as('programAdmin')).caller, ref, 'propertyOwner', VISIT));
    });
  });

  describe('reminders', () => {
    it('a signer who has not acted for a day is mailed a new link on a working day only; the old link dies', async () => {
      // Friday 4 December 2026, 10:00 UTC (the fixture program has no calendar: Monday to Friday in UTC).
      h.clock.time = Math.max(h.clock.time, Date.parse('2026-12-04T10:00:00Z'));
      const friday = h.clock.time === Date.parse('2026-12-04T10:00:00Z');
      const { envelopeId } = await send([PROPERTY_OWNER]);
      const first = await lastToken(h, PROPERTY);
      const ask = () => remindSigners({ store: h.store, clock: h.clock, signing });
      // Not a day yet: nobody is reminded.
      assert.equal(await ask(), 0);
      // A day later is Saturday: still nobody, and nothing changes.
      h.clock.advance(REMIND_AFTER_MS + 1000);
      const before = await envelopeState(h, envelopeId);
      if (friday) {
        assert.equal(await ask(), 0);
        assert.deepEqual(await envelopeState(h, envelopeId), before);
        // Monday.
        h.clock.advance(2 * 86_400_000);
      }
      assert.ok(await ask() >= 1);
      const s = await envelopeState(h, envelopeId);
      assert.equal(s.steps.at(-1)?.action, 'reminded');
      const mails = (await h.store.mail.listMail()).filter((m) => m.to === PROPERTY);
      assert.match(mails.at(-1)!.subject, /^Reminder: /);
      await refused(envelopeId, 'FORBIDDEN', () => sign(byLink(first), envelopeId));
      await sign(byLink(await lastToken(h, PROPERTY)), envelopeId);
      // Signed: never reminded again.
      h.clock.advance(REMIND_AFTER_MS * 3);
      const done = await envelopeState(h, envelopeId);
      await ask();
      assert.deepEqual((await envelopeState(h, envelopeId)).steps, done.steps);
    });

    it('nobody is reminded of an envelope sent more than REMIND_FOR_MS ago', async () => {
      const { envelopeId } = await send([PROPERTY_OWNER]);
      h.clock.advance(REMIND_FOR_MS + 1000);
      const before = await envelopeState(h, envelopeId);
      for (let day = 0; day < 3; day++) {
        await remindSigners({ store: h.store, clock: h.clock, signing });
        h.clock.advance(86_400_000);
      }
      assert.deepEqual((await envelopeState(h, envelopeId)).steps, before.steps);
    });
  });

  describe('over the API', () => {
    const path = (projectId: string, envelopeId = '') => `${PROGRAM}/Projects/${projectId}/Envelopes${envelopeId === '' ? '' : `/${envelopeId}`}`;

    it('GetEnvelope: the envelope, its signers and trail in XML and JSON; IP addresses for staff only; others 404', async () => {
      const { projectId, envelopeId } = await send([OWNER, PROPERTY_OWNER]);
      await sign(await as('applicant'), envelopeId, 'Ann Applicant');
      const xml = await h.request({ method: 'GET', url: path(projectId, envelopeId), as: 'admin' });
      assertValidXml(h, xml);
      const staff = xmlAnswerValue(h, xml, EnvelopeResponse);
      const json = assertJsonAnswer(await h.request({ method: 'GET', url: path(projectId, envelopeId), as: 'admin', headers: JSON_ANSWER }), EnvelopeResponse);
      assert.deepEqual(json, staff);
      assert.equal(staff.Envelope.EnvelopeId, envelopeId);
      assert.equal(staff.Envelope.State, 'sent');
      assert.deepEqual(staff.Envelope.Signer.map((x) => [x.SignerId, x.State, x.TypedName]), [['applicant', 'signed', 'Ann Applicant'], ['propertyOwner', 'notified', undefined]]);
      const signed = staff.Envelope.Step.find((x) => x.Action === 'signed')!;
      assert.deepEqual([signed.SignerId, signed.User, signed.IpAddress, signed.UserAgent], ['applicant', h.who.applicant.email, VISIT.ip, VISIT.userAgent]);
      // The applicant reads it too, without the addresses and browsers of the trail.
      const own = assertJsonAnswer(await h.request({ method: 'GET', url: path(projectId, envelopeId), as: 'applicant', headers: JSON_ANSWER }), EnvelopeResponse);
      assert.equal(own.Envelope.Step.length, staff.Envelope.Step.length);
      assert.ok(own.Envelope.Step.every((x) => x.IpAddress === undefined && x.UserAgent === undefined));
      for (const who of ['otherApplicant', 'outsider'] as const) assert.ok([403, 404].includes((await h.request({ method: 'GET', url: path(projectId, envelopeId), as: who })).statusCode));
      assertError(h, await h.request({ method: 'GET', url: path(projectId, envelopeId), as: 'otherApplicant' }), 404, 'NOT_FOUND');
      assertError(h, await h.request({ method: 'GET', url: path(projectId, 'NOSUCHENVELOPE'), as: 'admin' }), 404, 'NOT_FOUND');
      const list = assertJsonAnswer(await h.request({ method: 'GET', url: path(projectId), as: 'applicant', headers: JSON_ANSWER }), ProjectEnvelopesResponse);
      assert.deepEqual(list.Envelope.map((x) => [x.EnvelopeId, x.Signer.length, x.Step.length]), [[envelopeId, 2, 0]]);
    });

    it('VoidEnvelope and ResendEnvelope: staff with generateDocuments only; with mail off the resend answers the new link', async () => {
      const { projectId, envelopeId } = await send([PROPERTY_OWNER]);
      const old = await lastToken(h, PROPERTY);
      const resend = `${path(projectId, envelopeId)}/Signers/propertyOwner/Resend`;
      const before = await envelopeState(h, envelopeId);
      assertJsonError(await h.request({ method: 'POST', url: resend, as: 'editor', headers: JSON_ANSWER }), 403, 'FORBIDDEN');
      assertJsonError(await h.request({ method: 'POST', url: `${path(projectId, envelopeId)}/Void`, as: 'applicant', headers: JSON_ANSWER }), 403, 'FORBIDDEN');
      assert.deepEqual(await envelopeState(h, envelopeId), before);
      h.clock.advance();
      const resent = assertJsonAnswer(await h.request({ method: 'POST', url: resend, as: 'programAdmin', headers: JSON_ANSWER }), EnvelopeResponse);
      const link = resent.Envelope.SigningLink;
      assert.ok(link?.startsWith('http://apas.test/MvcProjects/Sign?token='), String(link));
      await refused(envelopeId, 'FORBIDDEN', () => sign(byLink(old), envelopeId));
      h.clock.advance();
      const voided = assertJsonAnswer(await h.request({ method: 'POST', url: `${path(projectId, envelopeId)}/Void?Reason=Wrong%20document`, as: 'programAdmin', headers: JSON_ANSWER }), EnvelopeResponse);
      assert.equal(voided.Envelope.State, 'voided');
      assert.equal(voided.Envelope.Step.at(-1)?.Reason, 'Wrong document');
      assert.equal(voided.Envelope.SigningLink, undefined);
      await refused(envelopeId, 'FORBIDDEN', () => sign(byLink(new URL(link!).searchParams.get('token')!), envelopeId));
      assertJsonError(await h.request({ method: 'POST', url: `${path(projectId, envelopeId)}/Void`, as: 'programAdmin', headers: JSON_ANSWER }), 409, 'CONFLICT');
    });
  });

  describe('the document on the signing page', () => {
    it('answers one byte range (206, 416 past the end) and its SHA-256 as ETag for If-Range, keeping its frame policy and no-store; HEAD', async () => {
      const { envelopeId } = await send([OWNER]);
      const url = `/MvcProjects/Sign/Document?token=${await lastToken(h, applicantEmail())}`;
      const etag = `"${createHash('sha256').update(TINY_PDF).digest('hex')}"`;
      const get = (headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') => h.app.inject({ method, url, headers });
      const kept = (res: { headers: Record<string, unknown> }) => {
        assert.deepEqual([res.headers['content-type'], res.headers['cache-control'], res.headers['referrer-policy'], res.headers['x-frame-options']],
          ['application/pdf', 'private, no-store', 'no-referrer', 'SAMEORIGIN']);
        assert.equal(res.headers['content-security-policy'], "default-src 'none'; frame-ancestors 'self'");
        assert.match(String(res.headers['content-disposition']), /^inline; filename="agreement.pdf"/);
        assert.deepEqual([res.headers.etag, res.headers['accept-ranges']], [etag, 'bytes']);
      };
      const whole = await get();
      assert.equal(whole.statusCode, 200, whole.body);
      assert.deepEqual(whole.rawPayload, TINY_PDF);
      kept(whole);
      const part = await get({ range: 'bytes=0-4' });
      assert.equal(part.statusCode, 206, part.body);
      assert.deepEqual([part.rawPayload, part.headers['content-range'], part.headers['content-length']], [TINY_PDF.subarray(0, 5), `bytes 0-4/${TINY_PDF.length}`, '5']);
      kept(part);
      const resumed = await get({ range: 'bytes=-6', 'if-range': etag });
      assert.equal(resumed.statusCode, 206);
      assert.deepEqual(resumed.rawPayload, TINY_PDF.subarray(TINY_PDF.length - 6));
      const stale = await get({ range: 'bytes=-6', 'if-range': `"${'0'.repeat(64)}"` });
      assert.equal(stale.statusCode, 200, 'another file\'s ETag: the whole document');
      assert.deepEqual(stale.rawPayload, TINY_PDF);
      const past = await get({ range: `bytes=${TINY_PDF.length}-` });
      assert.equal(past.statusCode, 416);
      assert.equal(past.headers['content-range'], `bytes */${TINY_PDF.length}`);
      assert.match(String(past.headers['content-type']), /^text\/html/);
      assert.equal(past.headers['content-disposition'], undefined);
      const head = await get({}, 'HEAD');
      assert.equal(head.statusCode, 200);
      assert.deepEqual([head.headers['content-length'], head.rawPayload.length], [String(TINY_PDF.length), 0]);
      kept(head);
      // Reading the document is no act of the signer's: the envelope waits for the signature as before.
      assert.equal((await envelopeState(h, envelopeId)).envelope.state, 'sent');
    });
  });

  describe('automations', () => {
    it('envelope.completed, .declined and .voided trigger the program\'s automations in their change', async () => {
      const rows = programRows(h.clock.now());
      const on = (trigger: TriggerKind): Automation => ({
        customId: `on-${trigger}`, name: trigger, if: null, actions: [{ do: 'emitEvent', name: trigger }],
        when: { trigger, formId: null, statusId: null, fieldId: null, attachmentId: null, approval: null, by: null },
      });
      const automations = (['envelope.completed', 'envelope.declined', 'envelope.voided'] as const).map(on);
      await h.store.transaction((tx) => tx.programs.saveProgramDefinition({ ...rows, program: { ...rows.program, automations } }));
      const custom = async (projectId: string) => (await h.store.events.listProjectEvents(projectId)).filter((e) => e.type === 'automation.custom').map((e) => e.data.name);

      const completed = await send([OWNER]);
      await sign(await as('applicant'), completed.envelopeId);
      assert.deepEqual(await custom(completed.projectId), [], 'signing alone completes nothing: the signed PDF comes first');
      h.clock.advance();
      await finishSignedEnvelopes(finisher);
      assert.deepEqual(await custom(completed.projectId), ['envelope.completed']);

      const declined = await send([OWNER]);
      h.clock.advance();
      await signing.decline(await as('applicant'), declined.envelopeId, 'No', VISIT);
      assert.deepEqual(await custom(declined.projectId), ['envelope.declined']);

      const voided = await send([OWNER]);
      h.clock.advance();
      await signing.void((await as('admin')).caller, { programRef: 'solar', projectId: voided.projectId, envelopeId: voided.envelopeId }, '', VISIT);
      assert.deepEqual(await custom(voided.projectId), ['envelope.voided']);
    });
  });

  describe('storage', () => {
    it('keeps only the SHA-256 of a link\'s token', async () => {
      const { envelopeId } = await send([PROPERTY_OWNER]);
      const token = await lastToken(h, PROPERTY);
      assert.equal(await h.store.envelopes.findLink(token), null);
      const link = await h.store.envelopes.findLink(createHash('sha256').update(token).digest('hex'));
      assert.equal(link?.envelopeId, envelopeId);
      assert.equal(link?.expiresAt, link!.createdAt + LINK_TTL_MS);
    });
  });
});
