/**
 * Document templates and e-signature envelopes (issue 32, docs/programs.md "Documents and signatures"): the shared
 * shapes the documents capability (src/domain/documents), generation and signing agree on.
 */

/** Who signs a generated document: the project's owner, the person an e-mail field names, or a holder of a program role. */
export type DocumentSigner =
  | { customId: string; name: string; kind: 'owner' }
  /** `fieldId`/`nameFieldId`: ids of the program's fields (the file names them by reference). */
  | { customId: string; name: string; kind: 'emailField'; fieldId: string; nameFieldId: string | null }
  /** `role`: a built-in or program role; any active holder of it may sign for the agency. */
  | { customId: string; name: string; kind: 'role'; role: string };

/** A document template as the program stores it (`documents:` in the program file). */
export interface DocumentTemplate {
  customId: string; name: string;
  /** The PDF's title (its metadata and first heading's default) and its language (BCP 47, e.g. `en`). */
  title: string; language: string;
  /** Liquid over the layout vocabulary (headings, paragraphs, lists, field tables, a table field's rows). */
  body: string;
  /** Liquid for each page's header and footer (`{{ page }}` and `{{ pages }}` available); null for none. */
  header: string | null; footer: string | null;
  /** Whether the applicant sees the generated file (staff always do). */
  visibleToApplicant: boolean;
  /** The id of the attachment definition the generated files are versions of (created at import; uploads refused). */
  attachmentId: string;
  /** Signers, empty for a document nobody signs; `order`: one after another in file order, or all at once. */
  signers: DocumentSigner[]; order: 'sequential' | 'parallel';
  /** The consent-to-sign-electronically disclosure signers accept first (the program's words); null for apas's default. */
  disclosure: string | null;
  /** Ids of the sensitive fields the template may show (`sensitiveFields:`); the others are never given to it. Absent: none. */
  sensitiveFields?: string[];
  /** A small PNG in base64 drawn at the top of the first page (`logo:`); null or absent for none. */
  logo?: string | null;
  /** A short digest of the template's definition, stored with each generated version ("the template's version"). */
  version: string;
}

/** The states of an envelope; `completed`, `declined` and `voided` are final. */
export type EnvelopeState = 'sent' | 'completed' | 'declined' | 'voided';

/** The states of one signer of an envelope. */
export type SignerState = 'waiting' | 'notified' | 'viewed' | 'consented' | 'signed' | 'declined';

/** One recorded step of an envelope's audit trail. */
export interface EnvelopeStep {
  at: number; signerId: string | null;
  action: 'created' | 'notified' | 'viewed' | 'consented' | 'signed' | 'declined' | 'voided' | 'resent' | 'reminded' | 'completed';
  /** The acting user (null for a signer who came by link without an account), IP address and user agent. */
  userId: string | null; ip: string | null; userAgent: string | null;
  detail: Record<string, unknown>;
}

/** Renders one template over one project's data as it is now, to PDF bytes; reads what it needs and holds no lock. */
export interface DocumentRenderer {
  renderForProject(input: { programId: string; templateId: string; projectId: string; now: number }): Promise<RenderedDocument>;
}

/** A rendered document: its PDF bytes and the template version they came from. */
export interface RenderedDocument { pdf: Uint8Array; templateVersion: string; title: string }

/** Seals a finished PDF with the operator's certificate (PAdES), so any later change to it is detectable. */
export interface PdfSealer { seal(pdf: Uint8Array, reason: string): Promise<Uint8Array> }

/**
 * What the signed PDF's signature page and certificate of completion show of one signer. `signerId`, the id the
 * envelope's steps name the signer by, lets the audit trail show names instead of ids.
 */
export interface SignedBy { signerName: string; role: string; email: string; typedName: string; signedAt: number; ip: string | null; signerId?: string }

/** Makes the signed PDF: the document, a signature page, the certificate of completion (the trail), then the seal. */
export interface SignedPdfMaker {
  make(input: { document: Uint8Array; title: string; envelopeId: string; projectNumber: string; signers: SignedBy[]; steps: EnvelopeStep[]; timeZone: string }): Promise<Uint8Array>;
}

/** An envelope as stored (src/domain/signing): one generated document version of a project and who must sign it. */
export interface Envelope {
  id: string; projectId: string; programId: string;
  /** The template's customId, its title, and the attachment definition and version of the document to sign. */
  templateId: string; title: string; attachmentId: string; attachmentVersion: number;
  /** The version of the same definition that holds the signed PDF, once completed. */
  signedVersion: number | null;
  state: EnvelopeState; order: 'sequential' | 'parallel';
  /** The consent disclosure as it was when the envelope was sent: what each signer agreed to. */
  disclosure: string;
  createdAt: number; createdBy: string; updatedAt: number;
  /** When the last signer signed (the signed PDF is then made after the commit); null before. */
  allSignedAt: number | null;
  /** When the envelope reached its final state. */
  finishedAt: number | null;
}

/** One signer of an envelope: who (resolved when it was sent), their place in the order, and what they did. */
export interface EnvelopeSigner {
  id: string; envelopeId: string; position: number;
  /** The template signer's customId, kind and name (e.g. "Property owner"). */
  signerId: string; kind: DocumentSigner['kind']; label: string;
  /** The person's name and address; for a role, the role's name and no address until a holder signs. */
  name: string; email: string;
  /** The account that signs (the owner; a role's holder once they signed), when known. */
  userId: string | null;
  /** The program role whose holders may sign (kind `role`). */
  role: string | null;
  state: SignerState; notifiedAt: number | null; consentedAt: number | null;
  typedName: string | null; signedAt: number | null; ip: string | null; declineReason: string | null;
}
