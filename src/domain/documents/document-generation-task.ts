import { Readable } from 'node:stream';
import type { Clock } from '../../model/clock.ts';
import type { DocumentRenderer, DocumentTemplate } from '../../model/document.ts';
import type { IdGenerator } from '../../model/ids.ts';
import type { AttachmentRecord, Project } from '../../model/model.ts';
import type { BlobStore, StoredBlob } from '../../store/blob-store.ts';
import type { DocumentRequest } from '../../store/document-request-queries.ts';
import type { Store, StoreWriter } from '../../store/store.ts';
import { boundText } from '../bounded-text.ts';
import { SYSTEM_USER_ID, systemCaller, systemContext } from '../deadlines/deadline-poller.ts';
import type { BackgroundTask, WorkLog } from '../events/background-work.ts';
import { changeProject } from '../projects/change-project.ts';
import type { ReactingDeps } from '../projects/change-reaction.ts';
import type { ProgramContext } from '../projects/project-context.ts';
import { documentTemplates } from '../document-templates.ts';
import { GENERATED_ACTION } from '../document-request.ts';

/** How requests are worked: claims per round, how long a claim lasts, and when to give up on one. */
export interface GenerationPolicy {
  batch: number;
  /** Longer than a render may take: a claim whose worker died (or hangs) comes free when it ends, and the request runs again. */
  leaseMs: number;
  /** Attempts before a request is marked failed. */
  maxAttempts: number;
  /** The wait after the first failure; it doubles with each further one, up to `maxDelayMs`. */
  firstDelayMs: number;
  maxDelayMs: number;
}

/** Five attempts over about a quarter of an hour: 30 s, 1, 2, 4 minutes apart, then failed for good. */
export const DEFAULT_GENERATION_POLICY: GenerationPolicy = { batch: 5, leaseMs: 300_000, maxAttempts: 5, firstDelayMs: 30_000, maxDelayMs: 3_600_000 };

/** The most bytes one generated document may have. */
export const MAX_GENERATED_BYTES = 50 * 1024 * 1024;

/** A generated version as the change that stores it sees it, for what must happen with it exactly once. */
export interface StoredDocument {
  tx: StoreWriter; ctx: ProgramContext; project: Project; template: DocumentTemplate; request: DocumentRequest; version: AttachmentRecord; now: number;
}

/** What generation needs: the store, the renderer (the seam §1 of issue 32 implements), where files are kept, the change step's reactions. */
export interface GenerationDeps extends ReactingDeps {
  store: Store; clock: Clock; ids: IdGenerator; publicUrl?: string;
  renderer: DocumentRenderer; blobs: BlobStore; log?: WorkLog;
  /**
   * Runs inside the change that stores the version, after it (signing: an envelope for a template with signers), so
   * that it commits with the version, exactly once per request; a throw rolls the version back and the request runs again.
   */
  onStored?: (stored: StoredDocument) => Promise<void>;
}

/** How often due requests are looked for besides the wake after every change (ms). */
export const GENERATION_POLL_MS = 15_000;

/** The background task that renders queued document requests (woken after every change, and every GENERATION_POLL_MS). */
export function documentGenerationTask(deps: GenerationDeps, policy: GenerationPolicy = DEFAULT_GENERATION_POLICY): BackgroundTask {
  return { what: 'document generation', intervalMs: GENERATION_POLL_MS, run: () => generateDueDocuments(deps, policy) };
}

/**
 * One round: claims due requests in a short transaction, then for each renders the document holding no lock, stores
 * the bytes, and in a change of its own (project locked, audit row, event document.generated) makes them the
 * template's attachment definition's new version. Inside that change the request is read again: one another worker
 * finished meanwhile (a claim that outlived its lease) is left alone and these bytes dropped, and the version row
 * names its request (a unique column), so each request makes exactly one version however often its work runs.
 * Returns true when the round was full.
 */
export async function generateDueDocuments(deps: GenerationDeps, policy: GenerationPolicy = DEFAULT_GENERATION_POLICY): Promise<boolean> {
  const claimed = await deps.store.transaction((tx) => tx.documents.claimDueDocumentRequests(deps.clock.now(), policy.leaseMs, policy.batch));
  for (const request of claimed) {
    try {
      await generateOne(deps, policy, request);
    } catch (error) {
      // A database hiccup while settling: the claim runs out and the request is tried again.
      deps.log?.warn({ err: error, requestId: request.id }, 'generating a document failed; it is tried again when its claim ends');
    }
  }
  return claimed.length === policy.batch;
}

async function generateOne(deps: GenerationDeps, policy: GenerationPolicy, request: DocumentRequest): Promise<void> {
  const ctx = await systemContext(deps.store, request.programId);
  const template = ctx ? documentTemplates(ctx.model).find((t) => t.customId === request.documentId) : undefined;
  if (!ctx || !template) return giveUp(deps, request, `the program no longer has the document ${request.documentId}`);
  if (!ctx.model.forms.some((f) => f.attachments.some((a) => a.id === template.attachmentId))) {
    return giveUp(deps, request, `the document ${template.customId} has no attachment definition to store its files in`);
  }
  let stored: StoredBlob;
  let templateVersion: string;
  try {
    const rendered = await deps.renderer.renderForProject({ programId: ctx.program.id, templateId: template.customId, projectId: request.projectId, now: deps.clock.now() });
    templateVersion = rendered.templateVersion;
    stored = await deps.blobs.write(Readable.from([Buffer.from(rendered.pdf)]), MAX_GENERATED_BYTES);
  } catch (error) {
    return failAttempt(deps, policy, request, error, 'rendering failed');
  }
  let made = false;
  try {
    made = await storeVersion(deps, ctx, template, request, stored, templateVersion);
  } catch (error) {
    // Counted like a failed render: what keeps failing (onStored, say) ends failed with its reason, not retried forever.
    await failAttempt(deps, policy, request, error, 'storing failed');
  } finally {
    if (!made) await discard(deps, stored.key);
  }
}

/** The change that makes the rendered bytes a version; false when the request was settled meanwhile (nothing written). */
async function storeVersion(deps: GenerationDeps, ctx: ProgramContext, template: DocumentTemplate, request: DocumentRequest, stored: StoredBlob, templateVersion: string): Promise<boolean> {
  return changeProject(deps, systemCaller(ctx.program), ctx, request.projectId, {
    action: GENERATED_ACTION, access: 'read',
    act: async ({ tx, project, now }) => {
      const current = await tx.documents.getDocumentRequest(request.id);
      if (!current || current.state !== 'queued' || (await tx.attachments.getAttachmentOfRequest(request.id))) return { changed: false, result: () => false };
      const previous = await tx.attachments.getAttachment(project.id, template.attachmentId);
      const record: AttachmentRecord = {
        id: deps.ids.next(), projectId: project.id, definitionId: template.attachmentId, version: (previous?.version ?? 0) + 1, blobKey: stored.key,
        fileName: `${template.customId}.pdf`, contentType: 'application/pdf', sizeBytes: stored.size, sha256: stored.sha256,
        // The service made it: nobody reviews its own output, so it does not wait in the queue as an upload does.
        uploadedBy: SYSTEM_USER_ID, uploadedAt: now, approvalStatus: 'Approved', note: null, reviewedBy: null, reviewedAt: null,
        documentRequestId: request.id, templateVersion,
      };
      await tx.attachments.insertAttachment(record);
      await tx.documents.markDocumentGenerated(request.id, now, current.attempts + 1, record.version);
      await deps.onStored?.({ tx, ctx, project, template, request: current, version: record, now });
      return {
        detail: {
          documentId: template.customId, requestId: request.id, attachmentId: template.attachmentId, version: record.version, size: record.sizeBytes,
          sha256: record.sha256, templateVersion, visibleToApplicant: template.visibleToApplicant, ...(request.automation ? { requestedBy: request.automation } : {}),
        },
        result: () => true,
      };
    },
  });
}

/** The wait before attempt `attempts + 1`: doubling from firstDelayMs, at most maxDelayMs. */
export function generationDelay(policy: GenerationPolicy, attempts: number): number {
  return Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** Math.max(0, attempts - 1));
}

async function failAttempt(deps: GenerationDeps, policy: GenerationPolicy, request: DocumentRequest, error: unknown, what: string): Promise<void> {
  const attempts = request.attempts + 1;
  const now = deps.clock.now();
  const last = attempts >= policy.maxAttempts;
  const cause = boundText(`${what}: ${(error as Error)?.message ?? String(error)}`, 400);
  await deps.store.transaction((tx) => tx.documents.markDocumentAttemptFailed(request.id, attempts, cause, last ? null : now + generationDelay(policy, attempts), now));
  deps.log?.warn({ requestId: request.id, documentId: request.documentId, attempts, error: cause },
    last ? `generating document request ${request.id} failed for the last time; it is marked failed` : `generating document request ${request.id} failed; it is tried again later`);
}

/** A request that can never succeed (its template or definition is gone): failed at once, with the reason. */
async function giveUp(deps: GenerationDeps, request: DocumentRequest, reason: string): Promise<void> {
  await deps.store.transaction((tx) => tx.documents.markDocumentAttemptFailed(request.id, request.attempts + 1, reason, null, deps.clock.now()));
}

async function discard(deps: GenerationDeps, key: string): Promise<void> {
  const referenced = await deps.store.attachments.isBlobReferenced(key).catch(() => true);
  // Whatever is left behind here, the orphan sweep removes.
  if (!referenced) await deps.blobs.delete(key).catch(() => {});
}
