import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import type { Caller } from '../../src/domain/caller.ts';
import { systemCaller, systemContext } from '../../src/domain/deadlines/deadline-poller.ts';
import { changeProject } from '../../src/domain/projects/change-project.ts';
import type { FinisherDeps } from '../../src/domain/signing/envelope-finisher.ts';
import { SigningService } from '../../src/domain/signing/signing-service.ts';
import { changeReactions } from '../../src/domain/wiring/change-reactions.ts';
import type { DocumentSigner, DocumentTemplate, SignedPdfMaker } from '../../src/model/document.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import type { Program } from '../../src/model/model.ts';
import { DatabaseBlobStore } from '../../src/store/database-blob-store.ts';
import { type HttpHarness, TestClock, type Who } from '../support/http-harness.ts';
import type { Store } from '../../src/store/store.ts';
import type { Clock } from '../../src/model/clock.ts';
import { IDS } from '../support/fixtures.ts';
import { TINY_PDF } from '../support/tiny-pdf.ts';
import { COMPLETE, createProject, setDraft, submitPath } from './http-helpers.ts';

/** The test's signers: the owner, the person the `name` field's address names, and any holder of the editor role. */
export const OWNER: DocumentSigner = { customId: 'applicant', name: 'Applicant', kind: 'owner' };
export const PROPERTY_OWNER: DocumentSigner = { customId: 'propertyOwner', name: 'Property owner', kind: 'emailField', fieldId: IDS.name, nameFieldId: null };
export const AGENCY: DocumentSigner = { customId: 'agency', name: 'Agency signer', kind: 'role', role: 'editor' };

/** A document template as the templates part of the program keeps it (not on this branch yet). */
export function template(signers: DocumentSigner[], order: DocumentTemplate['order'] = 'sequential', disclosure: string | null = null): DocumentTemplate {
  return {
    customId: 'agreement', name: 'Interconnection agreement', title: 'Interconnection agreement', language: 'en', body: '# Agreement',
    header: null, footer: null, visibleToApplicant: true, attachmentId: IDS.photo, signers, order, disclosure, version: 'v1',
  };
}

/** The program with document templates on it, as the templates part will give it (a test-only stand-in). */
export function withDocuments(program: Program, documents: DocumentTemplate[]): Program {
  return { ...program, documents } as Program;
}

/** The signed PDF a fake maker makes: the document, then its signers' typed names (enough to tell it apart). */
export const fakeMaker: SignedPdfMaker = {
  make: async (input) => Buffer.concat([Buffer.from(input.document), Buffer.from(`\n%signed ${input.envelopeId} ${input.signers.map((s) => s.typedName).join(',')}\n`)]),
};

/** The signing service as `serve` builds it, mail on (links come from the queued mails), and the finisher's deps. */
export function signingParts(h: { store: Store; clock: Clock }, publicUrl = 'http://apas.test'): { signing: SigningService; finisher: FinisherDeps; blobs: DatabaseBlobStore } {
  const blobs = new DatabaseBlobStore(h.store, h.clock);
  const common = { store: h.store, clock: h.clock, ids: new RandomIdGenerator(), reactions: changeReactions() };
  const signing = new SigningService({ ...common, publicUrl, maxNumbersPerRequest: 100, mailOn: true, blobs });
  return { signing, finisher: { ...common, blobs, maker: fakeMaker }, blobs };
}

/** A caller for one of the harness's identities, as the web pages and API build one. */
export async function callerOf(h: HttpHarness, who: Who): Promise<Caller> {
  const user = await h.store.accounts.findUserById(h.who[who].id);
  assert.ok(user);
  return { user, apiKeyId: 'test', grants: await h.store.accounts.listGrants(user.id) };
}

/** A submitted project of the applicant whose `name` field holds `email` (the property owner's address). */
export async function submittedWith(h: HttpHarness, email: string): Promise<string> {
  const projectId = await createProject(h, 'applicant');
  await setDraft(h, projectId, { ...COMPLETE, size: [...COMPLETE.size], name: email });
  h.clock.advance();
  const res = await h.request({ method: 'POST', url: submitPath(projectId), as: 'applicant' });
  assert.equal(res.statusCode, 200, res.body);
  return projectId;
}

/**
 * What generation does (issue 32 §2): in one change of the project, the rendered PDF stored as a new version of the
 * template's attachment definition, then the envelope started inside the same change. Returns the envelope's id.
 */
export async function generateAndSend(
  h: { store: Store; clock: Clock }, signing: SigningService, blobs: DatabaseBlobStore, projectId: string, t: DocumentTemplate, programId: string = IDS.program,
): Promise<string> {
  const base = await systemContext(h.store, programId);
  assert.ok(base);
  const program = withDocuments(base.program, [t]);
  const ctx = { ...base, program, model: { ...base.model, program } };
  const stored = await blobs.write(Readable.from([TINY_PDF]), 1024 * 1024);
  if (h.clock instanceof TestClock) h.clock.advance();
  return changeProject({ store: h.store, clock: h.clock, ids: new RandomIdGenerator(), reactions: changeReactions() }, systemCaller(ctx.program), ctx, projectId, {
    action: 'project.document.generate', access: 'read',
    act: async ({ tx, project, now }) => {
      const previous = await tx.attachments.getAttachment(project.id, t.attachmentId);
      const version = (previous?.version ?? 0) + 1;
      await tx.attachments.insertAttachment({
        id: new RandomIdGenerator().next(), projectId: project.id, definitionId: t.attachmentId, version, blobKey: stored.key, fileName: 'agreement.pdf',
        contentType: 'application/pdf', sizeBytes: stored.size, sha256: stored.sha256, uploadedBy: project.ownerId, uploadedAt: now, approvalStatus: 'Pending',
        note: null, reviewedBy: null, reviewedAt: null,
      });
      const { envelopeId } = await signing.startEnvelopeIn(tx, { caller: systemCaller(ctx.program), ctx, project, now }, { templateId: t.customId, attachmentId: t.attachmentId, version });
      return { detail: { documentId: t.customId, version }, result: () => envelopeId };
    },
  });
}

/** The signing links mailed to an address, oldest first (their tokens). */
export async function mailedTokens(h: { store: Store }, to: string): Promise<string[]> {
  const mails = (await h.store.mail.listMail()).filter((m) => m.kind === 'envelope.sign' && m.to === to).sort((a, b) => a.createdAt - b.createdAt);
  return mails.flatMap((m) => [...m.text.matchAll(/[?&]token=([A-Za-z0-9_-]+)/g)].map((x) => x[1]!));
}

/** The newest signing link mailed to an address. */
export async function lastToken(h: { store: Store }, to: string): Promise<string> {
  const tokens = await mailedTokens(h, to);
  assert.ok(tokens.length > 0, `no signing link was mailed to ${to}`);
  return tokens[tokens.length - 1]!;
}

/** Everything a refused signing request could have changed: the envelope, its signers and trail, the project, its audit and events, the mails. */
export async function envelopeState(h: HttpHarness, envelopeId: string) {
  const envelope = await h.store.envelopes.findEnvelope(envelopeId);
  assert.ok(envelope);
  return {
    envelope, signers: await h.store.envelopes.listSigners([envelopeId]), steps: await h.store.envelopes.listSteps(envelopeId),
    project: await h.store.projects.getProject(IDS.program, envelope.projectId), audit: await h.store.audit.list({ projectId: envelope.projectId }),
    events: await h.store.events.listProjectEvents(envelope.projectId), mails: (await h.store.mail.listMail()).length,
    attachments: await h.store.attachments.getAttachment(envelope.projectId, envelope.attachmentId),
  };
}
