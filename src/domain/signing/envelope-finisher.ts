import { buffer } from 'node:stream/consumers';
import { Readable } from 'node:stream';
import type { Clock } from '../../model/clock.ts';
import type { Envelope, SignedBy, SignedPdfMaker } from '../../model/document.ts';
import type { IdGenerator } from '../../model/ids.ts';
import type { AttachmentRecord } from '../../model/model.ts';
import type { BlobStore } from '../../store/blob-store.ts';
import type { Store } from '../../store/store.ts';
import { cleanFileName } from '../projects/attachment-rules.ts';
import { changeProject } from '../projects/change-project.ts';
import type { ReactingDeps } from '../projects/change-reaction.ts';
import { DEFAULT_CALENDAR } from '../calendar/working-days.ts';
import type { BackgroundTask, WorkLog } from '../events/background-work.ts';
import { systemCaller, systemContext, SYSTEM_USER_ID } from '../deadlines/deadline-poller.ts';

/** Envelopes finished per round; a full round runs again at once. */
export const FINISH_BATCH = 10;

/** How often envelopes every signer has signed are looked for (ms); background work is also woken after each change. */
export const FINISH_POLL_MS = 30_000;

/** The largest signed PDF kept (bytes): far above any document with a signature page and a trail. */
const MAX_SIGNED_PDF_BYTES = 64 * 1024 * 1024;

/** What finishing envelopes needs: the store and files, the maker of signed PDFs, and the change step's reactions. */
export interface FinisherDeps extends ReactingDeps { store: Store; clock: Clock; ids: IdGenerator; blobs: BlobStore; maker: SignedPdfMaker; log?: WorkLog }

/**
 * Finishes the envelopes every signer has signed: outside any transaction the document is read and the signed PDF
 * made (SignedPdfMaker: signature page, certificate of completion, seal) and stored; then, in a change of the project
 * that checks the envelope again, the PDF becomes the document's new attachment version (with its SHA-256) and the
 * envelope `completed` (audit `project.envelope.complete`, event and trigger envelope.completed). At least once: an
 * instance that dies before the change leaves the envelope for the next round; a PDF made twice is dropped the
 * second time. Returns how many envelopes it found.
 */
export async function finishSignedEnvelopes(deps: FinisherDeps, limit = FINISH_BATCH): Promise<number> {
  const due = await deps.store.envelopes.envelopesToFinish(limit);
  for (const e of due) {
    try {
      await finishOne(deps, e);
    } catch (error) {
      // One envelope's failure (its maker, a lock timeout) must not hold up the others; it stays to be finished.
      deps.log?.warn({ err: error, envelopeId: e.id, projectId: e.projectId }, 'making a signed PDF failed; trying again next round');
    }
  }
  return due.length;
}

async function finishOne(deps: FinisherDeps, e: Envelope): Promise<void> {
  const { store, blobs } = deps;
  const ctx = await systemContext(store, e.programId);
  const project = ctx && await store.projects.getProject(ctx.program.id, e.projectId);
  const doc = project && await store.attachments.getAttachment(project.id, e.attachmentId, e.attachmentVersion);
  if (!ctx || !project || !doc) return;
  const [signers, steps] = await Promise.all([store.envelopes.listSigners([e.id]), store.envelopes.listSteps(e.id)]);
  const signedBy: SignedBy[] = signers.map((s) => ({ signerName: s.name, role: s.label, email: s.email, typedName: s.typedName ?? '', signedAt: s.signedAt ?? 0, ip: s.ip }));
  const pdf = await deps.maker.make({
    document: await buffer(await blobs.read(doc.blobKey)), title: e.title, envelopeId: e.id, projectNumber: project.number ?? project.id,
    signers: signedBy, steps, timeZone: (ctx.program.calendar ?? DEFAULT_CALENDAR).timeZone,
  });
  const stored = await blobs.write(Readable.from([Buffer.from(pdf)]), MAX_SIGNED_PDF_BYTES);
  let kept = false;
  try {
    kept = await changeProject(deps, systemCaller(ctx.program), ctx, e.projectId, {
      action: 'project.envelope.complete', access: 'read',
      act: async ({ tx, now }) => {
        const current = await tx.envelopes.findEnvelope(e.id);
        // Voided meanwhile, or finished by another instance: this PDF is not wanted.
        if (!current || current.state !== 'sent' || current.allSignedAt === null) return { changed: false, result: () => false };
        const previous = await tx.attachments.getAttachment(e.projectId, e.attachmentId);
        const record: AttachmentRecord = {
          id: deps.ids.next(), projectId: e.projectId, definitionId: e.attachmentId, version: (previous?.version ?? 0) + 1, blobKey: stored.key,
          fileName: cleanFileName(`${e.title} (signed).pdf`), contentType: 'application/pdf', sizeBytes: stored.size, sha256: stored.sha256,
          // The service's own output, like a generated version: from `system`, approved (nobody reviews the seal).
          uploadedBy: SYSTEM_USER_ID, uploadedAt: now, approvalStatus: 'Approved', note: null, reviewedBy: null, reviewedAt: null,
        };
        await tx.attachments.insertAttachment(record);
        await tx.envelopes.updateEnvelope(e.id, now, { state: 'completed', finishedAt: now, signedVersion: record.version });
        await tx.envelopes.appendStep(deps.ids.next(), e.id, {
          at: now, signerId: null, action: 'completed', userId: null, ip: null, userAgent: null, detail: { version: record.version, sha256: stored.sha256 },
        });
        return {
          detail: { envelopeId: e.id, documentId: e.templateId, attachmentId: e.attachmentId, version: record.version, sha256: stored.sha256 },
          result: () => true,
        };
      },
    });
  } finally {
    if (!kept) await blobs.delete(stored.key).catch(() => {});
  }
}

/** The background task that finishes signed envelopes every FINISH_POLL_MS (or `intervalMs`) and when woken. */
export function envelopeFinisherTask(deps: FinisherDeps, intervalMs = FINISH_POLL_MS): BackgroundTask {
  return { what: 'envelope finisher', intervalMs, run: async () => (await finishSignedEnvelopes(deps)) === FINISH_BATCH };
}
