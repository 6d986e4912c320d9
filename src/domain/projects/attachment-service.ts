import type { BlobStore, StoredBlob } from '../../store/blob-store.ts';
import type { StoreReader } from '../../store/store.ts';
import { StoreError } from '../../store/store-error.ts';
import { canWrite, isStaff, mayReadForm, overridesForms, requireFormUse } from '../roles/access.ts';
import { hiddenGenerated, templateOfAttachment } from '../document-templates.ts';
import { ApiError } from '../api-error.ts';
import { cleanFileName, definitionOnForm, findDefinition, mediaTypeOf, typeAllowed } from './attachment-rules.ts';
import type { Caller } from '../caller.ts';
import type { ApprovalStatus, AttachmentDefinition, AttachmentRecord, Form, ProgramModel, Project } from '../../model/model.ts';
import { changeProject, matchesVersion, preconditionFailed } from './change-project.ts';
import { findForm, loadProgramWith, loadProgram, loadReadableProject, type ProgramContext, requireAvailable, versionOf } from './project-context.ts';
import type { ServiceDeps } from '../service-deps.ts';
import type { ReactingDeps } from './change-reaction.ts';
import type { AtVersion, AttachmentFileView, AttachmentMetadataView, AttachmentReviewInput, UploadInput } from '../views.ts';

/** The project and attachment definition an attachment operation addresses (ids or custom ids). */
export interface AttachmentTarget { programRef: string; projectId: string; attachmentRef: string }

/** What the attachment service needs beyond the common service dependencies. */
export interface AttachmentDeps {
  blobs: BlobStore;
  /** The most bytes any upload may have, whatever its definition allows. */
  maxUploadBytes: number;
}

const REVIEW_OUTCOME: Record<AttachmentReviewInput['action'], ApprovalStatus | null> = {
  Approve: 'Approved', Reject: 'Rejected', Unmark: 'Pending', Save: null,
};

/** An upload's file, stored but not yet a version: `commit` makes it one (discarding it on failure), `discard` drops it. */
export interface StagedUpload {
  commit(): Promise<AtVersion<AttachmentMetadataView>>;
  discard(): Promise<void>;
}

/** An attachment the caller may read, with its definition and form. */
interface ReadableAttachment { ctx: ProgramContext; project: Project; form: Form; definition: AttachmentDefinition }

/** Uploads, reviews and serves the files of projects' attachment definitions; every version is kept. */
export class AttachmentService {
  readonly #deps: ServiceDeps<'programs' | 'projects' | 'attachments' | 'accounts'> & ReactingDeps;
  readonly #blobs: BlobStore;
  readonly #maxUploadBytes: number;

  constructor(deps: ServiceDeps<'programs' | 'projects' | 'attachments' | 'accounts'> & ReactingDeps, attachments: AttachmentDeps) {
    this.#deps = deps;
    this.#blobs = attachments.blobs;
    this.#maxUploadBytes = attachments.maxUploadBytes;
  }

  /**
   * SetProjectAttachment: stores the upload as the definition's new active version. Every guard runs before a byte is
   * read; the file becomes active only after it is durably stored, in one transaction with the project bump and audit.
   */
  async upload(caller: Caller, target: AttachmentTarget & { formRef: string }, input: UploadInput): Promise<AtVersion<AttachmentMetadataView>> {
    return (await this.stage(caller, target, input)).commit();
  }

  /**
   * The first half of an upload: the guards, then the file stored, but not yet a version of anything. The caller
   * commits it (the version is made; a failure discards the file) or discards it: a web form's post stages its files
   * as they stream in and commits them only once the whole post has arrived, so that one broken off stores nothing.
   */
  async stage(caller: Caller, target: AttachmentTarget & { formRef: string }, input: UploadInput): Promise<StagedUpload> {
    const { store, ids } = this.#deps;
    const ctx = await loadProgram(this.#deps, caller, target.programRef);
    const seen = await loadReadableProject(store, caller, ctx, target.projectId);
    if (!canWrite(caller, ctx.role, seen)) throw new ApiError('FORBIDDEN', `You may read but not change project ${seen.id} (privilege editData, or editOwnProjects on your own projects).`);
    const form = findForm(ctx.model, target.formRef);
    const definition = definitionOnForm(form, target.attachmentRef);
    refuseDocumentUpload(ctx.model, definition);
    requireFormUse(ctx.role, form);
    if (!overridesForms(ctx.role)) requireAvailable(ctx.model, form, seen);
    const contentType = mediaTypeOf(input.contentType);
    if (contentType === null || !typeAllowed(contentType, definition.allowedTypes)) {
      const got = input.contentType === null ? 'no Content-Type' : `Content-Type "${input.contentType}"`;
      throw new ApiError('UNSUPPORTED_MEDIA_TYPE', `${definition.name} accepts ${definition.allowedTypes.join(', ')}; got ${got}.`);
    }
    const limit = Math.min(definition.maxSizeBytes, this.#maxUploadBytes);
    if (input.contentLength !== null && input.contentLength > limit) throw tooLargeFor(definition, limit);
    if (input.contentLength === 0) throw emptyUpload();
    // Versions only grow, so an If-Match the project has already left behind is refused before the upload is read;
    // the change step checks it again on the locked project, which catches a change made while the file arrived.
    if (caller.ifMatch && !matchesVersion(caller.ifMatch, seen)) throw preconditionFailed(seen.id);
    const stored = await this.#save(input, limit, definition);
    const discard = () => this.#discard(stored.key);
    try {
      if (stored.size === 0) throw emptyUpload();
      if (input.contentLength !== null && stored.size < input.contentLength) {
        throw new ApiError('INVALID_REQUEST', `The body ended after ${stored.size} of the ${input.contentLength} bytes its Content-Length announced; nothing was stored.`);
      }
    } catch (error) {
      await discard();
      throw error;
    }
    const commit = async () => {
      try {
        return await changeProject(this.#deps, caller, ctx, seen.id, {
          // Uploads can take long: the rules are checked again on the project as it is now.
          action: 'project.attachment.upload', access: 'write',
          act: async ({ tx, project, now }) => {
            if (!overridesForms(ctx.role)) requireAvailable(ctx.model, form, project);
            const previous = await tx.attachments.getAttachment(project.id, definition.id);
            const record: AttachmentRecord = {
              id: ids.next(), projectId: project.id, definitionId: definition.id, version: (previous?.version ?? 0) + 1, blobKey: stored.key,
              fileName: cleanFileName(input.fileName), contentType, sizeBytes: stored.size, sha256: stored.sha256, uploadedBy: caller.user.id,
              uploadedAt: now, approvalStatus: 'Pending', note: null, reviewedBy: null, reviewedAt: null,
            };
            await tx.attachments.insertAttachment(record);
            return {
              // No file name: like values, names may say more than operators reading the audit log should see.
              detail: { formId: form.id, attachmentId: definition.id, version: record.version, size: record.sizeBytes, sha256: record.sha256, contentType },
              result: async (updated) => ({ ...(await this.#metadataView(tx, definition, record)), projectVersion: versionOf(updated) }),
            };
          },
        });
      } catch (error) {
        await discard();
        throw error;
      }
    };
    return { commit, discard };
  }

  /** GetActiveAttachment: the active file of a definition (read access; applicants only of forms they may read). */
  async getActiveFile(caller: Caller, target: AttachmentTarget): Promise<AttachmentFileView> {
    const a = await this.#readable(caller, target, loadProgram);
    return this.#fileView(await this.#active(a));
  }

  /** GetAttachmentAsAdmin (privilege reviewAttachments): any version of a definition's file. */
  async getVersionFile(caller: Caller, target: AttachmentTarget, version: number): Promise<AttachmentFileView> {
    const a = await this.#readable(caller, target, (deps, c, ref) => loadProgramWith(deps, c, ref, 'reviewAttachments', 'GetAttachmentAsAdmin'));
    const record = await this.#deps.store.attachments.getAttachment(a.project.id, a.definition.id, version);
    if (!record) throw new ApiError('NOT_FOUND', `${a.definition.name} of project ${a.project.id} has no version ${version}.`);
    return this.#fileView(record);
  }

  /** GetAttachmentMetadata: the active file's metadata (read access). */
  async getMetadata(caller: Caller, target: AttachmentTarget): Promise<AtVersion<AttachmentMetadataView>> {
    const a = await this.#readable(caller, target, loadProgram);
    return { ...(await this.#metadataView(this.#deps.store, a.definition, await this.#active(a))), projectVersion: versionOf(a.project) };
  }

  /** SetAttachmentMetadata (privilege reviewAttachments): reviews the active file (Approve, Reject, Unmark, Save) and replaces its note when one is given. */
  async setMetadata(caller: Caller, target: AttachmentTarget, input: AttachmentReviewInput): Promise<AtVersion<AttachmentMetadataView>> {
    const a = await this.#readable(caller, target, (deps, c, ref) => loadProgramWith(deps, c, ref, 'reviewAttachments', 'SetAttachmentMetadata'));
    return changeProject(this.#deps, caller, a.ctx, a.project.id, {
      action: 'project.attachment.review', access: 'read',
      act: async ({ tx, project, now }) => {
        const current = await tx.attachments.getAttachment(project.id, a.definition.id);
        if (!current) throw nothingUploaded(a);
        const approvalStatus = REVIEW_OUTCOME[input.action] ?? current.approvalStatus;
        const note = input.note === null ? current.note : input.note === '' ? null : input.note;
        await tx.attachments.updateAttachmentReview(current.id, { approvalStatus, note, reviewedBy: caller.user.id, reviewedAt: now });
        return {
          detail: { attachmentId: a.definition.id, version: current.version, action: input.action, from: current.approvalStatus, to: approvalStatus, noteChanged: note !== current.note },
          result: async (updated) => ({
            ...(await this.#metadataView(tx, a.definition, { ...current, approvalStatus, note, reviewedBy: caller.user.id, reviewedAt: now })),
            projectVersion: versionOf(updated),
          }),
        };
      },
    });
  }

  /** Streams the upload into the blob store, turning its failures into answers the client can act on. */
  async #save(input: UploadInput, limit: number, definition: AttachmentDefinition): Promise<StoredBlob> {
    try {
      // A body longer than its Content-Length is refused like one over the limit.
      return await this.#blobs.write(input.body, Math.min(limit, input.contentLength ?? limit));
    } catch (error) {
      if (error instanceof StoreError && error.code === 'BLOB_TOO_LARGE') {
        // An announced length over the limit was refused before reading, so here the body outran its announcement.
        if (input.contentLength !== null) {
          throw new ApiError('PAYLOAD_TOO_LARGE', `The body is longer than the ${input.contentLength} bytes its Content-Length announced; nothing was stored.`);
        }
        throw tooLargeFor(definition, limit);
      }
      if (input.body.errored) throw new ApiError('INVALID_REQUEST', 'The upload broke off before it was complete; nothing was stored.');
      throw error;
    }
  }

  /** Deletes a blob that did not become an attachment, unless (a commit acknowledged too late) a row does point at it. */
  async #discard(key: string): Promise<void> {
    const referenced = await this.#deps.store.attachments.isBlobReferenced(key).catch(() => true);
    // Whatever is left behind here, the orphan sweep removes at the next start.
    if (!referenced) await this.#blobs.delete(key).catch(() => {});
  }

  async #readable(
    caller: Caller, target: AttachmentTarget,
    load: (deps: ServiceDeps<'programs'>, caller: Caller, programRef: string) => Promise<ProgramContext>,
  ): Promise<ReadableAttachment> {
    const ctx = await load(this.#deps, caller, target.programRef);
    const project = await loadReadableProject(this.#deps.store, caller, ctx, target.projectId);
    const { form, definition } = findDefinition(ctx.model, target.attachmentRef);
    if (!mayReadForm(ctx.role, form)) throw new ApiError('FORBIDDEN', `Form ${form.name} is for program staff.`);
    // A generated document its template keeps from applicants is answered as if it did not exist.
    if (hiddenGenerated(ctx.model, isStaff(ctx.role), definition.id)) throw new ApiError('NOT_FOUND', `Program ${ctx.program.id} has no attachment "${target.attachmentRef}".`);
    return { ctx, project, form, definition };
  }

  async #active(a: ReadableAttachment): Promise<AttachmentRecord> {
    const record = await this.#deps.store.attachments.getAttachment(a.project.id, a.definition.id);
    if (!record) throw nothingUploaded(a);
    return record;
  }

  #fileView(record: AttachmentRecord): AttachmentFileView {
    return {
      fileName: record.fileName, contentType: record.contentType, size: record.sizeBytes, sha256: record.sha256,
      open: (range) => this.#blobs.read(record.blobKey, range),
    };
  }

  async #metadataView(reader: Pick<StoreReader, 'accounts'>, definition: AttachmentDefinition, r: AttachmentRecord): Promise<AttachmentMetadataView> {
    const users = await reader.accounts.usersByIds(r.reviewedBy === null ? [r.uploadedBy] : [r.uploadedBy, r.reviewedBy]);
    const email = (id: string) => users.find((u) => u.id === id)?.email ?? id;
    return {
      attachmentId: definition.id, attachmentName: definition.name, fileName: r.fileName, fileSize: r.sizeBytes, contentType: r.contentType,
      sha256: r.sha256, version: r.version, uploadedBy: email(r.uploadedBy), uploadedTimestamp: r.uploadedAt, approvalStatus: r.approvalStatus,
      note: r.note, reviewedBy: r.reviewedBy === null ? null : email(r.reviewedBy), reviewedTimestamp: r.reviewedAt,
    };
  }
}

// Only apas writes a document's files (generation, signing): an upload could pass a file off as the agency's letter.
function refuseDocumentUpload(model: ProgramModel, definition: AttachmentDefinition): void {
  const template = definition.document ?? templateOfAttachment(model, definition.id)?.customId;
  if (template === undefined) return;
  throw new ApiError('FORBIDDEN', `${definition.name} holds the files apas generates from the document template "${template}"; nobody can upload to it. Nothing was stored.`);
}

function tooLargeFor(definition: AttachmentDefinition, limit: number): ApiError {
  return new ApiError('PAYLOAD_TOO_LARGE', `${definition.name} accepts files of at most ${limit} bytes; nothing was stored.`);
}

function emptyUpload(): ApiError {
  return new ApiError('INVALID_REQUEST', 'The request body is empty; send the file\'s bytes as the body.');
}

function nothingUploaded(a: ReadableAttachment): ApiError {
  return new ApiError('NOT_FOUND', `No file has been uploaded for ${a.definition.name} of project ${a.project.id}.`);
}
