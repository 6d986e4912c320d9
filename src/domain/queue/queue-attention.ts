import type { StoreWriter } from '../../store/store.ts';
import type { AttentionChange } from '../../store/queue-view-queries.ts';
import { isStaff, type Role } from '../roles/access.ts';

// Actions whose note answers (or asks) the other side of an inquiry thread.
const NOTE_ACTIONS = new Set(['inquiry.note.add', 'inquiry.thread.open']);
// Actions that change which files await review.
const FILE_ACTIONS = new Set(['project.attachment.upload', 'project.attachment.review']);

/**
 * What one recorded change means for the work queue's kept columns: any change by an applicant role (one that does
 * not read every project) is applicant activity; an applicant's note sets "answered", a staff note the applicant
 * can see clears it (an internal note answers nobody); an upload or review recounts the files awaiting review.
 */
export function attentionOf(role: Role, action: string, detail: Record<string, unknown>, at: number): AttentionChange {
  const staff = isStaff(role);
  const note = NOTE_ACTIONS.has(action);
  return {
    applicantAt: staff ? null : at,
    reply: !note ? null : !staff ? true : detail.visibleToApplicant === true ? false : null,
    recountFiles: FILE_ACTIONS.has(action),
  };
}

/** Keeps the queue's needs-attention columns in the change's transaction (called by recordChange for every audit row of a project). */
export async function keepQueueAttention(tx: StoreWriter, role: Role, projectId: string, action: string, detail: Record<string, unknown>, at: number): Promise<void> {
  await tx.queueViews.keepQueueAttention(projectId, attentionOf(role, action, detail, at));
}
