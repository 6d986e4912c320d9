import type { EnvelopeView } from '../../domain/signing/signing-service.ts';
import { isoTimestamp } from '../../model/clock.ts';
import type { EnvelopeSigner, EnvelopeStep } from '../../model/document.ts';
import { complex, type DocumentValue, dateTime, enumeration, many, one, optional, positiveInteger, required, responseDocument, string } from '../wire-type.ts';

const EnvelopeState = enumeration('EnvelopeState', ['sent', 'completed', 'declined', 'voided'],
  'sent until every signer signed and the signed PDF is stored (completed), or a signer declined, or staff voided it.');

const SignerState = enumeration('SignerState', ['waiting', 'notified', 'viewed', 'consented', 'signed', 'declined'],
  'waiting for the signers before (in order); notified (mailed); viewed; consented to sign electronically; signed or declined.');

const StepAction = enumeration('EnvelopeStepAction',
  ['created', 'notified', 'viewed', 'consented', 'signed', 'declined', 'voided', 'resent', 'reminded', 'completed'], 'What one step of the audit trail did.');

const Signer = complex({
  name: 'EnvelopeSigner',
  attributes: {
    SignerId: required(string, { doc: 'The customId of the template\'s signer.' }),
    Kind: required(enumeration('SignerKind', ['owner', 'emailField', 'role'], 'The project\'s owner, the person an e-mail field names, or a holder of a program role.')),
    Label: required(string, { doc: 'The template\'s name for the signer (e.g. Property owner).' }),
    Name: required(string, { doc: 'The person\'s name; for a role, the role\'s name until a holder signs.' }),
    Email: optional(string, { doc: 'The address the signer is mailed at (absent for a role until a holder signs).' }),
    Role: optional(string, { doc: 'kind role: the program role whose holders may sign.' }),
    State: required(SignerState),
    NotifiedAt: optional(dateTime, { doc: 'When the signer was last mailed.' }),
    ConsentedAt: optional(dateTime),
    SignedAt: optional(dateTime),
    TypedName: optional(string, { doc: 'The name the signer typed as their signature.' }),
    DeclineReason: optional(string),
  },
});

const Step = complex({
  name: 'EnvelopeStep',
  doc: 'One step of the audit trail, in order.',
  attributes: {
    At: required(dateTime),
    Action: required(StepAction),
    SignerId: optional(string, { doc: 'The customId of the signer the step is about.' }),
    User: optional(string, { doc: 'The e-mail address of the signed-in user who acted; absent for a signer who came by link, or the service.' }),
    IpAddress: optional(string, { doc: 'Staff only: the address the step came from.' }),
    UserAgent: optional(string, { doc: 'Staff only: the browser it came from.' }),
    Reason: optional(string, { doc: 'declined, voided: the reason given.' }),
    Version: optional(positiveInteger, { doc: 'created, completed: the attachment version of the document, or of the signed PDF.' }),
    Sha256: optional(string, { doc: 'completed: the SHA-256 of the signed PDF.' }),
  },
});

const Envelope = complex({
  name: 'Envelope',
  doc: 'An e-signature envelope: a generated document of the project and who must sign it.',
  attributes: {
    EnvelopeId: required(string),
    DocumentId: required(string, { doc: 'The customId of the document template.' }),
    Title: required(string),
    State: required(EnvelopeState),
    Order: required(enumeration('SigningOrder', ['sequential', 'parallel'], 'Signers sign one after another in order, or all at once.')),
    AttachmentId: required(string, { doc: 'The attachment definition the document and the signed PDF are versions of.' }),
    AttachmentVersion: required(positiveInteger, { doc: 'The version of the document that is signed.' }),
    SignedVersion: optional(positiveInteger, { doc: 'completed: the version that holds the signed PDF.' }),
    CreatedAt: required(dateTime),
    AllSignedAt: optional(dateTime, { doc: 'When the last signer signed (the signed PDF is made after it).' }),
    FinishedAt: optional(dateTime, { doc: 'When it was completed, declined or voided.' }),
    SigningLink: optional(string, { doc: 'ResendEnvelope with mail off only: the new link, for staff to pass on; never stored.' }),
  },
  children: { Signer: many(Signer), Step: many(Step) },
});

/** GetEnvelope, VoidEnvelope, ResendEnvelope: one envelope with its signers and audit trail. */
export const EnvelopeResponse = responseDocument('EnvelopeResponse', complex({
  attributes: { ProjectId: required(string) },
  children: { Envelope: one(Envelope) },
}), 'GetEnvelope, VoidEnvelope, ResendEnvelope: the envelope with its signers and audit trail (after the change).');

/** GetProjectEnvelopes: the project's envelopes with their signers, oldest first. */
export const ProjectEnvelopesResponse = responseDocument('ProjectEnvelopesResponse', complex({
  attributes: { ProjectId: required(string) },
  children: { Envelope: many(Envelope) },
}), 'GetProjectEnvelopes: the project\'s envelopes with their signers (no audit trail: GetEnvelope reads it), oldest first.');

const time = (t: number | null) => (t === null ? undefined : isoTimestamp(t));
const text = (v: unknown) => (typeof v === 'string' ? v : undefined);

function signerValue(s: EnvelopeSigner) {
  return {
    SignerId: s.signerId, Kind: s.kind, Label: s.label, Name: s.name, Email: s.email === '' ? undefined : s.email, Role: s.role ?? undefined,
    State: s.state, NotifiedAt: time(s.notifiedAt), ConsentedAt: time(s.consentedAt), SignedAt: time(s.signedAt), TypedName: s.typedName ?? undefined,
    DeclineReason: s.declineReason ?? undefined,
  };
}

function stepValue(step: EnvelopeStep, signers: EnvelopeSigner[], emails: ReadonlyMap<string, string>) {
  const version = step.detail.version;
  return {
    At: isoTimestamp(step.at), Action: step.action, SignerId: signers.find((s) => s.id === step.signerId)?.signerId,
    User: step.userId === null ? undefined : emails.get(step.userId), IpAddress: step.ip ?? undefined, UserAgent: step.userAgent ?? undefined,
    Reason: text(step.detail.reason), Version: typeof version === 'number' ? version : undefined, Sha256: text(step.detail.sha256),
  };
}

function envelopeValue(v: EnvelopeView, link?: string | null) {
  const e = v.envelope;
  return {
    EnvelopeId: e.id, DocumentId: e.templateId, Title: e.title, State: e.state, Order: e.order, AttachmentId: e.attachmentId,
    AttachmentVersion: e.attachmentVersion, SignedVersion: e.signedVersion ?? undefined, CreatedAt: isoTimestamp(e.createdAt),
    AllSignedAt: time(e.allSignedAt), FinishedAt: time(e.finishedAt), SigningLink: link ?? undefined,
    Signer: v.signers.map(signerValue), Step: v.steps.map((s) => stepValue(s, v.signers, v.userEmails)),
  };
}

/** The answer of GetEnvelope, VoidEnvelope and ResendEnvelope (with the new link when mail is off). */
export function envelopeAnswerValue(v: EnvelopeView, link?: string | null): DocumentValue<typeof EnvelopeResponse> {
  return { ProjectId: v.project.id, Envelope: envelopeValue(v, link) };
}

/** GetProjectEnvelopes' answer. */
export function projectEnvelopesValue(projectId: string, views: EnvelopeView[]): DocumentValue<typeof ProjectEnvelopesResponse> {
  return { ProjectId: projectId, Envelope: views.map((v) => envelopeValue(v)) };
}
