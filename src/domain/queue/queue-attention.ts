import type { StoreWriter } from '../../store/store.ts';
import type { AttentionChange, DeadlineMarks } from '../../store/queue-view-queries.ts';
import { isStaff, type Role } from '../roles/access.ts';
import type { Program, ProgramModel } from '../../model/model.ts';
import type { ProgramContext } from '../projects/project-context.ts';
import type { ChangeReaction } from '../projects/change-reaction.ts';
import { attentionDueBy } from './queue-columns.ts';

// Actions whose note answers (or asks) the other side of an inquiry thread.
const NOTE_ACTIONS = new Set(['inquiry.note.add', 'inquiry.thread.open']);
// Actions that change which files await review: an upload or review, and a status move (a draft's files await review
// once it is submitted, and no longer once it is back in the initial status).
const FILE_ACTIONS = new Set(['project.attachment.upload', 'project.attachment.review', 'project.submit', 'project.status.set']);
// Actions that change the project's status or its deadlines' states: the overdue and near bits are recounted.
const DEADLINE_ACTIONS = new Set(['project.submit', 'project.status.set', 'project.deadline.start', 'project.deadline.satisfy', 'project.deadline.cancel', 'project.deadline.pass']);

/**
 * What one recorded change means for the work queue's kept columns: any change by an applicant role (one that does
 * not read every project) is applicant activity; an applicant's note sets "answered", a staff note the applicant
 * can see clears it (an internal note answers nobody); an upload, review or status move recounts the files awaiting review; a
 * change of status or deadline recounts overdue and near with what `deadlines` gives (asked only for such a change:
 * the near window is a walk of the program's calendar).
 */
export function attentionOf(role: Role, action: string, detail: Record<string, unknown>, at: number, deadlines: () => DeadlineMarks): AttentionChange {
  const staff = isStaff(role);
  const note = NOTE_ACTIONS.has(action);
  return {
    applicantAt: staff ? null : at,
    reply: !note ? null : !staff ? true : detail.visibleToApplicant === true ? false : null,
    recountFiles: FILE_ACTIONS.has(action),
    recountDeadlines: DEADLINE_ACTIONS.has(action) ? deadlines() : null,
    // A callConnection's call failed after its retries, or one was applied (src/domain/connections).
    connection: action === 'project.connection.fail' ? true : action === 'project.connection.apply' ? false : null,
  };
}

/** Keeps the queue's needs-attention columns in the change's transaction (for every audit row of a project, through queueAttentionReaction). */
export async function keepQueueAttention(tx: StoreWriter, ctx: ProgramContext, projectId: string, action: string, detail: Record<string, unknown>, at: number): Promise<void> {
  await tx.queueViews.keepQueueAttention(projectId, attentionOf(ctx.role, action, detail, at, () => deadlineMarks(ctx.program, ctx.model, at)));
}

/** What a program's deadline bits are counted with at `at`: its statuses with a move onward and the end of its near window. */
export function deadlineMarks(program: Program, model: Pick<ProgramModel, 'statuses'>, at: number): DeadlineMarks {
  return { openStatusIds: openStatusIds(model), nearBy: attentionDueBy(program, at) };
}

/** The statuses with a move onward: a deadline that passed while the project is in one of them is overdue. */
export function openStatusIds(model: Pick<ProgramModel, 'statuses'>): string[] {
  return model.statuses.filter((s) => s.next.length > 0).map((s) => s.id);
}

/** The needs-attention columns as a reaction of the change step: kept for every audit row, in its transaction. */
export const queueAttentionReaction: ChangeReaction = {
  name: 'queue attention',
  recorded: (tx, _deps, _caller, ctx, r) => keepQueueAttention(tx, ctx, r.projectId, r.action, r.detail, r.at),
};
