import { createHash } from 'node:crypto';
import type { DocumentSigner, DocumentTemplate } from '../../model/document.ts';
import type { Program, ProgramModel } from '../../model/model.ts';
import type { DefinitionChange, ResolvedProgram } from './program-parts.ts';
import type { DocumentSpec, SignerSpec } from './document-file.ts';

// The program file's `documents:` as programs plans, exports and compares it, like deadlines; the templates' own
// checks (Liquid, signers, logo) are the documents capability's checker (src/domain/documents/document-check.ts),
// which gives what it resolved under the part `documents`.

/** What the documents' check resolved of one document: its form, its signers' fields and the sensitive fields it lists (indexes in the file). */
export interface ResolvedDocument {
  form: number | null;
  signers: { emailField: number | null; nameField: number | null }[];
  sensitiveFields: number[];
}

/** The most bytes a generated document's file may have (its attachment definition's limit). */
export const DOCUMENT_MAX_BYTES = 50 * 1024 * 1024;

/** The attachment a document's generated files are versions of, as a form of the file would list it. */
export interface DocumentAttachmentSpec {
  customId: string; name: string; allowedTypes: string[]; maxSizeBytes: number; required: boolean; document: string;
}

/** What the documents' check resolved, from a resolved program (an empty list for a file without documents). */
export function resolvedDocuments(resolved: ResolvedProgram): ResolvedDocument[] {
  return (resolved.parts.documents as ResolvedDocument[] | undefined) ?? [];
}

/** Per form of the file (by index): the attachments its documents add after the form's own. */
export function documentAttachmentsOf(resolved: ResolvedProgram): DocumentAttachmentSpec[][] {
  const out = resolved.file.forms.map((): DocumentAttachmentSpec[] => []);
  const documents = resolved.file.documents ?? [];
  resolvedDocuments(resolved).forEach((r, i) => {
    const d = documents[i]!;
    if (r.form === null) return;
    out[r.form]!.push({ customId: d.customId, name: d.name, allowedTypes: ['application/pdf'], maxSizeBytes: DOCUMENT_MAX_BYTES, required: false, document: d.customId });
  });
  return out;
}

/** The templates to store: references as ids, each with the id of its attachment definition and its version. */
export function planDocuments(resolved: ResolvedProgram, fieldIds: string[], attachmentOf: (form: number, customId: string) => string): DocumentTemplate[] {
  const documents = resolved.file.documents ?? [];
  return resolvedDocuments(resolved).map((r, i) => {
    const d = documents[i]!;
    const signers = d.signers.map((s, j): DocumentSigner => {
      const fields = r.signers[j]!;
      if (s.emailField !== null) {
        return { customId: s.customId, name: s.name, kind: 'emailField', fieldId: fieldIds[fields.emailField!]!, nameFieldId: fields.nameField === null ? null : fieldIds[fields.nameField]! };
      }
      if (s.role !== null) return { customId: s.customId, name: s.name, kind: 'role', role: s.role };
      return { customId: s.customId, name: s.name, kind: 'owner' };
    });
    return withVersion({
      customId: d.customId, name: d.name, title: d.title, language: d.language, body: d.body, header: d.header, footer: d.footer,
      visibleToApplicant: d.visibleToApplicant, attachmentId: attachmentOf(r.form!, d.customId), signers, order: d.order,
      disclosure: d.disclosure, sensitiveFields: r.sensitiveFields.map((n) => fieldIds[n]!), logo: d.logo,
    });
  });
}

/** A template with its version: a short digest of everything that makes its documents what they are. */
export function withVersion(t: Omit<DocumentTemplate, 'version'>): DocumentTemplate {
  // The attachment's id is where the files go, not what they say.
  const { attachmentId: _attachmentId, ...definition } = t;
  return { ...t, version: createHash('sha256').update(JSON.stringify(definition)).digest('hex').slice(0, 12) };
}

/** A program's stored templates as the program file writes them; `refOf` turns a field id into its reference. */
export function documentSpecsOf(program: Program, model: Pick<ProgramModel, 'forms'>, refOf: (fieldId: string) => string): DocumentSpec[] {
  return (program.documents ?? []).map((t) => {
    const form = model.forms.find((f) => f.attachments.some((a) => a.id === t.attachmentId));
    return {
      customId: t.customId, name: t.name, title: t.title, language: t.language, body: t.body, header: t.header, footer: t.footer,
      form: form ? (form.customId ?? form.name) : t.attachmentId, visibleToApplicant: t.visibleToApplicant,
      sensitiveFields: (t.sensitiveFields ?? []).map(refOf), logo: t.logo ?? null,
      signers: t.signers.map((s): SignerSpec => ({
        customId: s.customId, name: s.name, owner: s.kind === 'owner',
        emailField: s.kind === 'emailField' ? refOf(s.fieldId) : null,
        nameField: s.kind === 'emailField' && s.nameFieldId !== null ? refOf(s.nameFieldId) : null,
        role: s.kind === 'role' ? s.role : null,
      })),
      order: t.order, disclosure: t.disclosure,
    };
  });
}

/** A document as the program file writes it, defaults left out. */
export function compactDocument(d: DocumentSpec): Record<string, unknown> {
  const signer = (s: SignerSpec) => ({
    customId: s.customId, name: s.name, ...(s.owner ? { owner: true } : {}), ...(s.emailField === null ? {} : { emailField: s.emailField }),
    ...(s.nameField === null ? {} : { nameField: s.nameField }), ...(s.role === null ? {} : { role: s.role }),
  });
  return {
    customId: d.customId, name: d.name, title: d.title, ...(d.language === 'en' ? {} : { language: d.language }), form: d.form,
    ...(d.visibleToApplicant ? { visibleToApplicant: true } : {}),
    ...(d.header === null ? {} : { header: d.header }), ...(d.footer === null ? {} : { footer: d.footer }), body: d.body,
    ...(d.sensitiveFields.length > 0 ? { sensitiveFields: d.sensitiveFields } : {}), ...(d.logo === null ? {} : { logo: d.logo }),
    ...(d.signers.length > 0 ? { signers: d.signers.map(signer) } : {}), ...(d.order === 'sequential' ? {} : { order: d.order }),
    ...(d.disclosure === null ? {} : { disclosure: d.disclosure }),
  };
}

const COMPARED = ['name', 'title', 'language', 'body', 'header', 'footer', 'visibleToApplicant', 'attachmentId', 'signers', 'order', 'disclosure', 'sensitiveFields', 'logo'] as const;

/** What an import does to the document templates, by customId (updated: which properties). */
export function diffDocuments(before: Program | null, after: Program): DefinitionChange[] {
  const old = before?.documents ?? [];
  const next = after.documents ?? [];
  const changes: DefinitionChange[] = [];
  for (const t of next) {
    const prior = old.find((x) => x.customId === t.customId);
    if (!prior) {
      changes.push({ kind: 'document', action: 'created', ref: t.customId, properties: [] });
      continue;
    }
    const properties = COMPARED.filter((k) => JSON.stringify(prior[k] ?? null) !== JSON.stringify(t[k] ?? null));
    if (properties.length > 0) changes.push({ kind: 'document', action: 'updated', ref: t.customId, properties });
  }
  for (const t of old) if (!next.some((x) => x.customId === t.customId)) changes.push({ kind: 'document', action: 'removed', ref: t.customId, properties: [] });
  return changes;
}
